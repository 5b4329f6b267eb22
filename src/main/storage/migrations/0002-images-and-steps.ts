/**
 * Visual memory: the index of every stored screenshot (pixels live in blobs/ or cold-storage/, named by
 * sha256) and the steps of the loop that produced and used them.
 */
import type { Migration } from './migration.js';

export const imagesAndSteps: Migration = {
  version: 2,
  name: 'images-and-steps',
  up(database) {
    database.exec(`
      CREATE TABLE images (
        id              TEXT PRIMARY KEY,
        session_id      TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
        turn_id         TEXT REFERENCES turns (id) ON DELETE CASCADE,
        sha256          TEXT NOT NULL CHECK (length(sha256) = 64),
        phash           TEXT CHECK (phash IS NULL OR length(phash) = 16),
        hash_algorithm  TEXT,
        width           INTEGER NOT NULL CHECK (width > 0),
        height          INTEGER NOT NULL CHECK (height > 0),
        mime            TEXT NOT NULL,
        byte_size       INTEGER NOT NULL CHECK (byte_size >= 0),
        zone            TEXT NOT NULL DEFAULT 'active' CHECK (zone IN ('active', 'compact', 'offloaded')),
        is_error_frame  INTEGER NOT NULL DEFAULT 0 CHECK (is_error_frame IN (0, 1)),
        source          TEXT NOT NULL CHECK (source IN ('screen', 'browser', 'crop', 'user', 'tool')),
        display_id      TEXT,
        scale_factor    REAL,
        caption         TEXT,
        created_at      TEXT NOT NULL,
        offloaded_at    TEXT,
        purged_at       TEXT
      ) STRICT;
      CREATE INDEX images_by_session ON images (session_id, created_at);
      CREATE INDEX images_by_turn ON images (turn_id, created_at);
      CREATE INDEX images_by_sha256 ON images (sha256);
      CREATE INDEX images_by_offloaded_at ON images (offloaded_at) WHERE offloaded_at IS NOT NULL;

      CREATE TABLE steps (
        id                   TEXT PRIMARY KEY,
        session_id           TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
        turn_id              TEXT NOT NULL REFERENCES turns (id) ON DELETE CASCADE,
        sequence             INTEGER NOT NULL CHECK (sequence >= 1),
        action               TEXT NOT NULL CHECK (json_valid(action)),
        thought              TEXT,
        screenshot_image_id  TEXT REFERENCES images (id) ON DELETE SET NULL,
        dedup_of_image_id    TEXT REFERENCES images (id) ON DELETE SET NULL,
        result               TEXT CHECK (result IS NULL OR json_valid(result)),
        error                TEXT,
        latency_ms           INTEGER CHECK (latency_ms IS NULL OR latency_ms >= 0),
        input_tokens         INTEGER CHECK (input_tokens IS NULL OR input_tokens >= 0),
        output_tokens        INTEGER CHECK (output_tokens IS NULL OR output_tokens >= 0),
        token_report         TEXT CHECK (token_report IS NULL OR json_valid(token_report)),
        created_at           TEXT NOT NULL,
        UNIQUE (turn_id, sequence)
      ) STRICT;
      CREATE INDEX steps_by_session ON steps (session_id);
      CREATE INDEX steps_by_screenshot ON steps (screenshot_image_id);
    `);
  },
};
