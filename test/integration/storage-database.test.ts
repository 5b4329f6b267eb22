import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DatabaseOpenError, DatabaseVersionError, SCHEMA_VERSION } from '../../src/main/storage/index.js';
import { migrate, openDatabase, userVersion, type Database } from '../../src/main/storage/database.js';
import { MIGRATIONS, type Migration } from '../../src/main/storage/migrations/index.js';
import { createTemporaryHome, type TemporaryHome } from '../helpers/seed.js';

/**
 * One row per table of the newest schema, in foreign-key order. Seeding at an older version inserts only
 * the tables and columns that exist there; a table without a row here fails the test, so a migration
 * that adds a table must add its row too.
 */
const FIXTURE_ROWS: Record<string, Record<string, unknown>> = {
  sessions: {
    id: 'ses_000000000001',
    title: 'Old session',
    status: 'idle',
    operator: 'desktop',
    model: 'gpt-4.1',
    created_at: '2025-01-01T00:00:00.000Z',
    updated_at: '2025-01-01T00:00:00.000Z',
  },
  turns: {
    id: 'turn_000000000001',
    session_id: 'ses_000000000001',
    sequence: 1,
    user_request: 'open the settings',
    status: 'finished',
    started_at: '2025-01-01T00:00:01.000Z',
    ended_at: '2025-01-01T00:00:09.000Z',
    compacted_at: null,
    summary: 'opened',
  },
  messages: {
    id: 'msg_000000000001',
    session_id: 'ses_000000000001',
    turn_id: null,
    sequence: 1,
    role: 'user',
    parts: '[{"type":"text","text":"open the settings"}]',
    tool_calls: null,
    tool_call_id: null,
    tool_name: null,
    is_error: 0,
    is_compressed: 0,
    created_at: '2025-01-01T00:00:01.000Z',
  },
  images: {
    id: 'img_000000000001',
    session_id: 'ses_000000000001',
    turn_id: 'turn_000000000001',
    sha256: 'a'.repeat(64),
    phash: '0123456789abcdef',
    hash_algorithm: 'phash',
    width: 800,
    height: 600,
    mime: 'image/png',
    byte_size: 1234,
    zone: 'active',
    is_error_frame: 0,
    source: 'screen',
    display_id: '1',
    scale_factor: 2,
    caption: null,
    created_at: '2025-01-01T00:00:02.000Z',
    offloaded_at: null,
    purged_at: null,
  },
  steps: {
    id: 'step_000000000001',
    session_id: 'ses_000000000001',
    turn_id: 'turn_000000000001',
    sequence: 1,
    action: '{"action":"click","x":1,"y":2}',
    thought: 'the gear icon',
    screenshot_image_id: 'img_000000000001',
    dedup_of_image_id: null,
    result: '{"ok":true}',
    error: null,
    latency_ms: 120,
    input_tokens: 1000,
    output_tokens: 20,
    cached_input_tokens: 800,
    cache_write_input_tokens: 150,
    cost_dollars: 0.00246,
    token_report: '{"images":1}',
    created_at: '2025-01-01T00:00:03.000Z',
  },
  search_reports: {
    id: 'srch_000000000001',
    session_id: 'ses_000000000001',
    turn_id: 'turn_000000000001',
    question: 'what is the gear icon',
    queries: '["gear icon settings"]',
    sources: '[{"url":"https://example.com"}]',
    answer: 'settings',
    confidence: 0.8,
    iterations: 1,
    duration_ms: 900,
    created_at: '2025-01-01T00:00:04.000Z',
  },
  injections: {
    id: 'inj_000000000001',
    session_id: 'ses_000000000001',
    turn_id: 'turn_000000000001',
    type: 'reminder',
    content_length: 42,
    created_at: '2025-01-01T00:00:05.000Z',
  },
  compactions: {
    turn_id: 'turn_000000000001',
    session_id: 'ses_000000000001',
    state: 'done',
    plan: '{"anchors":[],"folded":[],"messages":[],"summary":null}',
    planned_at: '2025-01-01T00:00:10.000Z',
    finished_at: '2025-01-01T00:00:11.000Z',
  },
  image_pins: {
    image_id: 'img_000000000001',
    session_id: 'ses_000000000001',
    pinned_at: '2025-01-01T00:00:12.000Z',
  },
  generated_media: {
    message_id: 'msg_000000000001',
    part_index: 1,
    session_id: 'ses_000000000001',
    media_id: `med_${'b'.repeat(64)}`,
    kind: 'image',
    mime: 'image/png',
    width: 64,
    height: 48,
  },
  replication_marks: {
    session_id: 'ses_000000000001',
    dirty_mark: 3,
    pending_since: 2,
    shipped_mark: 1,
    marked_at: '2025-01-01T00:00:13.000Z',
    shipped_at: '2025-01-01T00:00:12.500Z',
  },
};

