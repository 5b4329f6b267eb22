/**
 * Brings a team store's schema up to date: every migration above the stored version, in one transaction that
 * first takes an advisory lock. Two workers starting against a new store at once queue on the lock, and the
 * second finds the work done; a failing migration rolls back whole. `team_schema_version` keeps one row per
 * applied migration.
 */
import type { ClientBase } from 'pg';
import type { TeamMigration } from './migrations/index.js';
import { TeamStoreError } from './team-store-error.js';

/** The advisory lock key of the migrations: any fixed number no other lock of the store uses. */
const MIGRATION_LOCK = 0x5167_0001;

export async function migrateTeamStore(client: ClientBase, migrations: readonly TeamMigration[], shown: string): Promise<void> {
  checkNumbering(migrations);
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query(
      `CREATE TABLE IF NOT EXISTS team_schema_version (
         version     INTEGER PRIMARY KEY,
         name        TEXT NOT NULL,
         applied_at  TIMESTAMPTZ NOT NULL DEFAULT now()
       )`,
    );
    const result = await client.query<{ version: number }>('SELECT COALESCE(MAX(version), 0)::integer AS version FROM team_schema_version');
    const current = result.rows[0]?.version ?? 0;
    if (current > migrations.length) {
      throw new TeamStoreError(
        `The team store at ${shown} has schema version ${current}, but this Sightline knows versions up to ${migrations.length}. ` +
          'It was written by a newer Sightline: upgrade this one.',
        'schema',
        shown,
      );
    }
    for (const migration of migrations.slice(current)) {
      await client.query(migration.sql);
      await client.query('INSERT INTO team_schema_version (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

function checkNumbering(migrations: readonly TeamMigration[]): void {
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) {
      throw new Error(`Team store migration ${migration.name} has version ${migration.version}; expected ${index + 1}.`);
    }
  });
}
