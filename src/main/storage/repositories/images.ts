/**
 * The image index. Pixels live in the blob store (named by sha256); a row holds what the agent and the
 * timeline need to know without loading them: size, hashes, zone, where it came from. Several rows may
 * share one file (the same screen seen twice), so moving or deleting a file looks at all of its rows.
 */
import { z } from 'zod';
import { newId } from '../../../shared/ids.js';
import { IMAGE_SOURCES, IMAGE_ZONES, type ImageReadFailure, type ImageSource, type ImageZone } from '../../../shared/images.js';
import type { BlobLocation, BlobStore } from '../blob-store.js';
import type { Database } from '../database.js';
import { isoTime, type Clock } from '../time.js';
import { booleanColumn, booleanToColumn, parseRow, parseRows } from './columns.js';
import { keepText, redactedText, type RedactStoredText } from '../stored-text.js';

export interface ImageRecord {
  id: string;
  sessionId: string;
  /** NULL for older data; such images are never compacted. */
  turnId: string | null;
  sha256: string;
  /** Hex of the 64-bit perceptual hash (16 hex digits), if computed. */
  phash: string | null;
  hashAlgorithm: string | null;
  width: number;
  height: number;
  mime: string;
  byteSize: number;
  zone: ImageZone;
  isErrorFrame: boolean;
  source: ImageSource;
  displayId: string | null;
  scaleFactor: number | null;
  caption: string | null;
  createdAt: string;
  offloadedAt: string | null;
  purgedAt: string | null;
}

const NewImageSchema = z.object({
  sessionId: z.string().min(1),
  turnId: z.string().min(1).nullable(),
  bytes: z
    .custom<Uint8Array>((value) => value instanceof Uint8Array, 'bytes must be a Uint8Array or Buffer')
    .refine((bytes) => bytes.byteLength > 0, 'an image cannot be empty'),
  mime: z.string().regex(/^[a-z]+\/[a-z0-9.+-]+$/i, 'a MIME type such as image/png'),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  phash: z.string().regex(/^[0-9a-f]{16}$/, '16 lowercase hex digits').optional(),
  hashAlgorithm: z.string().min(1).optional(),
  source: z.enum(IMAGE_SOURCES),
  displayId: z.union([z.string(), z.number()]).optional(),
  scaleFactor: z.number().positive().optional(),
  isErrorFrame: z.boolean().optional(),
  caption: z.string().optional(),
});
export type NewImage = z.input<typeof NewImageSchema>;

export type ImageReadResult =
  | { status: 'ok'; bytes: Buffer; record: ImageRecord; location: BlobLocation }
  | {
      status: 'unavailable';
      reason: ImageReadFailure;
      message: string;
      record?: ImageRecord;
    };

export interface ImageArchiveResult {
  record: ImageRecord;
  /** What happened to the file: moved to cold storage, kept in blobs for another row, or nothing to move. */
  file: 'moved' | 'kept-for-other-rows' | 'already-archived' | 'missing';
}

export interface RetentionSweepOptions {
  olderThanDays: number;
  now: Date;
}

export interface RetentionSweepResult {
  filesDeleted: number;
  /** Files that were already gone; their rows are marked purged all the same. */
  filesAlreadyMissing: number;
  rowsPurged: number;
  bytesFreed: number;
}

const ImageRow = z
  .object({
    id: z.string(),
    session_id: z.string(),
    turn_id: z.string().nullable(),
    sha256: z.string(),
    phash: z.string().nullable(),
    hash_algorithm: z.string().nullable(),
    width: z.number().int(),
    height: z.number().int(),
    mime: z.string(),
    byte_size: z.number().int(),
    zone: z.enum(IMAGE_ZONES),
    is_error_frame: booleanColumn,
    source: z.enum(IMAGE_SOURCES),
    display_id: z.string().nullable(),
    scale_factor: z.number().nullable(),
    caption: z.string().nullable(),
    created_at: z.string(),
    offloaded_at: z.string().nullable(),
    purged_at: z.string().nullable(),
  })
  .transform(
    (row): ImageRecord => ({
      id: row.id,
      sessionId: row.session_id,
      turnId: row.turn_id,
      sha256: row.sha256,
      phash: row.phash,
      hashAlgorithm: row.hash_algorithm,
      width: row.width,
      height: row.height,
      mime: row.mime,
      byteSize: row.byte_size,
      zone: row.zone,
      isErrorFrame: row.is_error_frame,
      source: row.source,
      displayId: row.display_id,
      scaleFactor: row.scale_factor,
      caption: row.caption,
      createdAt: row.created_at,
      offloadedAt: row.offloaded_at,
      purgedAt: row.purged_at,
    }),
  );

const SweepCandidateRow = z.object({ sha256: z.string(), mime: z.string(), byte_size: z.number().int() });

