/**
 * What to tell a person when the database fails under a running Sightline, not only when it is opened: a
 * page damaged while running, a disk that fills in a later turn, a file made read-only. Opening such a file
 * already gives a guided message (database.ts); the same failure met mid-run must not end in a bare
 * "database disk image is malformed". Each message says what happened, that Sightline stopped writing to
 * the file at the failure, and what to do to keep it.
 */
import { moveAsideAdvice } from './database.js';
import type { StoragePaths } from './storage.js';

/** SQLite result codes that mean the store itself cannot take reads or writes (not a bug in a query). */
const STORAGE_SQLITE_CODE = /^SQLITE_(FULL|IOERR|READONLY|CORRUPT|NOTADB|CANTOPEN|PERM|BUSY|LOCKED)/;

/** The SQLite code of an error that means the database cannot be used right now; undefined otherwise. */
export function storageSqliteCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && STORAGE_SQLITE_CODE.test(code) ? code : undefined;
}

/** A guided message for a database failure met while running; undefined when the error is not one. */
export function describeStorageFailure(error: unknown, paths: Pick<StoragePaths, 'databaseFile'>): string | undefined {
  const code = storageSqliteCode(error);
  if (code === undefined) return undefined;
  const file = paths.databaseFile;
  const detail = `${error instanceof Error ? error.message : String(error)}, ${code}`;
  const stopped = 'Sightline stopped at the failure and wrote nothing more to it.';
  if (code.startsWith('SQLITE_CORRUPT') || code.startsWith('SQLITE_NOTADB')) {
    return `The database ${file} is damaged (${detail}). ${stopped} ${moveAsideAdvice(file)}`;
  }
  if (code.startsWith('SQLITE_FULL')) {
    return (
      `The disk holding the database ${file} is full (${detail}): the last change was not saved, and what was saved ` +
      `before it is intact. ${stopped} Free some space, then continue the session with --session.`
    );
  }
  if (code.startsWith('SQLITE_IOERR')) {
    return (
      `The disk failed while reading or writing the database ${file} (${detail}). ${stopped} Check the disk ` +
      `(free space, a removed or network drive), then run \`sightline doctor\`, which checks the file without changing it.`
    );
  }
  if (code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_PERM') || code.startsWith('SQLITE_CANTOPEN')) {
    return `The database ${file} can no longer be written (${detail}). ${stopped} Check the permissions of the file and its folder.`;
  }
  return `The database ${file} is locked by another process for too long (${detail}). Close other Sightline instances and retry.`;
}
