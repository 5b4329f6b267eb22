/**
 * Failures of the disk or the database under the agent: an image that cannot be written (disk full,
 * permission denied, read-only filesystem) or SQLite refusing a write. A tool that meets one must not
 * come back to the model as an ordinary tool error: the model would carry on blind, with nothing recorded.
 * The turn stops instead, with the disk's own words, and nothing stored earlier is touched.
 */
import { BlobWriteError } from '../storage/index.js';

/** SQLite result codes that mean the store itself cannot take writes (not a bug in a query). */
const STORAGE_SQLITE_CODES = /^SQLITE_(FULL|IOERR|READONLY|CORRUPT|NOTADB|CANTOPEN|PERM|BUSY|LOCKED)/;

export function isStorageFailure(error: unknown): boolean {
  if (error instanceof BlobWriteError) return true;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && STORAGE_SQLITE_CODES.test(code);
}

/** The turn's summary when it stopped on a storage failure. */
export function storageFailureSummary(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return `Stopped: Sightline could not save its work. ${message}`;
}
