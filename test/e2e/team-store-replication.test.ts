/**
 * The replicator and the mirror between two SQLite homes, through a real PostgreSQL and s3rver, without the queue:
 * a worker's home ships its sessions (pixels first, changed rows only, a burst of changes coalesced), a reader's mirror
 * pulls them in batches of whole sessions and reads every row and pixel back as the worker's home has them; a
 * session whose parent row changed after its children still applies one batch at a time; a lost run's turn is shown
 * stopped; a home left dirty by a dead worker is shipped by the next replicator on it. A row in PostgreSQL that the
 * mirror's SQLite refuses costs its own session only: the others are read, by the mirror and `sessions ls`, the skipped
 * one is said once with the reason, and a later good revision of it arrives whole (issue 33, finding 12).
 */
import { createHash } from 'node:crypto';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Storage } from '../../src/main/storage/index.js';
import { PostgresTeamStore } from '../../src/main/team-store/postgres-team-store.js';
import { Replicator } from '../../src/main/team-store/replicator.js';
import { S3TeamBlobs } from '../../src/main/team-store/s3-team-blobs.js';
import { parseBlobsUrl } from '../../src/main/team-store/blobs-url.js';
import { parseStoreUrl } from '../../src/main/team-store/store-url.js';
import { openTeamMirror, type TeamMirror } from '../../src/main/team-store/team-mirror.js';
import { runSightline } from '../helpers/cli-io.js';
import { postgresAvailable, startPostgres, type PostgresServer } from '../helpers/postgres-server.js';
import { writeReplicationSession } from '../helpers/replication-session.js';
import { startS3Server, type S3Server } from '../helpers/s3-server.js';
import { createTemporaryHome, openHomeStorage, type TemporaryHome } from '../helpers/seed.js';

let postgres: PostgresServer;
let s3: S3Server;
let storeUrl: string;
const homes: TemporaryHome[] = [];
const closers: Array<() => unknown> = [];

beforeAll(async () => {
  if (postgresAvailable()) postgres = await startPostgres();
});

afterAll(async () => {
  await postgres?.remove();
});

beforeEach(async () => {
  s3 = await startS3Server();
  if (postgres !== undefined) storeUrl = await postgres.newDatabase();
});

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  await s3.stop();
  for (const home of homes.splice(0)) home.remove();
});

function home(name: string): { home: TemporaryHome; storage: Storage } {
  const created = createTemporaryHome(`sightline-replication-${name}`);
  homes.push(created);
  const storage = openHomeStorage(created);
  closers.push(() => storage.close());
  return { home: created, storage };
}

function blobs(): S3TeamBlobs {
  const client = S3TeamBlobs.create(parseBlobsUrl(s3.url, s3.env), s3.env);
  closers.push(() => client.close());
  return client;
}

/** A replicator on `storage` whose shipments and marks the test can count. */
function replicator(storage: Storage, said: string[] = []): { replicator: Replicator; ships: number[] } {
  const ships: number[] = [];
  const created = new Replicator({
    storage,
    connect: async () => {
      const store = await PostgresTeamStore.open(parseStoreUrl(storeUrl));
      const ship = store.ship.bind(store);
      store.ship = async (sessionId, rows, options) => {
        const result = await ship(sessionId, rows, options);
        ships.push(Object.values(rows).reduce((sum, tableRows) => sum + (tableRows?.length ?? 0), 0));
        return result;
      };
      return store;
    },
    blobs: blobs(),
    worker: { host: 'worker-host', pid: 4242 },
    say: (line) => said.push(line),
    backoff: { firstMs: 50, maxMs: 200 },
    settleMs: 20_000,
  });
  closers.push(() => created.close());
  return { replicator: created, ships };
}

async function mirror(root: string, sessionsPerBatch?: number): Promise<TeamMirror> {
  const rows = await PostgresTeamStore.open(parseStoreUrl(storeUrl));
  const pull = rows.pullInBatches.bind(rows);
  if (sessionsPerBatch !== undefined) rows.pullInBatches = (since, onBatch, options) => pull(since, onBatch, { ...options, sessionsPerBatch });
  const opened = openTeamMirror({ homeRoot: root, rows, blobs: blobs() });
  closers.push(() => opened.close());
  return opened;
}

