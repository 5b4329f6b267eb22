/**
 * The home database: its schema version and SQLite's quick integrity check. A missing database is fine
 * (the first run creates it) and is not created here: doctor diagnoses, it does not set up.
 */
import { existsSync, statSync } from 'node:fs';
import { DatabaseOpenError, DatabaseVersionError, SCHEMA_VERSION, openDatabase, type Database } from '../../storage/index.js';
import { errorMessage, type DoctorCheckResult, type DoctorEnvironment } from './check.js';
import { formatBytes } from './disk-space.js';

const NAME = 'database';

export function checkDatabase(environment: DoctorEnvironment): DoctorCheckResult {
  const file = environment.home.databaseFile;
  if (!existsSync(file)) return { name: NAME, status: 'ok', detail: `${file} does not exist yet; will be created` };
  const moveAside = `move it aside (mv ${file} ${file}.broken) and a new one will be created, or restore a backup`;
  let database: Database;
  try {
    database = openDatabase(file);
  } catch (error) {
    if (error instanceof DatabaseVersionError) {
      return {
        name: NAME,
        status: 'problem',
        detail: `schema version ${error.foundVersion} is newer than this Sightline supports (${error.supportedVersion})`,
        fix: 'upgrade Sightline, or use another home folder with --home',
      };
    }
    const reason = error instanceof DatabaseOpenError ? error.message : errorMessage(error);
    return { name: NAME, status: 'problem', detail: reason, fix: moveAside };
  }
  try {
    const version = Number(database.pragma('user_version', { simple: true }));
    const findings = (database.pragma('quick_check') as { quick_check: string }[]).map((row) => row.quick_check);
    if (findings.length !== 1 || findings[0] !== 'ok') {
      return { name: NAME, status: 'problem', detail: `quick_check failed: ${findings.slice(0, 3).join('; ')}`, fix: moveAside };
    }
    const size = formatBytes(statSync(file).size);
    return { name: NAME, status: 'ok', detail: `schema version ${version} (current: ${SCHEMA_VERSION}), quick_check ok, ${size}` };
  } catch (error) {
    return { name: NAME, status: 'problem', detail: `cannot check ${file}: ${errorMessage(error)}`, fix: moveAside };
  } finally {
    database.close();
  }
}