let home: TemporaryHome;
beforeEach(() => {
  home = createTemporaryHome('sightline-db');
});
afterEach(() => home.remove());

function tableNames(database: Database): string[] {
  return database
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .pluck()
    .all() as string[];
}

function columnsOf(database: Database, table: string): string[] {
  return (database.pragma(`table_info(${table})`) as { name: string }[]).map((column) => column.name);
}

/** Every table and index definition, normalised: what "the same schema" means. */
function schemaOf(database: Database): string[] {
  return (
    database
      .prepare("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name")
      .all() as { type: string; name: string; sql: string | null }[]
  ).map((entry) => `${entry.type} ${entry.name}: ${(entry.sql ?? '').replace(/\s+/g, ' ')}`);
}

/** Inserts the fixture rows of the tables that exist; returns what was inserted, per table. */
function seedFixtures(database: Database): Record<string, Record<string, unknown>> {
  const inserted: Record<string, Record<string, unknown>> = {};
  const existing = new Set(tableNames(database));
  for (const [table, row] of Object.entries(FIXTURE_ROWS)) {
    if (!existing.has(table)) continue;
    const columns = columnsOf(database, table);
    const present = Object.fromEntries(Object.entries(row).filter(([column]) => columns.includes(column)));
    const names = Object.keys(present);
    database
      .prepare(`INSERT INTO ${table} (${names.join(', ')}) VALUES (${names.map((name) => `@${name}`).join(', ')})`)
      .run(present);
    inserted[table] = present;
  }
  return inserted;
}

