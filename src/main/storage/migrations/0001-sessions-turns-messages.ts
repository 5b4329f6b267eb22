/**
 * The conversation itself: sessions, their turns (one per user request) and the messages of each turn.
 * A message row holds one src/shared Message: its parts (image parts carry ids, never pixels), and for
 * assistant and tool messages the tool-call fields. `messages.turn_id` may be NULL: rows written before turns existed are kept whole and never compacted.
 * Times are ISO 8601 UTC strings (`2026-01-02T03:04:05.678Z`) everywhere: readable and sortable as text.
 */
import type { Migration } from './migration.js';

export const sessionsTurnsMessages: Migration = {
  version: 1,
  name: 'sessions-turns-messages',
  up(database) {
    database.exec(`
      CREATE TABLE sessions (
        id          TEXT PRIMARY KEY,
        title       TEXT NOT NULL,
        status      TEXT NOT NULL DEFAULT 'idle' CHECK (status IN ('idle', 'running', 'closed')),
        operator    TEXT,
        model       TEXT,
        created_at  TEXT NOT NULL,
        updated_at  TEXT NOT NULL
      ) STRICT;
      CREATE INDEX sessions_by_created_at ON sessions (created_at);

      CREATE TABLE turns (
        id            TEXT PRIMARY KEY,
        session_id    TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
        sequence      INTEGER NOT NULL CHECK (sequence >= 1),
        user_request  TEXT NOT NULL,
        status        TEXT NOT NULL DEFAULT 'running'
                      CHECK (status IN ('running', 'finished', 'failed', 'stopped')),
        started_at    TEXT NOT NULL,
        ended_at      TEXT,
        compacted_at  TEXT,
        summary       TEXT,
        UNIQUE (session_id, sequence)
      ) STRICT;

      CREATE TABLE messages (
        id             TEXT PRIMARY KEY,
        session_id     TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
        turn_id        TEXT REFERENCES turns (id) ON DELETE CASCADE,
        sequence       INTEGER NOT NULL CHECK (sequence >= 1),
        role           TEXT NOT NULL CHECK (role IN ('system', 'user', 'assistant', 'tool')),
        parts          TEXT NOT NULL CHECK (json_valid(parts) AND json_type(parts) = 'array'),
        tool_calls     TEXT CHECK (tool_calls IS NULL OR (json_valid(tool_calls) AND json_type(tool_calls) = 'array')),
        tool_call_id   TEXT,
        tool_name      TEXT,
        is_error       INTEGER NOT NULL DEFAULT 0 CHECK (is_error IN (0, 1)),
        is_compressed  INTEGER NOT NULL DEFAULT 0 CHECK (is_compressed IN (0, 1)),
        created_at     TEXT NOT NULL,
        UNIQUE (session_id, sequence)
      ) STRICT;
      CREATE INDEX messages_by_turn ON messages (turn_id, sequence);
    `);
  },
};
