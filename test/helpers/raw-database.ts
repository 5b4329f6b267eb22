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
