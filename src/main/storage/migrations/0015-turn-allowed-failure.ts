/**
 * A flow step allowed to fail (issue 35): a step that failed under its `continue_on_error` (or inside a Midscene
 * task with `continueOnError`) does not fail its flow, and its turn says so, so the timeline marks it allowed
 * rather than showing a plain failure. 1 for such a turn; NULL for every other turn and for older rows.
 */
import type { Migration } from './migration.js';

export const turnAllowedFailure: Migration = {
  version: 15,
  name: 'turn-allowed-failure',
  up(database) {
    database.exec('ALTER TABLE turns ADD COLUMN allowed_failure INTEGER;');
  },
};
