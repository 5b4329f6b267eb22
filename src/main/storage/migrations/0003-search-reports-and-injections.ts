/**
 * What the search sub-agent found (kept so the timeline can show its sources) and a record of every
 * ephemeral injection into a request. Injections store metadata only: their content may hold secrets or
 * page text the user never meant to keep.
 */
import type { Migration } from './migration.js';

export const searchReportsAndInjections: Migration = {
  version: 3,
  name: 'search-reports-and-injections',
  up(database) {
    database.exec(`
      CREATE TABLE search_reports (
        id           TEXT PRIMARY KEY,
        session_id   TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
        turn_id      TEXT REFERENCES turns (id) ON DELETE CASCADE,
        question     TEXT NOT NULL,
        queries      TEXT NOT NULL CHECK (json_valid(queries) AND json_type(queries) = 'array'),
        sources      TEXT NOT NULL CHECK (json_valid(sources) AND json_type(sources) = 'array'),
        answer       TEXT NOT NULL,
        confidence   REAL CHECK (confidence IS NULL OR (confidence >= 0 AND confidence <= 1)),
        iterations   INTEGER NOT NULL DEFAULT 0 CHECK (iterations >= 0),
        duration_ms  INTEGER CHECK (duration_ms IS NULL OR duration_ms >= 0),
        created_at   TEXT NOT NULL
      ) STRICT;
      CREATE INDEX search_reports_by_session ON search_reports (session_id, created_at);
      CREATE INDEX search_reports_by_turn ON search_reports (turn_id);

      CREATE TABLE injections (
        id              TEXT PRIMARY KEY,
        session_id      TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
        turn_id         TEXT REFERENCES turns (id) ON DELETE CASCADE,
        type            TEXT NOT NULL,
        content_length  INTEGER NOT NULL CHECK (content_length >= 0),
        created_at      TEXT NOT NULL
      ) STRICT;
      CREATE INDEX injections_by_turn ON injections (turn_id, created_at);
      CREATE INDEX injections_by_session ON injections (session_id, created_at);
    `);
  },
};
