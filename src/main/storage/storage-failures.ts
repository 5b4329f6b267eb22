/**
 * What to tell a person when the database fails: when it is opened (the reason of a DatabaseOpenError) and
 * under a running Sightline (a page damaged while running, a disk that fills in a later turn, a file made
 * read-only), where it must not end in a bare "database disk image is malformed". One table sorts SQLite's
 * result codes into kinds of failure, and each kind has its words for both moments.
 *
 * The two moments' words differ only where the moment makes them differ. At open nothing has been written,
 * so the file is as it was ("Sightline has not changed it") and the reason follows "Cannot open the database
 * <file>:". Mid-run a change may have been cut short, so the message says that Sightline stopped writing at
 * the failure, what a full disk lost, and how to go on with the session; a missing file or a denied
 * permission then both mean the same thing, a file that can no longer be written.
 */

type StorageFailureKind =
  | 'not-a-database'
  | 'damaged'
  | 'full'
  | 'disk-error'
  | 'read-only'
  | 'permission-denied'
  | 'cannot-open'
  | 'locked';

/**
 * SQLite's primary result codes that mean the store itself cannot take reads or writes (not a bug in a query).
 * An extended code (SQLITE_IOERR_WRITE, SQLITE_CORRUPT_INDEX) is of its primary code's kind.
 */
const KIND_OF_SQLITE_CODE: Readonly<Record<string, StorageFailureKind>> = {
  SQLITE_NOTADB: 'not-a-database',
  SQLITE_CORRUPT: 'damaged',
  SQLITE_FULL: 'full',
  SQLITE_IOERR: 'disk-error',
  SQLITE_READONLY: 'read-only',
  SQLITE_PERM: 'permission-denied',
  SQLITE_CANTOPEN: 'cannot-open',
  SQLITE_BUSY: 'locked',
  SQLITE_LOCKED: 'locked',
};

interface StorageFailure {
  kind: StorageFailureKind;
  /** The code as SQLite gave it, extended part included. */
  code: string;
  message: string;
}

function storageFailureOf(error: unknown): StorageFailure | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return undefined;
  const primaryCode = /^SQLITE_[A-Z]+/.exec(code)?.[0];
  const kind = primaryCode === undefined ? undefined : KIND_OF_SQLITE_CODE[primaryCode];
  if (kind === undefined) return undefined;
  return { kind, code, message: error instanceof Error ? error.message : String(error) };
}

/** The SQLite code of an error that means the database cannot be used right now; undefined otherwise. */
export function storageSqliteCode(error: unknown): string | undefined {
  return storageFailureOf(error)?.code;
}

/** The reason a database cannot be opened, after "Cannot open the database <file>: "; the error's own words when it is no storage failure. */
export function describeOpenFailure(error: unknown, filePath: string): string {
  const failure = storageFailureOf(error);
  if (failure === undefined) return error instanceof Error ? error.message : String(error);
  const { message } = failure;
  switch (failure.kind) {
    case 'not-a-database':
      return `the file is not a SQLite database. ${keepAndMoveAsideAdvice(filePath)}`;
    case 'damaged':
      return `the database file is damaged (${message}). ${keepAndMoveAsideAdvice(filePath)}`;
    case 'full':
      return `the disk holding it is full (${message}). Free some space and retry.`;
    case 'disk-error':
      return `the disk failed while reading or writing it (${message}). Check the disk (free space, a removed or network drive) and retry.`;
    case 'read-only':
      return 'the file is read-only. Check its permissions.';
    case 'permission-denied':
      return `access to the file is denied (${message}). Check the permissions of the file and its folder.`;
    case 'cannot-open':
      return `the file cannot be opened (${message}). Check that the folder exists and is writable.`;
    case 'locked':
      return 'another process holds a lock on it for too long. Close other Sightline instances and retry.';
  }
}

/**
 * A guided message for a database failure met while running; undefined when the error is not one. Takes the
 * file's path alone, not StoragePaths: storage.ts opens the database, so naming its types here would close a loop.
 */
export function describeStorageFailure(error: unknown, paths: { databaseFile: string }): string | undefined {
  const failure = storageFailureOf(error);
  if (failure === undefined) return undefined;
  const file = paths.databaseFile;
  const detail = `${failure.message}, ${failure.code}`;
  const stopped = 'Sightline stopped at the failure and wrote nothing more to it.';
  switch (failure.kind) {
    case 'not-a-database':
    case 'damaged':
      return `The database ${file} is damaged (${detail}). ${stopped} ${moveAsideAdvice(file)}`;
    case 'full':
      return (
        `The disk holding the database ${file} is full (${detail}): the last change was not saved, and what was saved ` +
        `before it is intact. ${stopped} Free some space, then continue the session with --session.`
      );
    case 'disk-error':
      return (
        `The disk failed while reading or writing the database ${file} (${detail}). ${stopped} Check the disk ` +
        `(free space, a removed or network drive), then run \`sightline doctor\`, which checks the file without changing it.`
      );
    case 'read-only':
    case 'permission-denied':
    case 'cannot-open':
      return `The database ${file} can no longer be written (${detail}). ${stopped} Check the permissions of the file and its folder.`;
    case 'locked':
      return `The database ${file} is locked by another process for too long (${detail}). Close other Sightline instances and retry.`;
  }
}

/**
 * What to do with a database file Sightline cannot use. Never replaced silently: the user keeps it (to
 * restore, to recover rows from, or to send with a bug report) and moves it aside themselves.
 */
export function keepAndMoveAsideAdvice(filePath: string): string {
  return `Sightline has not changed it. ${moveAsideAdvice(filePath)}`;
}

/** How to keep a damaged database and start with a new one. */
function moveAsideAdvice(filePath: string): string {
  return (
    `To keep it and start with a new database, move it aside: ` +
    `mv "${filePath}" "${filePath}.broken" (and its -wal and -shm files, if present); the next run creates a new one. ` +
    `\`sqlite3 "${filePath}.broken" .recover\` may get rows back. Or restore a backup, or point SIGHTLINE_HOME (or --home) at another folder.`
  );
}