const DAY_MS = 24 * 60 * 60 * 1000;

export class ImagesRepository {
  private readonly insertStatement;
  private readonly getStatement;
  private readonly listByTurnStatement;
  private readonly listBySessionStatement;
  private readonly captionStatement;
  private readonly zoneStatement;
  private readonly errorFrameStatement;
  private readonly offloadStatement;
  private readonly otherLiveUsersStatement;
  private readonly sweepCandidatesStatement;
  private readonly purgeStatement;
  private readonly fileHashesStatement;

  constructor(
    database: Database,
    private readonly blobs: BlobStore,
    private readonly clock: Clock,
    private readonly redact: RedactStoredText = keepText,
  ) {
    this.insertStatement = database.prepare(
      `INSERT INTO images (id, session_id, turn_id, sha256, phash, hash_algorithm, width, height, mime, byte_size,
                           zone, is_error_frame, source, display_id, scale_factor, caption, created_at)
       VALUES (@id, @sessionId, @turnId, @sha256, @phash, @hashAlgorithm, @width, @height, @mime, @byteSize,
               'active', @isErrorFrame, @source, @displayId, @scaleFactor, @caption, @createdAt)
       RETURNING *`,
    );
    this.getStatement = database.prepare('SELECT * FROM images WHERE id = ?');
    this.listByTurnStatement = database.prepare('SELECT * FROM images WHERE turn_id = ? ORDER BY created_at, rowid');
    this.listBySessionStatement = database.prepare(
      'SELECT * FROM images WHERE session_id = ? ORDER BY created_at, rowid',
    );
    this.captionStatement = database.prepare('UPDATE images SET caption = ? WHERE id = ? RETURNING *');
    this.zoneStatement = database.prepare(
      "UPDATE images SET zone = ? WHERE id = ? AND zone != 'offloaded' RETURNING *",
    );
    this.errorFrameStatement = database.prepare('UPDATE images SET is_error_frame = ? WHERE id = ? RETURNING *');
    this.offloadStatement = database.prepare(
      "UPDATE images SET zone = 'offloaded', offloaded_at = @offloadedAt WHERE id = @id RETURNING *",
    );
    this.otherLiveUsersStatement = database
      .prepare(
        `SELECT COUNT(*) FROM images
         WHERE sha256 = @sha256 AND mime = @mime AND id != @id AND zone != 'offloaded' AND purged_at IS NULL`,
      )
      .pluck();
    // A file may go only when every row that uses it has been offloaded for longer than the retention, and
    // none of them is pinned: a pinned frame is sent whole in every later request, so its pixels must stay.
    this.sweepCandidatesStatement = database.prepare(
      `SELECT sha256, mime, MAX(byte_size) AS byte_size FROM images
       WHERE purged_at IS NULL
       GROUP BY sha256, mime
       HAVING SUM(zone != 'offloaded') = 0 AND MAX(offloaded_at) < @cutoff
          AND SUM(EXISTS (SELECT 1 FROM image_pins WHERE image_pins.image_id = images.id)) = 0`,
    );
    this.fileHashesStatement = database.prepare('SELECT DISTINCT sha256 FROM images').pluck();
    this.purgeStatement = database.prepare(
      `UPDATE images SET purged_at = @purgedAt
       WHERE sha256 = @sha256 AND mime = @mime AND zone = 'offloaded' AND purged_at IS NULL`,
    );
  }

  /** Stores the bytes first, then the row: a crash in between leaves an unused file, never a row without one. */
  async put(image: NewImage): Promise<ImageRecord> {
    const input = NewImageSchema.parse(image);
    const { sha256, byteSize } = await this.blobs.write(input.bytes, input.mime);
    const row: unknown = this.insertStatement.get({
      id: newId('image'),
      sessionId: input.sessionId,
      turnId: input.turnId,
      sha256,
      phash: input.phash ?? null,
      hashAlgorithm: input.hashAlgorithm ?? null,
      width: input.width,
      height: input.height,
      mime: input.mime.toLowerCase(),
      byteSize,
      isErrorFrame: booleanToColumn(input.isErrorFrame),
      source: input.source,
      displayId: input.displayId === undefined ? null : String(input.displayId),
      scaleFactor: input.scaleFactor ?? null,
      caption: redactedText(input.caption ?? null, this.redact),
      createdAt: isoTime(this.clock),
    });
    return parseRow(ImageRow, row, 'images');
  }

  /** The sha256 of every file some row names (purged rows included): what the blob store must keep. */
  referencedFiles(): Set<string> {
    return new Set(z.array(z.string()).parse(this.fileHashesStatement.all()));
  }

  get(id: string): ImageRecord | undefined {
    const row: unknown = this.getStatement.get(id);
    return row === undefined ? undefined : parseRow(ImageRow, row, 'images');
  }

