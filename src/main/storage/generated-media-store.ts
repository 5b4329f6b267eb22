/**
 * Media a model generated: the bytes in the blob store, content-addressed like screenshots, and the
 * assistant message that produced them holding the id `med_<sha256>` with the mime (see
 * shared/generated-media.ts). The messages are the only record, so what is listed, found or kept is read
 * from their parts.
 */
import { z } from 'zod';
import {
  GENERATED_MEDIA_KINDS,
  generatedMediaId,
  sha256OfGeneratedMedia,
  type GeneratedMedia,
} from '../../shared/generated-media.js';
import type { BlobReadResult, BlobStore } from './blob-store.js';
import type { Database } from './database.js';
import { parseRows } from './repositories/columns.js';

const MIME_PATTERN = /^(image|audio)\/[a-z0-9.+-]+$/i;

/** One generated part as its message holds it (only what listing needs). */
const StoredPartSchema = z.object({
  type: z.enum(GENERATED_MEDIA_KINDS),
  mediaId: z.string(),
  mime: z.string(),
  width: z.number().int().positive().optional(),
  height: z.number().int().positive().optional(),
});

const MediaRow = z.object({ session_id: z.string(), turn_id: z.string().nullable(), part: z.string() });

export interface StoredMedia {
  mediaId: string;
  sha256: string;
  byteSize: number;
}

/** The rows of assistant messages' parts that carry a mediaId; callers add their own conditions. */
const GENERATED_PARTS = `
  SELECT messages.session_id AS session_id, messages.turn_id AS turn_id, part.value AS part
  FROM messages, json_each(messages.parts) AS part
  WHERE messages.role = 'assistant' AND json_extract(part.value, '$.mediaId') IS NOT NULL`;

export class GeneratedMediaStore {
  private readonly bySessionStatement;
  private readonly byIdStatement;
  private readonly allStatement;

  constructor(
    database: Database,
    private readonly blobs: BlobStore,
  ) {
    this.bySessionStatement = database.prepare(`${GENERATED_PARTS} AND messages.session_id = ? ORDER BY messages.sequence`);
    this.byIdStatement = database.prepare(`${GENERATED_PARTS} AND json_extract(part.value, '$.mediaId') = ? LIMIT 1`);
    this.allStatement = database.prepare(GENERATED_PARTS);
  }

  /** Writes the bytes (once per content) and returns the id the assistant message keeps. */
  async put(bytes: Uint8Array, mime: string): Promise<StoredMedia> {
    if (bytes.byteLength === 0) throw new Error('Generated media cannot be empty.');
    if (!MIME_PATTERN.test(mime)) throw new Error(`Generated media must be an image or audio type, not "${mime}".`);
    const { sha256, byteSize } = await this.blobs.write(bytes, mime.toLowerCase());
    return { mediaId: generatedMediaId(sha256), sha256, byteSize };
  }

  /** Every generated part of a session's assistant messages, in message order. */
  listBySession(sessionId: string): GeneratedMedia[] {
    return this.rows(this.bySessionStatement.all(sessionId)).map(({ record }) => record);
  }

  /** The media with this id and the session it belongs to, if a message holds it. */
  find(mediaId: string): { sessionId: string; media: GeneratedMedia } | undefined {
    const [found] = this.rows(this.byIdStatement.all(mediaId));
    return found === undefined ? undefined : { sessionId: found.sessionId, media: found.record };
  }

  /** The bytes of media a message holds (the read re-checks their hash, like a screenshot's). */
  async read(media: Pick<GeneratedMedia, 'mediaId' | 'mime'>): Promise<BlobReadResult> {
    const sha256 = sha256OfGeneratedMedia(media.mediaId);
    if (sha256 === undefined) return { status: 'unavailable', reason: 'missing', message: `${media.mediaId} is not a generated media id.` };
    return this.blobs.read(sha256, media.mime);
  }

  /** The sha256 of every file some message names: what the blob store must keep besides the images' files. */
  referencedFiles(): Set<string> {
    const hashes = this.rows(this.allStatement.all()).map(({ record }) => sha256OfGeneratedMedia(record.mediaId));
    return new Set(hashes.filter((hash): hash is string => hash !== undefined));
  }

  private rows(rows: unknown[]): Array<{ sessionId: string; record: GeneratedMedia }> {
    const result: Array<{ sessionId: string; record: GeneratedMedia }> = [];
    for (const row of parseRows(MediaRow, rows, 'messages')) {
      const part = StoredPartSchema.safeParse(JSON.parse(row.part));
      // A part that only looks generated (a mediaId on something else) is not ours to list.
      if (!part.success || sha256OfGeneratedMedia(part.data.mediaId) === undefined) continue;
      const { type, mediaId, mime, width, height } = part.data;
      result.push({
        sessionId: row.session_id,
        record: {
          mediaId,
          turnId: row.turn_id ?? '',
          kind: type,
          mime,
          ...(width === undefined ? {} : { width }),
          ...(height === undefined ? {} : { height }),
        },
      });
    }
    return result;
  }
}
