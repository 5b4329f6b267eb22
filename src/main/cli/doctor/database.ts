/**
 * The home database: its schema version and SQLite's quick integrity check. Doctor diagnoses, it does not
 * set up: a missing database is fine (the first run creates it) and is not created here, and an older
 * schema is reported, not upgraded (the file is opened read-only).
 */
import { existsSync, statSync } from 'node:fs';
import { DatabaseOpenError, SCHEMA_VERSION, inspectDatabase, refuseLostDatabase } from '../../storage/index.js';
import { errorMessage, type DoctorCheckResult, type DoctorEnvironment } from './check.js';
import { formatBytes } from './disk-space.js';

const NAME = 'database';

export function checkDatabase(environment: DoctorEnvironment): DoctorCheckResult {
  const file = environment.home.databaseFile;
  if (!existsSync(file)) return { name: NAME, status: 'ok', detail: `${file} does not exist yet; will be created` };
  const moveAside = `keep it: move it aside (mv ${file} ${file}.broken) and a new one will be created, or restore a backup`;
  let inspection;
  try {
    refuseLostDatabase(environment.home);
    inspection = inspectDatabase(file);
  } catch (error) {
    const reason = error instanceof DatabaseOpenError ? error.message : errorMessage(error);
    return { name: NAME, status: 'problem', detail: reason, fix: moveAside };
  }
  const { version, quickCheck } = inspection;
  if (version > SCHEMA_VERSION) {
    return {
      name: NAME,
      status: 'problem',
      detail: `schema version ${version} is newer than this Sightline supports (${SCHEMA_VERSION})`,
      fix: 'upgrade Sightline, or use another home folder with --home',
    };
  }
  if (quickCheck.length !== 1 || quickCheck[0] !== 'ok') {
    return { name: NAME, status: 'problem', detail: `quick_check failed: ${quickCheck.slice(0, 3).join('; ')}`, fix: moveAside };
  }
  const size = formatBytes(statSync(file).size);
  const upgrade = version < SCHEMA_VERSION ? `; will be upgraded to ${SCHEMA_VERSION} on the next run` : '';
  return { name: NAME, status: 'ok', detail: `schema version ${version}${upgrade}, quick_check ok, ${size}` };
}