  listByTurn(turnId: string): ImageRecord[] {
    return parseRows(ImageRow, this.listByTurnStatement.all(turnId), 'images');
  }

  listBySession(sessionId: string): ImageRecord[] {
    return parseRows(ImageRow, this.listBySessionStatement.all(sessionId), 'images');
  }

  /**
   * The image's bytes, from blobs/ or cold-storage/, hash-checked. Anything that keeps them from being
   * shown (unknown id, purged by retention, file gone or damaged) is an `unavailable` result, not a throw.
   */
  async read(id: string): Promise<ImageReadResult> {
    const record = this.get(id);
    if (record === undefined) {
      return { status: 'unavailable', reason: 'not-found', message: `There is no image ${id}.` };
    }
    if (record.purgedAt !== null) {
      return {
        status: 'unavailable',
        reason: 'purged',
        message: `Image ${id} was deleted by the retention sweep on ${record.purgedAt}.`,
        record,
      };
    }
    const result = await this.blobs.read(record.sha256, record.mime);
    if (result.status === 'ok') return { status: 'ok', bytes: result.bytes, record, location: result.location };
    return { status: 'unavailable', reason: result.reason, message: `Image ${id}: ${result.message}`, record };
  }

  /** Brings back an image from wherever it is, hot or cold (the same as `read`; named for the recall path). */
  async retrieve(id: string): Promise<ImageReadResult> {
    return this.read(id);
  }

  setCaption(id: string, caption: string | null): ImageRecord {
    return this.updated(this.captionStatement.get(redactedText(caption, this.redact), id), id);
  }

  /** Moves an image between the active and compact zones; offloading goes through `archive`. */
  setZone(id: string, zone: Exclude<ImageZone, 'offloaded'>): ImageRecord {
    const row: unknown = this.zoneStatement.get(zone, id);
    if (row === undefined && this.get(id) !== undefined) {
      throw new Error(`Image ${id} is offloaded; it does not come back to the ${zone} zone.`);
    }
    return this.updated(row, id);
  }

  setErrorFrame(id: string, isErrorFrame: boolean): ImageRecord {
    return this.updated(this.errorFrameStatement.get(booleanToColumn(isErrorFrame), id), id);
  }

  /**
   * Offloads an image: its file moves to cold storage (unless another live row still uses the same file)
   * and the row becomes zone=offloaded. The file moves first, so a crash in between leaves a row that
   * still reads (read looks in both places) and a second call completes the job.
   */
  async archive(id: string): Promise<ImageArchiveResult> {
    const record = this.get(id);
    if (record === undefined) throw new Error(`There is no image ${id}.`);
    if (record.turnId === null) throw new Error(`Image ${id} has no turn (older data) and is never compacted.`);
    if (record.zone === 'offloaded') return { record, file: 'already-archived' };
    const stillUsed = Number(this.otherLiveUsersStatement.get({ id, sha256: record.sha256, mime: record.mime })) > 0;
    let file: ImageArchiveResult['file'] = 'kept-for-other-rows';
    if (!stillUsed) {
      const outcome = await this.blobs.archive(record.sha256, record.mime);
      file = outcome === 'archived' ? 'moved' : outcome;
    }
    const updated = this.updated(this.offloadStatement.get({ id, offloadedAt: isoTime(this.clock) }), id);
    return { record: updated, file };
  }

  /**
   * The retention sweep: deletes cold files whose rows have all been offloaded for longer than
   * `olderThanDays`, none of them pinned, and marks those rows purged (they stay, so the timeline still
   * shows what was there).
   */
  async sweepRetention(options: RetentionSweepOptions): Promise<RetentionSweepResult> {
    if (!(options.olderThanDays >= 0)) throw new Error('olderThanDays must be zero or more.');
    const cutoff = new Date(options.now.getTime() - options.olderThanDays * DAY_MS).toISOString();
    const purgedAt = options.now.toISOString();
    const candidates = parseRows(SweepCandidateRow, this.sweepCandidatesStatement.all({ cutoff }), 'images');
    const result: RetentionSweepResult = { filesDeleted: 0, filesAlreadyMissing: 0, rowsPurged: 0, bytesFreed: 0 };
    for (const candidate of candidates) {
      // Delete first, then mark: a crash in between leaves rows that the next sweep marks, never a leaked file.
      if (await this.blobs.removeCold(candidate.sha256, candidate.mime)) {
        result.filesDeleted += 1;
        result.bytesFreed += candidate.byte_size;
      } else {
        result.filesAlreadyMissing += 1;
      }
      const { sha256, mime } = candidate;
      result.rowsPurged += this.purgeStatement.run({ sha256, mime, purgedAt }).changes;
    }
    return result;
  }

  private updated(row: unknown, id: string): ImageRecord {
    if (row === undefined) throw new Error(`There is no image ${id}.`);
    return parseRow(ImageRow, row, 'images');
  }
}
