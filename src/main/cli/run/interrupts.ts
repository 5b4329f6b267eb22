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

/**
 * Under npm (`npx sightline`, an npm script), one Ctrl+C arrives twice: the terminal sends it to every process of
 * the foreground group, and npm forwards the one it got to its child, which is this process wherever the script
 * shell runs the command in its own place (bash does, as macOS's sh). Counted as two, the one Ctrl+C was a forced
 * quit, exit 130 for 3. A second within this time of the first is taken as that copy; a person reading "Ctrl+C
 * again" takes longer. (Debian's sh, dash, stays between npm and this process and dies of the Ctrl+C itself, so
 * npm reports 130 whatever this process exits with: that shell's doing, docs/cli.md.)
 */
export const FORWARDED_COPY_MS = 1000;

export function watchInterrupts(stderr: (text: string) => void, env: Readonly<Record<string, string | undefined>> = process.env): InterruptWatch {
  const controller = new AbortController();
  const underNpm = env.npm_lifecycle_event !== undefined;
  let stoppedAt = 0;
  const stop = (): void => {
    if (controller.signal.aborted) return;
    stoppedAt = Date.now();
    stderr('\nstopping: the turn ends after the current action (Ctrl+C again to quit at once)\n');
    controller.abort(new Error('Stopped by Ctrl+C'));
  };
  const interrupt = (): void => {
    if (!controller.signal.aborted) return stop();
    if (underNpm && Date.now() - stoppedAt < FORWARDED_COPY_MS) return;
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
