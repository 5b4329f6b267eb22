/**
 * The `openai` client's timeout covers a call only until the response headers arrive; a stream that
 * then stalls would hang the agent forever. The watchdog aborts a stream that has sent nothing for the
 * configured timeout. (A stalled stream is not retried: its first part may already be on screen.)
 */
export class StreamIdleWatchdog {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private firedFlag = false;

  constructor(
    private readonly abortStream: () => void,
    private readonly idleTimeoutMs: number,
  ) {
    this.reset();
  }

  /** Whether the watchdog ended the stream. */
  get fired(): boolean {
    return this.firedFlag;
  }

  /** Call on every chunk received. */
  reset(): void {
    this.stop();
    this.timer = setTimeout(() => {
      this.firedFlag = true;
      this.abortStream();
    }, this.idleTimeoutMs);
  }

  stop(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
