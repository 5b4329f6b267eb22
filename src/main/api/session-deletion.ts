/**
 * Deleting a session: its rows go in one transaction (turns, messages, steps, images, search reports and
 * injections follow by ON DELETE CASCADE), then the image files no other row uses are removed from blobs/
 * and cold-storage/. Files are named by content, so a file another session still uses stays.
 */
import { rm } from 'node:fs/promises';
import { z } from 'zod';
import type { Storage } from '../storage/index.js';

export interface SessionDeletionResult {
  imagesDeleted: number;
  filesDeleted: number;
}

const FileRow = z.object({ sha256: z.string(), mime: z.string() });

export async function deleteSessionWithFiles(storage: Storage, sessionId: string): Promise<SessionDeletionResult> {
  const { database } = storage;
  const files = database
    .prepare('SELECT DISTINCT sha256, mime FROM images WHERE session_id = ?')
    .all(sessionId)
    .map((row) => FileRow.parse(row));
  const imagesDeleted = z.number().parse(database.prepare('SELECT COUNT(*) FROM images WHERE session_id = ?').pluck().get(sessionId));
  database.prepare('DELETE FROM sessions WHERE id = ?').run(sessionId);

  const stillUsed = database.prepare('SELECT 1 FROM images WHERE sha256 = ? AND mime = ? LIMIT 1').pluck();
  let filesDeleted = 0;
  for (const file of files) {
    if (stillUsed.get(file.sha256, file.mime) !== undefined) continue;
    for (const location of ['blobs', 'cold'] as const) {
      const path = storage.blobs.pathFor(location, file.sha256, file.mime);
      // A file already gone (purged by retention, say) is what we wanted anyway.
      const existed = await rm(path).then(
        () => true,
        (error: unknown) => {
          if ((error as { code?: unknown }).code === 'ENOENT') return false;
          throw error;
        },
      );
      if (existed) filesDeleted += 1;
    }
  }
  return { imagesDeleted, filesDeleted };
}
