/**
 * Media a model generated: the bytes in the blob store, content-addressed like screenshots, and the
 * assistant message that produced them holding the id `med_<sha256>` with the mime (see
 * shared/generated-media.ts). The message is the record; the `generated_media` table (migration 0011) is an
 * index of its parts that triggers keep with every message write, so a lookup, a session's listing and
 * startup's list of named files read indexed rows instead of parsing every message ever stored.
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

const MediaRow = z
  .object({
    session_id: z.string(),
    turn_id: z.string().nullable(),
    media_id: z.string(),
    kind: z.enum(GENERATED_MEDIA_KINDS),
    mime: z.string(),
    width: z.number().int().positive().nullable(),
    height: z.number().int().positive().nullable(),
  })
  .transform((row): { sessionId: string; record: GeneratedMedia } => ({
    sessionId: row.session_id,
    record: {
      mediaId: row.media_id,
      turnId: row.turn_id ?? '',
      kind: row.kind,
      mime: row.mime,
      ...(row.width === null ? {} : { width: row.width }),
      ...(row.height === null ? {} : { height: row.height }),
    },
  }));

export interface StoredMedia {
  mediaId: string;
  sha256: string;
  byteSize: number;
}

/**
 * The indexed parts with their message's turn. The statements order them by message (a session's by its
 * sequence, a lookup by the order the rows were written) and then by place in the message: the order in
 * which reading the messages' parts met them, so the answers are the ones that reading gave.
 */
const INDEXED_PARTS = `
  SELECT generated_media.session_id, messages.turn_id, generated_media.media_id, generated_media.kind,
         generated_media.mime, generated_media.width, generated_media.height
  FROM generated_media JOIN messages ON messages.id = generated_media.message_id`;

export class GeneratedMediaStore {
  private readonly bySessionStatement;
  private readonly byIdStatement;
  private readonly namedFilesStatement;

  constructor(
    database: Database,
    private readonly blobs: BlobStore,
  ) {
    this.bySessionStatement = database.prepare(
      `${INDEXED_PARTS} WHERE generated_media.session_id = ? ORDER BY messages.sequence, generated_media.part_index`,
    );
    // Served by generated_media_by_media: only the rows of this id are sorted.
    this.byIdStatement = database.prepare(
      `${INDEXED_PARTS} WHERE generated_media.media_id = ? ORDER BY messages.rowid, generated_media.part_index LIMIT 1`,
    );
    this.namedFilesStatement = database.prepare('SELECT DISTINCT media_id FROM generated_media').pluck();
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
    return parseRows(MediaRow, this.bySessionStatement.all(sessionId), 'generated_media').map(({ record }) => record);
  }

  /** The media with this id and the session it belongs to, if a message holds it. */
  find(mediaId: string): { sessionId: string; media: GeneratedMedia } | undefined {
    const [found] = parseRows(MediaRow, this.byIdStatement.all(mediaId), 'generated_media');
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
    const hashes = z.array(z.string()).parse(this.namedFilesStatement.all()).map((mediaId) => sha256OfGeneratedMedia(mediaId));
    return new Set(hashes.filter((hash): hash is string => hash !== undefined));
  }
}
