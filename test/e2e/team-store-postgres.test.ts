/**
 * The team store's PostgreSQL half against a real PostgreSQL (test/helpers/postgres-server.ts): a session written
 * by the repositories in a temporary home is shipped, read back exactly, shipped again for free, changed by one
 * row, and rebuilt in a second home from the store alone. Then the failures: two workers creating the schema at
 * once, a session marked lost, a closed port, a server that never answers, a server stopped mid-use, a wrong
 * password, a statement that waits too long. Every message names the store by its masked URL, never the password.
 */
import { createServer, type Server, type Socket } from 'node:net';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { REPLICATED_TABLES, type SessionRows, type Storage } from '../../src/main/storage/index.js';
import { PostgresTeamStore, TeamStoreError } from '../../src/main/team-store/postgres-team-store.js';
import { TEAM_MIGRATIONS } from '../../src/main/team-store/migrations/index.js';
import { parseStoreUrl } from '../../src/main/team-store/store-url.js';
import { postgresAvailable, startPostgres, type PostgresServer } from '../helpers/postgres-server.js';
import { freePort } from '../helpers/redis-server.js';
import { writeReplicationSession, type ReplicationSession } from '../helpers/replication-session.js';
import { createTemporaryStorage, type TemporaryStorage } from '../helpers/temporary-storage.js';
import { waitFor } from '../helpers/wait-for.js';

const WORKER = { host: 'worker-1', pid: 4242, jobId: 'job-7' };

let postgres: PostgresServer;
let url: string;
let source: TemporaryStorage;
let storage: Storage;
let written: ReplicationSession;
const stores: PostgresTeamStore[] = [];
const temporaries: TemporaryStorage[] = [];

async function open(address = url, options: { connectTimeoutMs?: number; statementTimeoutMs?: number } = {}): Promise<PostgresTeamStore> {
  const store = await PostgresTeamStore.open(parseStoreUrl(address), options);
  stores.push(store);
  return store;
}

/** What open() or a call threw, which must be a TeamStoreError. */
async function failureOf(work: Promise<unknown>): Promise<TeamStoreError> {
  const error: unknown = await work.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(TeamStoreError);
  return error as TeamStoreError;
}

function rowCount(rows: SessionRows): number {
  return Object.values(rows.tables).reduce((sum, table) => sum + table.length, 0);
}

async function query<Result extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<Result[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<Result>(text, values)).rows;
  } finally {
    await client.end();
  }
}