/** A session's rows per table, in key order: equal when two homes hold the same rows, whatever order they came in. */
function rowsByKey(storage: Storage, sessionId: string): Record<string, unknown[]> {
  const tables = storage.replication.readSession(sessionId)!.tables;
  return Object.fromEntries(
    Object.entries(tables).map(([table, rows]) => [table, [...rows].sort((left, right) => String(left['id'] ?? left['image_id']).localeCompare(String(right['id'] ?? right['image_id'])))]),
  );
}

describe.skipIf(!postgresAvailable())('the replicator and the mirror on PostgreSQL and s3rver', () => {
  it('ships sessions pixels first, and a mirror pulling one session per batch reads every row and pixel back', async () => {
    const worker = home('worker');
    const first = await writeReplicationSession(worker.storage, 'First');
    const second = await writeReplicationSession(worker.storage, 'Second');
    const { replicator: shipping, ships } = replicator(worker.storage);
    for (const session of [first, second]) expect(await shipping.settle(session.sessionId, 'run_000000000001.1')).toBe(true);
    expect(worker.storage.replication.pendingSessions()).toEqual([]);
    // Objects went up before rows: every image and medium of both sessions is in the bucket.
    expect(shipping.counts.blobsUploaded).toBe(new Set([first, second].flatMap((session) => worker.storage.replication.readSession(session.sessionId)!.blobs.map((blob) => blob.sha256))).size);
    expect(ships).toHaveLength(2);

    // The session row changes after its children were shipped: its revision is now above theirs.
    worker.storage.sessions.update(first.sessionId, { title: 'First, renamed' });
    shipping.schedule(first.sessionId);
    expect(await shipping.settle(first.sessionId)).toBe(true);

    const reader = home('reader');
    const view = await mirror(reader.home.root, 1);
    const pulled = await view.pull();
    expect(pulled.sessionIds.sort()).toEqual([first.sessionId, second.sessionId].sort());
    for (const session of [first, second]) {
      const original = worker.storage.replication.readSession(session.sessionId)!;
      const copy = view.storage.replication.readSession(session.sessionId)!;
      expect(copy.tables).toEqual(original.tables);
      // Every pixel the rows name, read through the mirror's blob store: fetched from the bucket, checked, kept.
      for (const blob of copy.blobs) {
        const read = await view.storage.blobs.read(blob.sha256, blob.mime);
        expect(read.status, blob.sha256).toBe('ok');
        if (read.status === 'ok') expect(createHash('sha256').update(read.bytes).digest('hex')).toBe(blob.sha256);
      }
    }
    expect(await view.pull()).toEqual({ sessionIds: [], rows: 0, skipped: [] });
  });

  it('a burst of changes during a shipment is one more shipment, and only changed rows are sent', async () => {
    const worker = home('worker');
    const session = await writeReplicationSession(worker.storage);
    const { replicator: shipping, ships } = replicator(worker.storage);
    expect(await shipping.settle(session.sessionId)).toBe(true);
    const everything = ships[0]!;
    for (let change = 0; change < 20; change += 1) shipping.schedule(session.sessionId);
    expect(await shipping.settle(session.sessionId)).toBe(true);
    // The first shipment sent every row; nothing changed since, so the later ones (at most two: one under way, one
    // for the burst) sent none.
    expect(everything).toBeGreaterThan(10);
    expect(ships.length).toBeLessThanOrEqual(3);
    expect(ships.slice(1).every((count) => count === 0)).toBe(true);
  });

  it('a home a dead worker left dirty is shipped by the next replicator on it; a run marked lost shows its turn stopped until then', async () => {
    const worker = home('worker');
    const session = await writeReplicationSession(worker.storage);
    const runningTurn = worker.storage.turns.start({ sessionId: session.sessionId, userRequest: 'Pay' });
    // The first worker shipped while the turn ran, then died before the end.
    const dead = replicator(worker.storage).replicator;
    dead.schedule(session.sessionId);
    await dead.close();
    expect(worker.storage.replication.pendingSessions()).toEqual([session.sessionId]);

    const reader = home('reader');
    const view = await mirror(reader.home.root);
    const store = await PostgresTeamStore.open(parseStoreUrl(storeUrl));
    closers.push(() => store.close());
    await view.pull();
    expect(view.storage.turns.get(runningTurn.id)?.status).toBe('running');
    expect(await store.markLost(session.sessionId, 'its worker worker-host (pid 4242) stopped mid-run')).toBe(true);
    await view.pull();
    expect(view.storage.turns.get(runningTurn.id)?.status).toBe('stopped');

    // The machine comes back: its startup ends the turn, and the next replicator ships what the home left.
    worker.storage.endAbandonedTurn(runningTurn);
    const said: string[] = [];
    const revived = replicator(worker.storage, said).replicator;
    expect(revived.resumePending()).toBe(1);
    await expect.poll(() => worker.storage.replication.pendingSessions(), { timeout: 20_000 }).toEqual([]);
    const changes = await store.changesSince(0);
    expect(changes.states.find((state) => state.sessionId === session.sessionId)?.state).toBe('complete');
    expect((changes.tables.turns ?? []).find((turn) => turn['id'] === runningTurn.id)?.['status']).toBe('stopped');
  });

  it('a store dropped and made again under the same URL: the mirror starts over instead of keeping what the new store lacks', async () => {
    const worker = home('worker');
    const old = await writeReplicationSession(worker.storage, 'Before the reset');
    const first = replicator(worker.storage).replicator;
    expect(await first.settle(old.sessionId)).toBe(true);
    await first.close();
    const reader = home('reader');
    const before = await mirror(reader.home.root);
    await before.pull();
    expect(before.storage.sessions.get(old.sessionId)).toBeDefined();
    await before.close();

    // The team drops the store's tables and lets the next worker make them again, under the same URL.
    const admin = new pg.Client({ connectionString: storeUrl });
    await admin.connect();
    await admin.query('DROP SCHEMA public CASCADE; CREATE SCHEMA public');
    await admin.end();
    const fresh = await writeReplicationSession(worker.storage, 'After the reset');
    const second = replicator(worker.storage).replicator;
    expect(await second.settle(fresh.sessionId)).toBe(true);

    const after = await mirror(reader.home.root);
    const pulled = await after.pull();
    expect(pulled.sessionIds).toEqual([fresh.sessionId]);
    expect(after.storage.sessions.get(old.sessionId)).toBeUndefined();
    expect(after.storage.sessions.get(fresh.sessionId)?.title).toBe('After the reset');
  });

  it('a malformed row skips its own session, said once with the reason; the rest is read, the mirror pulls on, and a later good revision arrives whole', { timeout: 120_000 }, async () => {
    const worker = home('worker');
    const kept = await writeReplicationSession(worker.storage, 'Kept whole');
    const badMessage = await writeReplicationSession(worker.storage, 'Bad message');
    const badStep = await writeReplicationSession(worker.storage, 'Bad step');
    const { replicator: shipping } = replicator(worker.storage);
    for (const session of [kept, badMessage, badStep]) expect(await shipping.settle(session.sessionId)).toBe(true);
    // A reader that pulled while every row was good.
    const earlier = await mirror(home('earlier').home.root);
    expect((await earlier.pull()).sessionIds).toHaveLength(3);

    // Anyone who can write to the store writes rows the homes' schema refuses, each with a new revision.
    const orphanSession = 'ses_\u001b]0;pwned\u0007';
    const admin = new pg.Client({ connectionString: storeUrl });
    await admin.connect();
    closers.push(() => admin.end());
    const message = (await admin.query<{ id: string; parts: string }>('SELECT id, parts FROM messages WHERE session_id = $1 ORDER BY sequence LIMIT 1', [badMessage.sessionId])).rows[0]!;
    // A JSON column of the wrong type: an object where the schema holds an array.
    await admin.query(`UPDATE messages SET parts = '{"not":"an array"}', revision = nextval('team_revision') WHERE id = $1`, [message.id]);
    // A CHECK-violating value.
    await admin.query(`UPDATE steps SET sequence = 0, revision = nextval('team_revision') WHERE id = $1`, [badStep.stepIds[0]]);
    // A missing parent: a turn of a session that has no row, under an id made to retitle a terminal.
    await admin.query(
      `INSERT INTO turns (id, session_id, sequence, user_request, status, started_at, revision)
       VALUES ('turn_orphan', $1, 1, 'Nobody asked', 'finished', '2026-11-28T00:00:00.000Z', nextval('team_revision'))`,
      [orphanSession],
    );

    const reader = home('reader');
    const view = await mirror(reader.home.root, 1);
    const pulled = await view.pull();
    expect(pulled.sessionIds).toEqual([kept.sessionId]);
    expect(view.storage.replication.readSession(kept.sessionId)!.tables).toEqual(worker.storage.replication.readSession(kept.sessionId)!.tables);
    expect(view.storage.sessions.get(badMessage.sessionId)).toBeUndefined();
    expect(view.storage.sessions.get(badStep.sessionId)).toBeUndefined();
    const problems = Object.fromEntries(pulled.skipped.map((entry) => [entry.sessionId, entry.problem]));
    expect(Object.keys(problems).sort()).toEqual([badMessage.sessionId, badStep.sessionId, orphanSession].sort());
    expect(problems[badMessage.sessionId]).toBe(`its messages row "${message.id}" was refused: CHECK constraint failed: json_valid(parts) AND json_type(parts) = 'array'`);
    expect(problems[badStep.sessionId]).toBe(`its steps row "${badStep.stepIds[0]}" was refused: CHECK constraint failed: sequence >= 1`);
    expect(problems[orphanSession]).toMatch(/^its turns row "turn_orphan" was refused: FOREIGN KEY constraint failed \(a row it refers to, such as its session or turn, is missing\)$/);
    // Said once: the next pull has nothing new, and the mirror still knows what it lacks.
    expect(await view.pull()).toEqual({ sessionIds: [], rows: 0, skipped: [] });
    expect(view.skipped().map((entry) => entry.sessionId).sort()).toEqual(Object.keys(problems).sort());

    // A reader that had the good versions keeps them whole.
    const later = await earlier.pull();
    expect(later.skipped.map((entry) => entry.sessionId).sort()).toEqual(Object.keys(problems).sort());
    expect(earlier.storage.replication.readSession(badMessage.sessionId)!.tables).toEqual(worker.storage.replication.readSession(badMessage.sessionId)!.tables);

    // `sessions ls` on the store lists the rest and says what it skipped, each line safe for a terminal.
    const listed = await runSightline(['--home', home('cli').home.root, 'sessions', 'ls', '--store', storeUrl, '--blobs', s3.url], s3.env);
    expect(listed.exitCode, listed.stderr).toBe(0);
    expect(listed.stdout).toContain('Kept whole');
    expect(listed.stdout).not.toContain('Bad message');
    expect(listed.stderr).toContain(`team store: skipped session ${badMessage.sessionId}: its messages row "${message.id}" was refused: CHECK constraint failed`);
    expect(listed.stderr).toContain(`team store: skipped session ${badStep.sessionId}: its steps row`);
    expect(listed.stderr).toContain('team store: skipped session ses_\\x1b]0;pwned\\x07: its turns row "turn_orphan" was refused: FOREIGN KEY');
    expect(listed.stderr).not.toContain('\u001b');

    // The worker ships the message again, good: the mirror takes the whole session, not only the changed row.
    await admin.query(`UPDATE messages SET parts = $2, revision = nextval('team_revision') WHERE id = $1`, [message.id, message.parts]);
    const fixed = await view.pull();
    expect(fixed.sessionIds).toEqual([badMessage.sessionId]);
    expect(fixed.skipped).toEqual([]);
    // Row for row; the fixed row came last, so the mirror wrote it after the others.
    expect(rowsByKey(view.storage, badMessage.sessionId)).toEqual(rowsByKey(worker.storage, badMessage.sessionId));
    expect(view.skipped().map((entry) => entry.sessionId).sort()).toEqual([badStep.sessionId, orphanSession].sort());
  });

  it('with PostgreSQL gone, shipping says so once and retries, a run ending meanwhile does not wait for it, and the session arrives when it is back', async () => {
    const worker = home('worker');
    const session = await writeReplicationSession(worker.storage);
    await postgres.stop();
    const said: string[] = [];
    const { replicator: shipping } = replicator(worker.storage, said);
    shipping.schedule(session.sessionId);
    await expect.poll(() => said.filter((line) => line.startsWith('team store: ') && line.includes('retrying')).length, { timeout: 20_000 }).toBe(1);
    // The run ends while the store is still down: its job's result does not wait for an outage.
    expect(await shipping.settle(session.sessionId)).toBe(false);
    expect(said.join('')).toContain("stays in this machine's home");
    await postgres.start();
    await expect.poll(() => worker.storage.replication.pendingSessions(), { timeout: 20_000 }).toEqual([]);
    expect(said.filter((line) => line.includes('retrying'))).toHaveLength(1);
    expect(said.at(-1)).toContain('reachable again');
    expect(said.join('')).not.toContain(postgres.password);
  });
});
