/**
 * Replay (issue 26): a turn run for a flow's step carries the key its recording is found by (the flow, the step's
 * kind and its text as rendered, secrets as placeholders) and, once it ends, what its replay came to (shared/
 * replay.ts, as JSON): replayed, healed, diverged or run by the model, with its model calls and cost. The latest
 * finished turn of a key is the step's recording, so a turn cut short (killed, stopped, failed) never replaces one.
 */
import type { Migration } from './migration.js';

export const turnReplay: Migration = {
  version: 13,
  name: 'turn-replay',
  up(database) {
    database.exec(`
      ALTER TABLE turns ADD COLUMN replay_key TEXT;
      ALTER TABLE turns ADD COLUMN replay TEXT;
      CREATE INDEX turns_replay_key ON turns (replay_key, status) WHERE replay_key IS NOT NULL;
    `);
  },
};
