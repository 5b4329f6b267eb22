/**
 * Flows (issue 25): a session a flow ran is named for its flow, and each turn says which kind of step it ran
 * for (`do`, `assert`, `extract`, `if`, `wait_for`) and, for a step that asked a question, the model's
 * validated answer as JSON (kind, value, reason, evidence ids). Columns on the rows they describe: a turn has
 * at most one step and one answer, written when it begins and when it ends. Older rows read NULL: a turn that
 * was a plain request.
 */
import type { Migration } from './migration.js';

export const flowStepsAndAnswers: Migration = {
  version: 12,
  name: 'flow-steps-and-answers',
  up(database) {
    database.exec(`
      ALTER TABLE sessions ADD COLUMN flow_name TEXT;
      ALTER TABLE turns ADD COLUMN step_kind TEXT;
      ALTER TABLE turns ADD COLUMN answer TEXT;
    `);
  },
};
