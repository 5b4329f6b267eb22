/**
 * Opens Sightline's SQLite database and brings its schema up to date. One connection per process; WAL
 * lets the timeline read while the agent writes, and the busy timeout absorbs short lock waits between
 * the CLI, the app and an MCP server sharing one home folder.
 */
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { MIGRATIONS, type Migration } from './migrations/index.js';
import { createPrivateFolder, PRIVATE_FILE_MODE, restrictToOwner } from './private-files.js';
import { describeOpenFailure } from './storage-failures.js';

export type Database = BetterSqlite3.Database;

/** The schema version this build writes: the number of the last migration. */
export const SCHEMA_VERSION: number = lastVersion(MIGRATIONS);

/** The database was written by a newer Sightline; opening it here could corrupt data we do not know. */
export class DatabaseVersionError extends Error {
  constructor(
    readonly filePath: string,
    readonly foundVersion: number,
    readonly supportedVersion: number,
  ) {
    super(
      `The database ${filePath} has schema version ${foundVersion}, but this Sightline only knows versions up to ` +
        `${supportedVersion}. It was written by a newer Sightline: upgrade Sightline, or point SIGHTLINE_HOME ` +
        `(or --home) at another folder.`,
    );
    this.name = 'DatabaseVersionError';
  }
}

/** The file exists but cannot be used as Sightline's database (not SQLite, unreadable, locked). */
export class DatabaseOpenError extends Error {
  constructor(
    readonly filePath: string,
    reason: string,
  ) {
    super(`Cannot open the database ${filePath}: ${reason}`);
    this.name = 'DatabaseOpenError';
  }
}

export interface OpenDatabaseOptions {
  /** A better-sqlite3 build other than the installed one: Electron's, from the side folder (see sqlite-binding.ts). */
  nativeBinding?: string | undefined;
}

export function openDatabase(filePath: string, options: OpenDatabaseOptions = {}): Database {
  try {
    createPrivateFolder(dirname(filePath));
  } catch (error) {
    throw new DatabaseOpenError(filePath, `its folder cannot be created (${describeOpenFailure(error, filePath)}).`);
  }
  let database: Database;
  try {
    database = new BetterSqlite3(filePath, options.nativeBinding === undefined ? {} : { nativeBinding: options.nativeBinding });
  } catch (error) {
    throw new DatabaseOpenError(filePath, describeOpenFailure(error, filePath));
  }
  try {
    database.pragma('busy_timeout = 5000');
    // Read the version before anything writes: a foreign file or a newer schema must be left untouched.
    const foundVersion = userVersion(database, filePath);
    if (foundVersion > SCHEMA_VERSION) throw new DatabaseVersionError(filePath, foundVersion, SCHEMA_VERSION);
    // Before the -wal and -shm exist: SQLite creates them with the database file's mode.
    restrictToOwner(filePath, PRIVATE_FILE_MODE);
    database.pragma('journal_mode = WAL');
    database.pragma('foreign_keys = ON');
    database.pragma('synchronous = NORMAL');
    migrate(database, MIGRATIONS, filePath);
    // Left by an earlier process, they keep the mode they were created with.
    for (const suffix of ['-wal', '-shm']) restrictToOwner(`${filePath}${suffix}`, PRIVATE_FILE_MODE);
    return database;
  } catch (error) {
    database.close();
    if (error instanceof DatabaseVersionError || error instanceof DatabaseOpenError) throw error;
    throw new DatabaseOpenError(filePath, describeOpenFailure(error, filePath));
  }
}

export interface DatabaseInspection {
  /** The file's schema version: below SCHEMA_VERSION means the next open upgrades it. */
  version: number;
  /** What `PRAGMA quick_check` found: `['ok']` for a healthy file. */
  quickCheck: string[];
}

/**
 * Looks at an existing database without changing it: read-only, no migration, no WAL switch. For
 * diagnosis (`sightline doctor`), which must not upgrade or create what it examines.
 * Throws DatabaseOpenError when the file cannot be read as SQLite.
 */
export function inspectDatabase(filePath: string): DatabaseInspection {
  let database: Database;
  try {
    database = new BetterSqlite3(filePath, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw new DatabaseOpenError(filePath, describeOpenFailure(error, filePath));
  }
  try {
    database.pragma('busy_timeout = 5000');
    const version = userVersion(database, filePath);
    const quickCheck = (database.pragma('quick_check') as { quick_check: string }[]).map((row) => row.quick_check);
    return { version, quickCheck };
  } catch (error) {
    if (error instanceof DatabaseOpenError) throw error;
    throw new DatabaseOpenError(filePath, describeOpenFailure(error, filePath));
  } finally {
    database.close();
  }
}

/**
 * Applies, in order, every migration above the database's current version. Each runs in an IMMEDIATE
 * transaction that re-reads the version first, so two processes opening a fresh home at once apply each
 * migration exactly once. Exported for tests, which build databases at every earlier version.
 */
export function migrate(database: Database, migrations: readonly Migration[], filePath = database.name): void {
  checkNumbering(migrations);
  for (const migration of migrations) {
    const apply = database.transaction(() => {
      const current = userVersion(database, filePath);
      if (current >= migration.version) return;
      migration.up(database);
      database.pragma(`user_version = ${migration.version}`);
    });
    apply.immediate();
  }
}

/** The database's `PRAGMA user_version`: 0 for a new file. */
export function userVersion(database: Database, filePath = database.name): number {
  const version: unknown = database.pragma('user_version', { simple: true });
  if (typeof version !== 'number') throw new DatabaseOpenError(filePath, 'its schema version is unreadable.');
  return version;
}

function checkNumbering(migrations: readonly Migration[]): void {
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) {
      throw new Error(`Migration ${migration.name} has version ${migration.version}; expected ${index + 1}.`);
    }
  });
}

function lastVersion(migrations: readonly Migration[]): number {
  checkNumbering(migrations);
  return migrations.length;
}
