/**
 * The guided messages for a database failing under a running Sightline (issue 17, finding 10), one per kind of
 * SQLite failure, and nothing for errors that are not one; and the reasons given when the database cannot be opened,
 * from the same table of failures.
 */
import { describe, expect, it } from 'vitest';
import { describeStorageFailure } from '../../src/main/storage/index.js';
import { describeOpenFailure } from '../../src/main/storage/storage-failures.js';

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

describe('describeOpenFailure', () => {
  const file = paths.databaseFile;

  it('keeps the words that say what went wrong at open, and that the file was not changed', () => {
    expect(describeOpenFailure(sqliteError('SQLITE_NOTADB', 'file is not a database'), file)).toMatch(/^the file is not a SQLite database\. Sightline has not changed it\./);
    const damaged = describeOpenFailure(sqliteError('SQLITE_CORRUPT', 'database disk image is malformed'), file);
    expect(damaged).toMatch(/^the database file is damaged \(database disk image is malformed\)\. Sightline has not changed it\./);
    expect(damaged).toContain(`mv "${file}" "${file}.broken"`);
    expect(describeOpenFailure(sqliteError('SQLITE_CANTOPEN', 'unable to open database file'), file)).toBe(
      'the file cannot be opened (unable to open database file). Check that the folder exists and is writable.',
    );
    expect(describeOpenFailure(sqliteError('SQLITE_READONLY', 'attempt to write a readonly database'), file)).toBe('the file is read-only. Check its permissions.');
    expect(describeOpenFailure(sqliteError('SQLITE_BUSY', 'database is locked'), file)).toBe(
      'another process holds a lock on it for too long. Close other Sightline instances and retry.',
    );
  });

  it('guides every code the mid-run message guides, extended codes by their primary code', () => {
    const codes = ['SQLITE_FULL', 'SQLITE_IOERR_SHORT_READ', 'SQLITE_PERM', 'SQLITE_LOCKED', 'SQLITE_CORRUPT_INDEX', 'SQLITE_CANTOPEN_ISDIR'];
    for (const code of codes) {
      expect(describeStorageFailure(sqliteError(code, 'raw words'), paths), code).toBeDefined();
      expect(describeOpenFailure(sqliteError(code, 'raw words'), file), code).not.toBe('raw words');
    }
  });

  it('gives the error its own words when it is no storage failure', () => {
    expect(describeOpenFailure(sqliteError('SQLITE_CONSTRAINT_UNIQUE', 'UNIQUE constraint failed'), file)).toBe('UNIQUE constraint failed');
    expect(describeOpenFailure(Object.assign(new Error('EACCES: permission denied, mkdir'), { code: 'EACCES' }), file)).toBe('EACCES: permission denied, mkdir');
    expect(describeOpenFailure('not an error', file)).toBe('not an error');
  });
});
