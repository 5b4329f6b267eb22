/**
 * An index of the media models generated (issue 16): one row per `med_<sha256>` part of an assistant
 * message. The message stays the record; the row only lets a lookup by id, a session's listing and
 * startup's "which files are named" read a few indexed rows instead of every message's JSON.
 *
 * Triggers on `messages` keep it, so every write of a message (an append, compaction's rewrite, masking's
 * rewrite, a write a later change adds) updates it in the same statement, and no writer can forget to. The
 * back-fill below and the triggers select with the same SQL, so old and new rows are judged alike. A row
 * goes with its message (and so with its session) by ON DELETE CASCADE.
 *
 * Which parts count is what the store accepted when it read the parts itself: an image or audio part of an
 * assistant message whose mediaId is `med_` and 64 lowercase hex digits and whose mime is text, with a width
 * and height that are positive whole numbers when present. Paths go through the message's array
 * (`part.fullkey`), not the element, so an element that is not an object yields NULLs instead of an error.
 */
import type { Migration } from './migration.js';

/** A field of the part `part` (a json_each row) of the array `parts`. */
function field(parts: string, name: string): string {
  return `json_extract(${parts}, part.fullkey || '.${name}')`;
}

function fieldType(parts: string, name: string): string {
  return `json_type(${parts}, part.fullkey || '.${name}')`;
}

/** Absent, or a positive whole number (JSON may spell 96 as 96.0). */
function optionalPositiveWhole(parts: string, name: string): string {
  const value = field(parts, name);
  return `(${fieldType(parts, name)} IS NULL OR (${fieldType(parts, name)} IN ('integer', 'real') AND ${value} > 0 AND ${value} = CAST(${value} AS INTEGER)))`;
}

/**
 * The INSERT of the generated parts of the message whose columns are `message.*`: `messages` for the
 * back-fill (with the table in FROM), `NEW` in the triggers.
 */
function insertGeneratedParts(message: string, from: string): string {
  const parts = `${message}.parts`;
  const mediaId = field(parts, 'mediaId');
  return `
    INSERT INTO generated_media (message_id, part_index, session_id, media_id, kind, mime, width, height)
    SELECT ${message}.id, part.key, ${message}.session_id, ${mediaId}, ${field(parts, 'type')}, ${field(parts, 'mime')},
           CAST(${field(parts, 'width')} AS INTEGER), CAST(${field(parts, 'height')} AS INTEGER)
    FROM ${from}json_each(${parts}) AS part
    WHERE ${message}.role = 'assistant'
      AND ${field(parts, 'type')} IN ('image', 'audio')
      AND ${fieldType(parts, 'mediaId')} = 'text'
      AND length(${mediaId}) = 68 AND substr(${mediaId}, 1, 4) = 'med_' AND substr(${mediaId}, 5) NOT GLOB '*[^0-9a-f]*'
      AND ${fieldType(parts, 'mime')} = 'text'
      AND ${optionalPositiveWhole(parts, 'width')}
      AND ${optionalPositiveWhole(parts, 'height')}`;
}

export const generatedMedia: Migration = {
  version: 11,
  name: 'generated-media',
  up(database) {
    database.exec(`
      CREATE TABLE generated_media (
        message_id  TEXT NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
        part_index  INTEGER NOT NULL CHECK (part_index >= 0),
        session_id  TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
        media_id    TEXT NOT NULL,
        kind        TEXT NOT NULL CHECK (kind IN ('image', 'audio')),
        mime        TEXT NOT NULL,
        width       INTEGER CHECK (width IS NULL OR width > 0),
        height      INTEGER CHECK (height IS NULL OR height > 0),
        PRIMARY KEY (message_id, part_index)
      ) STRICT;
      CREATE INDEX generated_media_by_media ON generated_media (media_id);
      CREATE INDEX generated_media_by_session ON generated_media (session_id);

      ${insertGeneratedParts('messages', 'messages, ')};

      CREATE TRIGGER generated_media_of_new_message AFTER INSERT ON messages
      BEGIN
        ${insertGeneratedParts('NEW', '')};
      END;

      -- Any change may add, drop or move a part (compaction and masking rewrite parts): index the message anew.
      CREATE TRIGGER generated_media_of_changed_message AFTER UPDATE ON messages
      BEGIN
        DELETE FROM generated_media WHERE message_id = OLD.id;
        ${insertGeneratedParts('NEW', '')};
      END;
    `);
  },
};
