/**
 * The guided messages for a database failing under a running Sightline (issue 17, finding 10), one per kind of
 * SQLite failure, and nothing for errors that are not one.
 */
import { describe, expect, it } from 'vitest';
import { describeStorageFailure } from '../../src/main/storage/index.js';

const paths = { databaseFile: '/home/ada/.sightline/sightline.db' };
const sqliteError = (code: string, message: string) => Object.assign(new Error(message), { code });

describe('describeStorageFailure', () => {
  it('says a full disk lost only the last change and how to go on', () => {
    const text = describeStorageFailure(sqliteError('SQLITE_FULL', 'database or disk is full'), paths);
    expect(text).toContain(`The disk holding the database ${paths.databaseFile} is full (database or disk is full, SQLITE_FULL)`);
    expect(text).toContain('the last change was not saved, and what was saved before it is intact');
    expect(text).toContain('Free some space, then continue the session with --session.');
  });

  it('says a damaged file was left alone and how to keep it', () => {
    for (const code of ['SQLITE_CORRUPT', 'SQLITE_CORRUPT_INDEX', 'SQLITE_NOTADB']) {
      const text = describeStorageFailure(sqliteError(code, 'database disk image is malformed'), paths);
      expect(text, code).toContain(`The database ${paths.databaseFile} is damaged`);
      expect(text, code).toContain('wrote nothing more to it');
      expect(text, code).toContain(`mv "${paths.databaseFile}" "${paths.databaseFile}.broken"`);
    }
  });

  it('names disk errors, permissions and locks in words', () => {
    expect(describeStorageFailure(sqliteError('SQLITE_IOERR_WRITE', 'disk I/O error'), paths)).toContain('The disk failed while reading or writing');
    expect(describeStorageFailure(sqliteError('SQLITE_READONLY', 'attempt to write a readonly database'), paths)).toContain('Check the permissions of the file and its folder.');
    expect(describeStorageFailure(sqliteError('SQLITE_BUSY', 'database is locked'), paths)).toContain('Close other Sightline instances and retry.');
  });

  it('leaves every other error to its own handling', () => {
    expect(describeStorageFailure(new Error('boom'), paths)).toBeUndefined();
    expect(describeStorageFailure(sqliteError('SQLITE_CONSTRAINT_UNIQUE', 'UNIQUE constraint failed'), paths)).toBeUndefined();
    expect(describeStorageFailure('not an error', paths)).toBeUndefined();
  });
});