describe.skipIf(!postgresAvailable())('the team store on a real PostgreSQL', () => {
  beforeAll(async () => {
    postgres = await startPostgres();
  });
  afterAll(async () => {
    await postgres?.remove();
  });

  beforeEach(async () => {
    url = await postgres.newDatabase();
    source = createTemporaryStorage('sightline-team-source');
    storage = source.storage;
    written = await writeReplicationSession(storage);
  });
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
    for (const temporary of temporaries.splice(0)) temporary.remove();
    source.remove();
  });

  describe('shipping and pulling', () => {
    it('gives back every shipped row exactly as SQLite holds it, with the session’s state', async () => {
      const store = await open();
      const rows = storage.replication.readSession(written.sessionId)!;
      expect(await store.ship(written.sessionId, rows.tables, { state: 'live', worker: WORKER })).toEqual({ rowsWritten: rowCount(rows), statements: 9 });

      const changes = await store.changesSince(0);
      expect(changes.tables).toEqual(rows.tables);
      expect(Object.keys(changes.tables)).toEqual(['sessions', 'turns', 'messages', 'images', 'image_pins', 'steps', 'search_reports', 'injections']);
      expect(changes.states).toEqual([
        { sessionId: written.sessionId, state: 'live', workerHost: 'worker-1', workerPid: 4242, jobId: 'job-7', detail: null, updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) },
      ]);
      expect(changes.revision).toBeGreaterThanOrEqual(rowCount(rows) + 1);
    });

    it('writes nothing when the same rows are shipped again, and the mirrors see no change', async () => {
      const store = await open();
      const rows = storage.replication.readSession(written.sessionId)!;
      await store.ship(written.sessionId, rows.tables, { state: 'live', worker: WORKER });
      const { revision } = await store.changesSince(0);

      expect((await store.ship(written.sessionId, rows.tables, { state: 'live', worker: WORKER })).rowsWritten).toBe(0);
      expect(await store.changesSince(revision)).toEqual({ revision, tables: {}, states: [] });
    });

    it('ships a changed row as one row with a higher revision', async () => {
      const store = await open();
      await store.ship(written.sessionId, storage.replication.readSession(written.sessionId)!.tables, { state: 'live', worker: WORKER });
      const before = await store.changesSince(0);

      storage.sessions.update(written.sessionId, { title: 'Checkout flow, renamed' });
      const rows = storage.replication.readSession(written.sessionId)!;
      expect((await store.ship(written.sessionId, rows.tables, { state: 'live', worker: WORKER })).rowsWritten).toBe(1);

      const after = await store.changesSince(before.revision);
      expect(after.tables).toEqual({ sessions: rows.tables.sessions });
      expect(after.states).toEqual([]);
      expect(after.revision).toBeGreaterThan(before.revision);
    });

    it('rebuilds the session in a second home from the store alone', async () => {
      const store = await open();
      const rows = storage.replication.readSession(written.sessionId)!;
      await store.ship(written.sessionId, rows.tables, { state: 'complete', worker: WORKER });

      const mirror = createTemporaryStorage('sightline-team-mirror');
      temporaries.push(mirror);
      const changes = await store.changesSince(0);
      expect(mirror.storage.replication.applyRows(changes.tables)).toBe(rowCount(rows));
      expect(mirror.storage.replication.readSession(written.sessionId)?.tables).toEqual(rows.tables);
      expect(mirror.storage.media.listBySession(written.sessionId)).toEqual(storage.media.listBySession(written.sessionId));
      expect(mirror.storage.steps.listBySession(written.sessionId)).toEqual(storage.steps.listBySession(written.sessionId));
    });

    it('never lets a mirror step past a revision that commits late', async () => {
      const store = await open();
      const other = await writeReplicationSession(storage, 'Slow writer');
      const slowRows = storage.replication.readSession(other.sessionId)!.tables;
      // A slow writer (another worker) takes the lock, numbers a row and has not committed yet.
      const slow = new pg.Client({ connectionString: url });
      await slow.connect();
      try {
        await slow.query('BEGIN');
        await slow.query('SELECT pg_advisory_xact_lock($1)', [0x5167_0002]);
        const session = slowRows.sessions[0]!;
        await slow.query(
          `INSERT INTO sessions (id, title, status, operator, model, created_at, updated_at, flow_name, revision)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, nextval('team_revision'))`,
          [session.id, session.title, session.status, session.operator, session.model, session.created_at, session.updated_at, session.flow_name],
        );
        const shipping = store.ship(written.sessionId, storage.replication.readSession(written.sessionId)!.tables, { state: 'live', worker: WORKER });
        await waitFor(
          async () => Number((await query<{ waiting: string }>("SELECT count(*) AS waiting FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"))[0]?.waiting) === 1,
          { description: 'the shipment waiting for the slow writer' },
        );
        // A mirror pulling now sees neither: its mark stays below the slow writer's revision.
        const middle = await store.changesSince(0);
        expect(middle).toEqual({ revision: 0, tables: {}, states: [] });
        await slow.query('COMMIT');
        await shipping;
        const next = await store.changesSince(middle.revision);
        expect(next.tables.sessions?.map((row) => row.id)).toEqual([other.sessionId, written.sessionId]);
      } finally {
        await slow.end();
      }
    });

    it('refuses rows of another session, or of a table it does not replicate, and writes none', async () => {
      const store = await open();
      const other = await writeReplicationSession(storage, 'Another');
      const rows = storage.replication.readSession(written.sessionId)!;
      const stray = { ...rows.tables, steps: [...rows.tables.steps, ...storage.replication.readSession(other.sessionId)!.tables.steps] };
      await expect(store.ship(written.sessionId, stray, { state: 'live', worker: WORKER })).rejects.toThrow(
        `belongs to ${other.sessionId}`,
      );
      await expect(store.ship(written.sessionId, { compactions: [] } as never, { state: 'live', worker: WORKER })).rejects.toThrow(
        'compactions is not a replicated table.',
      );
      expect(await store.changesSince(0)).toEqual({ revision: 0, tables: {}, states: [] });
    });
  });

  describe('session states', () => {
    it('marks a live session lost once, keeps a complete one complete, and lets the mirrors see it', async () => {
      const store = await open();
      const rows = storage.replication.readSession(written.sessionId)!;
      await store.ship(written.sessionId, rows.tables, { state: 'live', worker: WORKER });
      const { revision } = await store.changesSince(0);

      expect(await store.markLost(written.sessionId, 'worker-1 stopped answering')).toBe(true);
      expect(await store.markLost(written.sessionId, 'worker-1 stopped answering')).toBe(false);
      const lost = await store.changesSince(revision);
      expect(lost.tables).toEqual({});
      expect(lost.states).toEqual([expect.objectContaining({ sessionId: written.sessionId, state: 'lost', workerHost: 'worker-1', detail: 'worker-1 stopped answering' })]);
      expect(lost.revision).toBeGreaterThan(revision);

      // Its home replicated again after all: the session is live again, its detail gone.
      await store.ship(written.sessionId, rows.tables, { state: 'complete', worker: WORKER });
      expect(await store.markLost(written.sessionId, 'too late')).toBe(false);
      await store.ship(written.sessionId, rows.tables, { state: 'live', worker: WORKER });
      const final = await store.changesSince(0);
      expect(final.states).toEqual([expect.objectContaining({ sessionId: written.sessionId, state: 'complete', detail: null })]);
    });

    it('records a session never shipped as lost', async () => {
      const store = await open();
      expect(await store.markLost('ses_never_shipped', 'the worker died before its first step')).toBe(true);
      expect((await store.changesSince(0)).states).toEqual([
        expect.objectContaining({ sessionId: 'ses_never_shipped', state: 'lost', workerHost: null, workerPid: null, detail: 'the worker died before its first step' }),
      ]);
    });
  });

  describe('the schema', () => {
    it('is created once when two workers open a new store at the same moment', async () => {
      // Hold the migrations' lock so both opens are certainly waiting for it together, then let them go.
      const holder = new pg.Client({ connectionString: url });
      await holder.connect();
      try {
        await holder.query('BEGIN');
        await holder.query('SELECT pg_advisory_xact_lock($1)', [0x5167_0001]);
        const opening = Promise.all([open(), open()]);
        await waitFor(
          async () => Number((await query<{ waiting: string }>("SELECT count(*) AS waiting FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"))[0]?.waiting) === 2,
          { description: 'both opens waiting for the migration lock' },
        );
        await holder.query('COMMIT');
        const [first, second] = await opening;
        await first.ship(written.sessionId, storage.replication.readSession(written.sessionId)!.tables, { state: 'live', worker: WORKER });
        expect((await second.changesSince(0)).tables.sessions).toHaveLength(1);
      } finally {
        await holder.end();
      }
      expect(await query('SELECT version, name FROM team_schema_version ORDER BY version')).toEqual(TEAM_MIGRATIONS.map(({ version, name }) => ({ version, name })));
      expect(await query('SELECT count(*)::int AS count FROM team_store_identity')).toEqual([{ count: 1 }]);
    });

    it('keeps every column of the replicated tables, with a revision', async () => {
      await open();
      const columns = await query<{ table_name: string; column_name: string; data_type: string }>(
        `SELECT table_name, column_name, data_type FROM information_schema.columns
         WHERE table_schema = 'public' AND table_name = ANY($1) ORDER BY table_name, ordinal_position`,
        [REPLICATED_TABLES.map((spec) => spec.name)],
      );
      for (const spec of REPLICATED_TABLES) {
        // As sets: a column a later migration adds comes after `revision` in PostgreSQL's order.
        expect(columns.filter((column) => column.table_name === spec.name).map((column) => column.column_name).sort(), spec.name).toEqual([...spec.columns, 'revision'].sort());
      }
    });

    it('refuses a store a newer Sightline wrote', async () => {
      await (await open()).close();
      await query("INSERT INTO team_schema_version (version, name) VALUES (99, 'from-the-future')");
      const failure = await failureOf(open());
      expect(failure.failure).toBe('schema');
      expect(failure.message).toBe(
        `The team store at ${parseStoreUrl(url).shown} has schema version 99, but this Sightline knows versions up to ${TEAM_MIGRATIONS.length}. It was written by a newer Sightline: upgrade this one.`,
      );
    });
  });

  describe('failures', () => {
    it('says a closed port is unreachable, quickly, without the password', async () => {
      const port = await freePort();
      const failure = await failureOf(open(`postgres://sightline:hunter2-secret@127.0.0.1:${port}/team`));
      expect(failure.message).toBe(`The team store at postgres://sightline:***@127.0.0.1:${port}/team is unreachable: connection refused.`);
      expect(failure.failure).toBe('unreachable');
    });

    it('gives up on a server that accepts and never answers, within the connect timeout', async () => {
      const sockets: Socket[] = [];
      const silent: Server = createServer((socket) => sockets.push(socket));
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      const { port } = silent.address() as { port: number };
      try {
        const failure = await failureOf(open(`postgres://sightline:hunter2-secret@127.0.0.1:${port}/team`, { connectTimeoutMs: 300 }));
        expect(failure.message).toBe(`The team store at postgres://sightline:***@127.0.0.1:${port}/team is unreachable: no answer within 0.3 s.`);
      } finally {
        for (const socket of sockets) socket.destroy();
        await new Promise((resolve) => silent.close(resolve));
      }
    });

    it('says a wrong password was refused, without either password', async () => {
      const wrong = url.replace(`:${postgres.password}@`, ':not-the-password@');
      const failure = await failureOf(open(wrong));
      expect(failure.failure).toBe('refused');
      expect(failure.message).toBe(`The team store at ${parseStoreUrl(wrong).shown} refused the password for the user sightline.`);
      expect(failure.message).not.toContain('not-the-password');
      expect(failure.message).not.toContain(postgres.password);
    });

    it('reports a server stopped mid-use as unreachable, survives its idle connections dropping, and works again once it is back', async () => {
      const store = await open();
      const rows = storage.replication.readSession(written.sessionId)!;
      await store.ship(written.sessionId, rows.tables, { state: 'live', worker: WORKER });

      await postgres.stop();
      const failure = await failureOf(store.ship(written.sessionId, rows.tables, { state: 'complete', worker: WORKER }));
      expect(failure.failure).toBe('unreachable');
      expect(failure.message).toMatch(new RegExp(`^The team store at ${escape(parseStoreUrl(url).shown)} is unreachable: `));
      expect(failure.message).not.toContain(postgres.password);
      await expect(store.changesSince(0)).rejects.toThrow(TeamStoreError);

      await postgres.start();
      await store.ship(written.sessionId, rows.tables, { state: 'complete', worker: WORKER });
      expect((await store.changesSince(0)).states).toEqual([expect.objectContaining({ state: 'complete' })]);
    });

    it('cancels a shipment that waits longer than the statement timeout, with a clear message', async () => {
      const store = await open(url, { statementTimeoutMs: 300 });
      // Another writer holds the revision lock and does not let go.
      const holder = new pg.Client({ connectionString: url });
      await holder.connect();
      try {
        await holder.query('BEGIN');
        await holder.query('SELECT pg_advisory_xact_lock($1)', [0x5167_0002]);
        const failure = await failureOf(store.ship(written.sessionId, storage.replication.readSession(written.sessionId)!.tables, { state: 'live', worker: WORKER }));
        expect(failure.message).toBe(`The team store at ${parseStoreUrl(url).shown} cancelled a statement that ran longer than 0.3 s.`);
        await holder.query('ROLLBACK');
      } finally {
        await holder.end();
      }
      expect(await store.changesSince(0)).toEqual({ revision: 0, tables: {}, states: [] });
    });
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
