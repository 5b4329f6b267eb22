/**
 * Which process runs a turn: its pid and host, written when the turn starts. A process that dies mid-turn
 * (killed, crashed, the laptop's battery ran out) leaves its turn 'running'; at the next start, a running
 * turn whose process is gone is ended as stopped. The host keeps a home shared between machines from
 * judging another machine's pids; rows from before this migration have no owner and count as abandoned.
 */
import type { Migration } from './migration.js';

export const turnOwner: Migration = {
  version: 5,
  name: 'turn-owner',
  up(database) {
    database.exec(`
      ALTER TABLE turns ADD COLUMN owner_pid INTEGER;
      ALTER TABLE turns ADD COLUMN owner_host TEXT;
      CREATE INDEX turns_running ON turns (status) WHERE status = 'running';
    `);
  },
};
