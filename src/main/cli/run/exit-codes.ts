/** How a turn's ending becomes the exit code scripts branch on (docs/cli.md): 0 finished, 1 failed, 3 stopped. */
import type { TurnOutcome } from '../../agent/index.js';
import { EXIT } from '../io.js';

export function exitCodeOf(outcome: Pick<TurnOutcome, 'status'>): number {
  switch (outcome.status) {
    case 'finished':
      return EXIT.ok;
    case 'stopped':
      return EXIT.stopped;
    case 'failed':
    case 'running':
      return EXIT.failed;
  }
}
