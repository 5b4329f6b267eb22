/**
 * The team store (issue 29): which sessions of this home a replicator must still ship to PostgreSQL. A run marks
 * its session dirty as steps land; the replicator ships the session and marks it shipped. A local journal, like
 * the compaction journal: never replicated itself, and gone with its session (ON DELETE CASCADE).
 *
 * Marks are numbered by one counter across the table (the highest mark plus one), not by time: a shipment
 * covers the mark it read, so a step that lands while the rows are on their way leaves the session dirty,
 * and "oldest first" holds even when two marks share a millisecond.
 * - `dirty_mark`: the latest mark.
 * - `shipped_mark`: the mark the last shipment covered (NULL: never shipped). Pending while below dirty_mark.
 * - `pending_since`: the first mark not shipped yet, which orders the pending sessions.
 */
import type { Migration } from './migration.js';

export const replicationMarks: Migration = {
  version: 14,
  name: 'replication-marks',
  up(database) {
    database.exec(`
      CREATE TABLE replication_marks (
        session_id     TEXT PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
        dirty_mark     INTEGER NOT NULL CHECK (dirty_mark >= 1),
        pending_since  INTEGER NOT NULL CHECK (pending_since >= 1),
        shipped_mark   INTEGER CHECK (shipped_mark IS NULL OR shipped_mark >= 1),
        marked_at      TEXT NOT NULL,
        shipped_at     TEXT
      ) STRICT;
      CREATE INDEX replication_marks_pending ON replication_marks (pending_since)
        WHERE shipped_mark IS NULL OR shipped_mark < dirty_mark;
    `);
  },
};
