/**
 * Failures of the disk or the database under the agent: an image that cannot be written (disk full,
 * permission denied, read-only filesystem) or SQLite refusing a write. A tool that meets one must not
 * come back to the model as an ordinary tool error: the model would carry on blind, with nothing recorded.
 * The turn stops instead, with the disk's own words, and nothing stored earlier is touched.
 */
import { BlobWriteError, describeStorageFailure, storageSqliteCode, type StoragePaths } from '../storage/index.js';

export function isStorageFailure(error: unknown): boolean {
  return error instanceof BlobWriteError || storageSqliteCode(error) !== undefined;
}

/**
 * The turn's summary when it stopped on a storage failure: the database's guided message (what happened, what
 * to do to keep the file), else the disk's own words; passed through `redact` like every stored text.
 */
export function storageFailureSummary(error: unknown, paths: Pick<StoragePaths, 'databaseFile'>, redact: (text: string) => string): string {
  const message = describeStorageFailure(error, paths) ?? (error instanceof Error ? error.message : String(error));
  return `Stopped: Sightline could not save its work. ${redact(message)}`;
}
