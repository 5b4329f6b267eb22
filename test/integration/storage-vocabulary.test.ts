/**
 * The migrations are history: their SQL stays as it was written, CHECK lists included. The words those
 * lists allow are defined once in src/shared, and storage parses its rows with them. This test ties the two:
 * a status or zone added to src/shared without a migration that lets the database hold it (or the reverse)
 * fails here, not on a user's first write.
 */
import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../src/main/storage/database.js';
import { MIGRATIONS } from '../../src/main/storage/migrations/index.js';
import { GENERATED_MEDIA_KINDS } from '../../src/shared/generated-media.js';
import { IMAGE_SOURCES, IMAGE_ZONES } from '../../src/shared/images.js';
import { MESSAGE_ROLES } from '../../src/shared/messages.js';
import { COMPACTION_STATES, SESSION_STATUSES, TURN_STATUSES } from '../../src/shared/statuses.js';

/** The words a column's `CHECK (column IN (...))` allows, in the newest schema. */
function checkedWords(table: string, column: string): string[] {
  const database = new BetterSqlite3(':memory:');
  try {
    migrate(database, MIGRATIONS);
    const sql = database.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?").pluck().get(table);
    if (typeof sql !== 'string') throw new Error(`There is no table ${table}.`);
    const list = new RegExp(`CHECK \\(${column} IN \\(([^)]*)\\)\\)`).exec(sql)?.[1];
    if (list === undefined) throw new Error(`${table}.${column} has no CHECK (${column} IN (...)).`);
    return list.split(',').map((word) => word.trim().replace(/^'(.*)'$/, '$1'));
  } finally {
    database.close();
  }
}

describe('the words the database allows are the words src/shared defines', () => {
  it.each([
    ['sessions', 'status', SESSION_STATUSES],
    ['turns', 'status', TURN_STATUSES],
    ['messages', 'role', MESSAGE_ROLES],
    ['images', 'zone', IMAGE_ZONES],
    ['images', 'source', IMAGE_SOURCES],
    ['compactions', 'state', COMPACTION_STATES],
    ['generated_media', 'kind', GENERATED_MEDIA_KINDS],
  ] as const)('%s.%s', (table, column, words) => {
    expect(checkedWords(table, column)).toEqual([...words]);
  });
});
