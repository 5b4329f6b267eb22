/**
 * REPLICATED_TABLES is the team store's copy of the schema: the rows a replicator reads, the columns PostgreSQL
 * keeps and a mirror writes back. A migration that adds a column (or a table) must update it, or the column
 * would silently stay on one machine; this test holds the list to a fresh database's own description.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/main/storage/database.js';
import { REPLICATED_TABLES } from '../../src/main/storage/index.js';

/** Tables a mirror must not receive: rebuilt by triggers, a local journal, this home's own bookkeeping. */
const LOCAL_TABLES = ['compactions', 'generated_media', 'replication_marks'];

let folder: string;
let database: Database;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'sightline-replicated-tables-'));
  database = openDatabase(join(folder, 'sightline.db'));
});
afterEach(() => {
  database.close();
  rmSync(folder, { recursive: true, force: true });
});

interface ColumnInfo {
  name: string;
  pk: number;
}

interface ForeignKey {
  table: string;
}

describe('REPLICATED_TABLES', () => {
  it('names every column of every replicated table, in the table’s order, and its primary key', () => {
    for (const spec of REPLICATED_TABLES) {
      const columns = database.pragma(`table_info(${spec.name})`) as ColumnInfo[];
      expect(spec.columns, `the columns of ${spec.name}`).toEqual(columns.map((column) => column.name));
      expect([spec.key], `the key of ${spec.name}`).toEqual(columns.filter((column) => column.pk > 0).map((column) => column.name));
    }
  });

  it('covers every table of the schema but the local ones', () => {
    const tables = database
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
      .pluck()
      .all() as string[];
    expect(REPLICATED_TABLES.map((spec) => spec.name).sort()).toEqual(tables.filter((table) => !LOCAL_TABLES.includes(table)));
  });

  it('lists a table after every table it references, so rows applied in order satisfy the foreign keys', () => {
    const order = REPLICATED_TABLES.map((spec) => spec.name as string);
    for (const [index, spec] of REPLICATED_TABLES.entries()) {
      const parents = (database.pragma(`foreign_key_list(${spec.name})`) as ForeignKey[]).map((key) => key.table);
      for (const parent of parents) expect(order.indexOf(parent), `${spec.name} references ${parent}`).toBeLessThan(index);
    }
  });
});