describe('a fresh database', () => {
  it('is created with its folder, at the current schema version, with the pragmas set', () => {
    const file = join(home.root, 'nested', 'sightline.db');
    const database = openDatabase(file);
    try {
      expect(userVersion(database)).toBe(SCHEMA_VERSION);
      expect(SCHEMA_VERSION).toBe(MIGRATIONS.length);
      expect(database.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(database.pragma('foreign_keys', { simple: true })).toBe(1);
      expect(database.pragma('busy_timeout', { simple: true })).toBe(5000);
      expect(database.pragma('synchronous', { simple: true })).toBe(1); // NORMAL
      expect(tableNames(database)).toEqual(Object.keys(FIXTURE_ROWS).sort());
    } finally {
      database.close();
    }
  });

  it('enforces foreign keys and the CHECK constraints on enums', () => {
    const database = openDatabase(home.databaseFile);
    try {
      expect(() => seedFixtures(database)).not.toThrow();
      expect(() =>
        database
          .prepare("INSERT INTO turns (id, session_id, sequence, user_request, started_at) VALUES ('t', 'nope', 1, 'x', 'now')")
          .run(),
      ).toThrow(/FOREIGN KEY/);
      expect(() => database.prepare("UPDATE images SET zone = 'lukewarm'").run()).toThrow(/CHECK/);
      expect(() => database.prepare("UPDATE turns SET status = 'paused'").run()).toThrow(/CHECK/);
      expect(() => database.prepare("UPDATE messages SET role = 'robot'").run()).toThrow(/CHECK/);
      expect(() => database.prepare("UPDATE messages SET parts = 'not json'").run()).toThrow(/CHECK/);
    } finally {
      database.close();
    }
  });

  it('opens an existing database again without re-running migrations', () => {
    const first = openDatabase(home.databaseFile);
    seedFixtures(first);
    first.close();
    const second = openDatabase(home.databaseFile);
    try {
      expect(userVersion(second)).toBe(SCHEMA_VERSION);
      expect(second.prepare('SELECT COUNT(*) FROM sessions').pluck().get()).toBe(1);
    } finally {
      second.close();
    }
  });
});

describe('upgrading', () => {
  const freshSchema = (): string[] => {
    const database = openDatabase(join(home.root, 'fresh.db'));
    try {
      return schemaOf(database);
    } finally {
      database.close();
    }
  };

  for (let version = 0; version < SCHEMA_VERSION; version += 1) {
    it(`from schema version ${version} keeps every row and ends with the fresh schema`, () => {
      const file = join(home.root, `at-version-${version}.db`);
      const old = new BetterSqlite3(file);
      old.pragma('foreign_keys = ON');
      migrate(old, MIGRATIONS.slice(0, version));
      expect(userVersion(old)).toBe(version);
      const seeded = seedFixtures(old);
      old.close();

      const upgraded = openDatabase(file);
      try {
        expect(userVersion(upgraded)).toBe(SCHEMA_VERSION);
        for (const [table, row] of Object.entries(seeded)) {
          // Each fixture row starts with its table's key: id, or the turn of the compaction journal, or a pin's image.
          const key = Object.keys(FIXTURE_ROWS[table] ?? {})[0] ?? 'id';
          const stored = upgraded.prepare(`SELECT * FROM ${table} WHERE ${key} = ?`).get(row[key]) as Record<string, unknown>;
          expect(stored, `${table} row after upgrading from ${version}`).toMatchObject(row);
        }
        expect(upgraded.pragma('foreign_key_check')).toEqual([]);
        expect(schemaOf(upgraded)).toEqual(freshSchema());
      } finally {
        upgraded.close();
      }
    });
  }

  it('rolls back a failing migration whole, leaving the previous version', () => {
    const failing: Migration = {
      version: 2,
      name: 'fails-halfway',
      up(database) {
        database.exec('CREATE TABLE half_done (id TEXT)');
        throw new Error('disk on fire');
      },
    };
    const database = new BetterSqlite3(join(home.root, 'failing.db'));
    try {
      expect(() => migrate(database, [MIGRATIONS[0] as Migration, failing])).toThrow('disk on fire');
      expect(userVersion(database)).toBe(1);
      expect(tableNames(database)).not.toContain('half_done');
    } finally {
      database.close();
    }
  });
});

describe('refusing what it cannot open', () => {
  it('refuses a database from a newer Sightline, naming both versions, and leaves it untouched', () => {
    const newer = new BetterSqlite3(home.databaseFile);
    newer.pragma(`user_version = ${SCHEMA_VERSION + 5}`);
    newer.close();
    const before = readFileSync(home.databaseFile);

    let caught: unknown;
    try {
      openDatabase(home.databaseFile).close();
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(DatabaseVersionError);
    const message = (caught as Error).message;
    expect(message).toContain(`version ${SCHEMA_VERSION + 5}`);
    expect(message).toContain(`up to ${SCHEMA_VERSION}`);
    expect(message).toMatch(/upgrade Sightline/);
    expect(message).toContain('SIGHTLINE_HOME');
    expect(readFileSync(home.databaseFile)).toEqual(before);
  });

  it('refuses a file that is not a SQLite database with a clear message and never overwrites it', () => {
    const contents = 'these are my notes, not a database\n'.repeat(200);
    writeFileSync(home.databaseFile, contents);
    expect(() => openDatabase(home.databaseFile)).toThrow(DatabaseOpenError);
    expect(() => openDatabase(home.databaseFile)).toThrow(/not a SQLite database/);
    expect(readFileSync(home.databaseFile, 'utf8')).toBe(contents);
  });
});
