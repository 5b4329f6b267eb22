/**
 * Deleting a session: its rows go in one transaction (turns, messages, steps, images, search reports,
 * injections and the generated media index follow by ON DELETE CASCADE), then, after the commit, the image
 * files no remaining row names (and the files of media the session's model generated, which its messages
 * name) are removed from blobs/ and cold-storage/. Files are named by content (sha256 and MIME type), so a file
 * another session still uses stays. Rows first: a crash in between leaves files no row names, which the
 * startup reconciliation removes, never a row whose file is gone.
 */
import { z } from 'zod';
import type { BlobStore } from './blob-store.js';
import type { Database } from './database.js';
import { parseRows } from './repositories/columns.js';

export interface SessionDeletionResult {
  imagesDeleted: number;
  /** Files removed from blobs/ and cold-storage/ (a file in both counts twice). */
  filesDeleted: number;
}

interface BlobFile {
  sha256: string;
  mime: string;
}

const BlobFileRow = z.object({ sha256: z.string(), mime: z.string() });

export class SessionDeletion {
  private readonly filesStatement;
  private readonly imageCountStatement;
  private readonly deleteStatement;
  private readonly fileInUseStatement;

  constructor(
    private readonly database: Database,
    private readonly blobs: BlobStore,
  ) {
    // The session's image files and the files of media its model generated (indexed from its assistant messages).
    this.filesStatement = database.prepare(
      `SELECT DISTINCT sha256, mime FROM images WHERE session_id = @sessionId
       UNION
       SELECT DISTINCT substr(media_id, 5), mime FROM generated_media WHERE session_id = @sessionId`,
    );
    this.imageCountStatement = database.prepare('SELECT COUNT(*) FROM images WHERE session_id = ?').pluck();
    this.deleteStatement = database.prepare('DELETE FROM sessions WHERE id = ?');
    this.fileInUseStatement = database
      .prepare(
        `SELECT 1 FROM images WHERE sha256 = @sha256 AND mime = @mime
         UNION ALL
         SELECT 1 FROM generated_media WHERE media_id = 'med_' || @sha256 AND mime = @mime
         LIMIT 1`,
      )
      .pluck();
  }

  async delete(sessionId: string): Promise<SessionDeletionResult> {
    const { imagesDeleted, unusedFiles } = this.deleteRows(sessionId);
    let filesDeleted = 0;
    for (const file of unusedFiles) filesDeleted += await this.blobs.remove(file.sha256, file.mime);
    return { imagesDeleted, filesDeleted };
  }

  /** The rows, in one transaction that also finds which of the session's files no other row names. */
  private deleteRows(sessionId: string): { imagesDeleted: number; unusedFiles: BlobFile[] } {
    const deleteRows = this.database.transaction(() => {
      const files = parseRows(BlobFileRow, this.filesStatement.all({ sessionId }), 'images');
      const imagesDeleted = z.number().parse(this.imageCountStatement.get(sessionId));
      this.deleteStatement.run(sessionId);
      const unusedFiles = files.filter((file) => this.fileInUseStatement.get({ sha256: file.sha256, mime: file.mime }) === undefined);
      return { imagesDeleted, unusedFiles };
    });
    // Immediate: what is read decides what is deleted, so no other process may write in between.
    return deleteRows.immediate();
  }
}
