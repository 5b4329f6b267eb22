/**
 * How a turn's ending becomes the exit code scripts branch on (docs/cli.md): 0 finished, 1 failed, 3 stopped,
 * and 2, as for a bad flag, when the model's endpoint answered that the setup is wrong (key, model, base URL).
 */
import type { TurnOutcome } from '../../agent/index.js';
import { EXIT } from '../io.js';

export function exitCodeOf(outcome: Pick<TurnOutcome, 'status'> & { reason?: TurnOutcome['reason'] }): number {
  if (outcome.reason === 'setup') return EXIT.usage;
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
