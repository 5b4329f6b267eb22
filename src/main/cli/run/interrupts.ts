/**
 * Ctrl+C while `sightline run` works: the first one stops the turn cleanly (the agent ends it as stopped,
 * records that, and the command exits 3); a second one, for when stopping takes too long, quits at once.
 * The database stays consistent either way (every write is a transaction), but only the first leaves the
 * turn marked as stopped.
 */

/** Exit code of a forced quit: 128 + SIGINT, what shells report for a process ended by Ctrl+C. */
export const FORCED_QUIT_EXIT_CODE = 130;

export interface InterruptWatch {
  /** Fires at the first Ctrl+C. */
  signal: AbortSignal;
  /** What a Ctrl+C does; also called for a Ctrl+C typed at a prompt (readline catches those). */
  interrupt(): void;
  /**
   * What the first Ctrl+C does, and only that: the emergency stop shortcut calls it, where a held or
   * repeated key must not turn into a forced quit.
   */
  stop(): void;
  /** Stops listening for Ctrl+C. */
  dispose(): void;
}

export function watchInterrupts(stderr: (text: string) => void): InterruptWatch {
  const controller = new AbortController();
  const stop = (): void => {
    if (controller.signal.aborted) return;
    stderr('\nstopping: the turn ends after the current action (Ctrl+C again to quit at once)\n');
    controller.abort(new Error('Stopped by Ctrl+C'));
  };
  const interrupt = (): void => {
    if (!controller.signal.aborted) return stop();
    stderr('\nquitting at once\n');
    process.exit(FORCED_QUIT_EXIT_CODE);
  };
  process.on('SIGINT', interrupt);
  return {
    signal: controller.signal,
    interrupt,
    stop,
    dispose: () => {
      process.off('SIGINT', interrupt);
    },
  };
}
