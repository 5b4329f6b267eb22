/**
 * The compaction journal: one row per turn whose compaction has begun. A compaction writes its plan here
 * (which images fold, which stay whole, what each message becomes) before it moves any file, and marks the
 * row done in the same transaction that updates the rows. A row still `planned` at startup belongs to a
 * compaction that was cut short; the plan says exactly how to finish it.
 */
import type { Migration } from './migration.js';

export const compactionJournal: Migration = {
  version: 4,
  name: 'compaction-journal',
  up(database) {
    database.exec(`
      CREATE TABLE compactions (
        turn_id      TEXT PRIMARY KEY REFERENCES turns (id) ON DELETE CASCADE,
        session_id   TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
        state        TEXT NOT NULL CHECK (state IN ('planned', 'done')),
        plan         TEXT NOT NULL CHECK (json_valid(plan)),
        planned_at   TEXT NOT NULL,
        finished_at  TEXT
      ) STRICT;
      CREATE INDEX compactions_unfinished ON compactions (planned_at) WHERE state = 'planned';
    `);
  },
};
