/**
 * A second connection to a storage's database file, for tests that inspect or damage rows on purpose:
 * SQLite's own checks, a whole table as text, rows as older data or another process left them. The
 * application never gets one (SQL lives in src/main/storage); a test that asserts behaviour uses the
 * repositories and storage operations instead.
 */
import BetterSqlite3 from 'better-sqlite3';

export type RawDatabase = BetterSqlite3.Database;

/** Opens the file as it is: no migration. Close it when done, or use `withRawDatabase`. */
export function openRawDatabase(databaseFile: string): RawDatabase {
  const database = new BetterSqlite3(databaseFile, { fileMustExist: true });
  // The same waits as storage's own connection, so a test's write never fails on a lock held a moment.
  database.pragma('busy_timeout = 5000');
  database.pragma('foreign_keys = ON');
  return database;
}

/** Runs `use` on a raw connection to the file and closes it, whatever happens. */
export function withRawDatabase<Result>(databaseFile: string, use: (database: RawDatabase) => Result): Result {
  const database = openRawDatabase(databaseFile);
  try {
    return use(database);
  } finally {
    database.close();
  }
}

/**
 * Every row of every table of the file, as SQLite holds it, one table's rows as JSON a line: the tests that prove
 * a secret is stored nowhere search this text, so no column or table added later escapes them.
 */
export function everythingStored(databaseFile: string): string {
  const database = new BetterSqlite3(databaseFile, { readonly: true });
  try {
    const tables = database.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[];
    return tables.map((table) => JSON.stringify(database.prepare(`SELECT * FROM "${table}"`).all())).join('\n');
  } finally {
    database.close();
  }
}
