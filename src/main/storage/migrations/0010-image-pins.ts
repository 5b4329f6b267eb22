/**
 * Frames a person pinned (issue 16): a pinned frame is sent whole in every later request of its session and
 * folds last under budget pressure. A row of its own rather than a column on images: a pin is the person's
 * choice, made and undone at any time, while an image row describes pixels that compaction and retention
 * manage. The pin goes with its image (and so with its session) by ON DELETE CASCADE.
 */
import type { Migration } from './migration.js';

export const imagePins: Migration = {
  version: 10,
  name: 'image-pins',
  up(database) {
    database.exec(`
      CREATE TABLE image_pins (
        image_id    TEXT PRIMARY KEY REFERENCES images (id) ON DELETE CASCADE,
        session_id  TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
        pinned_at   TEXT NOT NULL
      ) STRICT;
      CREATE INDEX image_pins_by_session ON image_pins (session_id, pinned_at);
    `);
  },
};
