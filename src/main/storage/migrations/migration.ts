import type { Database } from 'better-sqlite3';

/**
 * One step of the schema's history. Migrations are numbered from 1 without gaps; each runs once, in its
 * own transaction that also sets `PRAGMA user_version` to its number, so a crash mid-migration leaves
 * the database at the previous version, never half-upgraded.
 */
export interface Migration {
  version: number;
  name: string;
  up: (database: Database) => void;
}
