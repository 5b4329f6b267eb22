/**
 * Pinned frames (issue 16): screenshots a person marked to keep whole in every later request of their
 * session. Only a person pins, through the CLI, the app API or the timeline; the model has no tool for it.
 * Pinning is idempotent (the first pin's time stays) and so is unpinning.
 */
import { z } from 'zod';
import { PINNABLE_IMAGE_SOURCES } from '../../../shared/images.js';
import type { Database } from '../database.js';
import { isoTime, type Clock } from '../time.js';
import { parseRow, parseRows } from './columns.js';
import type { ImagesRepository } from './images.js';

export interface PinRecord {
  imageId: string;
  sessionId: string;
  pinnedAt: string;
}

/**
 * Why an image cannot be pinned: no such image, not a screenshot (crops, pictures and tool images are not
 * frames), or its pixels are gone (the retention sweep deleted them: there is nothing left to send).
 */
export type PinRefusal = 'not-found' | 'not-a-screenshot' | 'purged';

export type PinOutcome = { status: 'pinned'; pin: PinRecord } | { status: 'refused'; reason: PinRefusal; message: string };

const PinRow = z
  .object({ image_id: z.string(), session_id: z.string(), pinned_at: z.string() })
  .transform((row): PinRecord => ({ imageId: row.image_id, sessionId: row.session_id, pinnedAt: row.pinned_at }));

export class PinsRepository {
  private readonly insertStatement;
  private readonly getStatement;
  private readonly deleteStatement;
  private readonly listBySessionStatement;

  constructor(
    database: Database,
    private readonly images: ImagesRepository,
    private readonly clock: Clock,
  ) {
    this.insertStatement = database.prepare(
      `INSERT INTO image_pins (image_id, session_id, pinned_at) VALUES (@imageId, @sessionId, @pinnedAt)
       ON CONFLICT (image_id) DO NOTHING`,
    );
    this.getStatement = database.prepare('SELECT * FROM image_pins WHERE image_id = ?');
    this.deleteStatement = database.prepare('DELETE FROM image_pins WHERE image_id = ?');
    this.listBySessionStatement = database.prepare('SELECT * FROM image_pins WHERE session_id = ? ORDER BY pinned_at, rowid');
  }

  /** Pins a screenshot; pinning one already pinned keeps the first pin. */
  pin(imageId: string): PinOutcome {
    const image = this.images.get(imageId);
    if (image === undefined) return { status: 'refused', reason: 'not-found', message: `There is no image ${imageId}.` };
    if (!PINNABLE_IMAGE_SOURCES.some((source) => source === image.source)) {
      return {
        status: 'refused',
        reason: 'not-a-screenshot',
        message: `Image ${imageId} is a ${image.source} image, not a screenshot; only screenshots can be pinned.`,
      };
    }
    if (image.purgedAt !== null) {
      return { status: 'refused', reason: 'purged', message: `Image ${imageId} was deleted by the retention sweep on ${image.purgedAt}; there is nothing left to pin.` };
    }
    this.insertStatement.run({ imageId, sessionId: image.sessionId, pinnedAt: isoTime(this.clock) });
    return { status: 'pinned', pin: this.get(imageId)! };
  }

  /** Whether there was a pin to remove. */
  unpin(imageId: string): boolean {
    return this.deleteStatement.run(imageId).changes > 0;
  }

  get(imageId: string): PinRecord | undefined {
    const row: unknown = this.getStatement.get(imageId);
    return row === undefined ? undefined : parseRow(PinRow, row, 'image_pins');
  }

  /** The session's pins, oldest first. */
  listBySession(sessionId: string): PinRecord[] {
    return parseRows(PinRow, this.listBySessionStatement.all(sessionId), 'image_pins');
  }

  /** The ids of the session's pinned frames. */
  pinnedIds(sessionId: string): Set<string> {
    return new Set(this.listBySession(sessionId).map((pin) => pin.imageId));
  }
}
