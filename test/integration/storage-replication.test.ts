/**
 * The storage side of the team store: a session's rows as a replicator reads them, a mirror home's import of
 * them, and the marks that say which sessions still have to be shipped.
 */
import { statSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStorage, REPLICATED_TABLES, type ReplicatedTable, type Row, type Storage } from '../../src/main/storage/index.js';
import { openRawDatabase, withRawDatabase } from '../helpers/raw-database.js';
import { writeReplicationSession, type ReplicationSession } from '../helpers/replication-session.js';
import { createTemporaryStorage, type TemporaryStorage } from '../helpers/temporary-storage.js';

let source: TemporaryStorage;
let mirror: TemporaryStorage;
let storage: Storage;
let written: ReplicationSession;

beforeEach(async () => {
  source = createTemporaryStorage('sightline-replication-source');
  mirror = createTemporaryStorage('sightline-replication-mirror');
  storage = source.storage;
  written = await writeReplicationSession(storage);
});
afterEach(() => {
  source.remove();
  mirror.remove();
});

/** The session's rows as SQLite holds them, read past the repository: what readSession must give. */
function rawRows(databaseFile: string, sessionId: string): Record<ReplicatedTable, Row[]> {
  return withRawDatabase(databaseFile, (database) =>
    Object.fromEntries(
      REPLICATED_TABLES.map((spec) => [
        spec.name,
        database
          .prepare(`SELECT * FROM ${spec.name} WHERE ${spec.name === 'sessions' ? 'id' : 'session_id'} = ? ORDER BY rowid`)
          .all(sessionId) as Row[],
      ]),
    ) as Record<ReplicatedTable, Row[]>,
  );
}

describe('reading a session for the team store', () => {
  it('gives every row of the session in every replicated table, as SQLite holds them', () => {
    const read = storage.replication.readSession(written.sessionId)!;
    const raw = rawRows(source.home.databaseFile, written.sessionId);
    expect(read.tables).toEqual(raw);
    expect(read.tables.sessions).toHaveLength(1);
    expect(read.tables.turns).toHaveLength(2);
    expect(read.tables.messages).toHaveLength(4);
    expect(read.tables.images).toHaveLength(4);
    expect(read.tables.image_pins).toHaveLength(1);
    expect(read.tables.steps).toHaveLength(4);
    expect(read.tables.search_reports).toHaveLength(2);
    expect(read.tables.injections).toHaveLength(2);
    expect(read.tables.steps[1]?.cost_dollars).toBe(0.00346);
    expect(read.tables.images[0]?.scale_factor).toBe(1.5);
  });

  it('leaves out the rows of other sessions', async () => {
    const other = await writeReplicationSession(storage, 'Another flow');
    const read = storage.replication.readSession(written.sessionId)!;
    for (const table of Object.values(read.tables)) {
      for (const row of table) expect(row.session_id ?? row.id).toBe(written.sessionId);
    }
    expect(storage.replication.readSession(other.sessionId)?.tables.steps).toHaveLength(4);
  });

  it('names the pixels the rows need: unpurged images by their row, generated media by its file', () => {
    withRawDatabase(source.home.databaseFile, (database) =>
      database.prepare("UPDATE images SET purged_at = '2026-01-01T00:00:00.000Z' WHERE id = ?").run(written.imageIds[3]),
    );
    const read = storage.replication.readSession(written.sessionId)!;
    const images = read.tables.images.filter((image) => image.id !== written.imageIds[3]);
    const mediaFile = storage.blobs.pathFor('blobs', written.mediaSha256, 'audio/wav');
    expect(read.blobs).toEqual([
      ...images.map((image) => ({ sha256: image.sha256, mime: 'image/png', byteSize: image.byte_size })),
      { sha256: written.mediaSha256, mime: 'audio/wav', byteSize: statSync(mediaFile).size },
    ]);
  });

  it('leaves out generated media whose file this home no longer has', async () => {
    await storage.blobs.remove(written.mediaSha256, 'audio/wav');
    const read = storage.replication.readSession(written.sessionId)!;
    expect(read.blobs.map((blob) => blob.mime)).toEqual(['image/png', 'image/png', 'image/png', 'image/png']);
  });

  it('gives undefined for a session the home does not have', () => {
    expect(storage.replication.readSession('ses_nope')).toBeUndefined();
  });
});

describe('applying pulled rows (a mirror home)', () => {
  it('applies session by session: a row SQLite refuses skips its session, named with the rule; the others land (issue 33, finding 12)', async () => {
    const other = await writeReplicationSession(storage, 'Another');
    const good = storage.replication.readSession(written.sessionId)!.tables;
    const bad = storage.replication.readSession(other.sessionId)!.tables;
    const brokenTurn: Row = { ...bad.turns[0]!, status: 'exploded' };
    const result = mirror.storage.replication.applySessions({ ...mergeTables(good, bad), turns: [...good.turns, brokenTurn, ...bad.turns.slice(1)] });
    expect(result.applied).toEqual([written.sessionId]);
    expect(result.skipped).toEqual([
      { sessionId: other.sessionId, problem: `its turns row "${String(brokenTurn['id'])}" was refused: CHECK constraint failed: status IN ('running', 'finished', 'failed', 'stopped')` },
    ]);
    expect(mirror.storage.replication.readSession(written.sessionId)?.tables).toEqual(good);
    expect(mirror.storage.sessions.get(other.sessionId)).toBeUndefined();
  });

  it('skips nothing when the fault is this machine’s, not a row’s: the database locked fails the whole apply, to be retried', { timeout: 30_000 }, () => {
    const good = storage.replication.readSession(written.sessionId)!.tables;
    const blocker = openRawDatabase(mirror.home.databaseFile);
    blocker.pragma('busy_timeout = 0');
    blocker.exec('BEGIN IMMEDIATE');
    try {
      expect(() => mirror.storage.replication.applySessions(good)).toThrow(/locked|busy/i);
    } finally {
      blocker.exec('ROLLBACK');
      blocker.close();
    }
    expect(mirror.storage.sessions.get(written.sessionId)).toBeUndefined();
    expect(mirror.storage.replication.applySessions(good).applied).toEqual([written.sessionId]);
  });

  it('reproduces the session, its generated media index included, and counts the rows it wrote', () => {
    const read = storage.replication.readSession(written.sessionId)!;
    const rowCount = Object.values(read.tables).reduce((sum, rows) => sum + rows.length, 0);
    expect(mirror.storage.replication.applyRows(read.tables)).toBe(rowCount);
    expect(mirror.storage.replication.readSession(written.sessionId)?.tables).toEqual(read.tables);
    expect(mirror.storage.media.listBySession(written.sessionId)).toEqual(storage.media.listBySession(written.sessionId));
    expect(mirror.storage.steps.listBySession(written.sessionId)).toEqual(storage.steps.listBySession(written.sessionId));
  });

  it('reads the pixels it lacks through the remote blobs it was opened with', async () => {
    const read = storage.replication.readSession(written.sessionId)!;
    const remote = openStorage({ ...mirror.home, remoteBlobs: { fetch: async (sha256, mime) => {
      const found = await storage.blobs.read(sha256, mime);
      return found.status === 'ok' ? found.bytes : undefined;
    } } });
    try {
      remote.replication.applyRows(read.tables);
      const image = await remote.images.read(written.imageIds[0]!);
      const original = await storage.images.read(written.imageIds[0]!);
      expect(image).toEqual({ ...original, location: 'cold' });
      expect(await remote.media.read({ mediaId: `med_${written.mediaSha256}`, mime: 'audio/wav' })).toMatchObject({ status: 'ok', location: 'cold' });
    } finally {
      remote.close();
    }
  });

  it('writes nothing for rows it already has, and only the row that changed', () => {
    const read = storage.replication.readSession(written.sessionId)!;
    mirror.storage.replication.applyRows(read.tables);
    expect(mirror.storage.replication.applyRows(read.tables)).toBe(0);

    storage.sessions.update(written.sessionId, { title: 'Renamed flow' });
    const changed = storage.replication.readSession(written.sessionId)!;
    expect(mirror.storage.replication.applyRows(changed.tables)).toBe(1);
    expect(mirror.storage.sessions.get(written.sessionId)?.title).toBe('Renamed flow');
  });

  it('updates a message in place: its children stay and its media index is rebuilt', () => {
    const read = storage.replication.readSession(written.sessionId)!;
    mirror.storage.replication.applyRows(read.tables);
    const assistant = read.tables.messages.find((message) => message.role === 'assistant' && String(message.parts).includes('med_'))!;
    const textOnly = { ...assistant, parts: JSON.stringify([{ type: 'text', text: 'Listen.' }]) };
    expect(mirror.storage.replication.applyRows({ messages: [textOnly] })).toBe(1);
    expect(mirror.storage.media.listBySession(written.sessionId)).toEqual([]);
    expect(mirror.storage.steps.listBySession(written.sessionId)).toHaveLength(4);
  });

  it('applies parents first whatever order the tables come in', () => {
    const read = storage.replication.readSession(written.sessionId)!;
    const reversed = Object.fromEntries(Object.entries(read.tables).reverse());
    expect(() => mirror.storage.replication.applyRows(reversed)).not.toThrow();
    expect(mirror.storage.replication.readSession(written.sessionId)?.tables).toEqual(read.tables);
  });

  it('refuses a row with a column it does not know, or without one, and writes nothing of the batch', () => {
    const read = storage.replication.readSession(written.sessionId)!;
    const strange = { ...read.tables, steps: [{ ...read.tables.steps[0]!, mood: 'cheerful' }] };
    expect(() => mirror.storage.replication.applyRows(strange)).toThrow('A row for steps has the column mood, which this Sightline does not know.');
    const { cost_dollars: _dropped, ...short } = read.tables.steps[0]!;
    expect(() => mirror.storage.replication.applyRows({ ...read.tables, steps: [short] })).toThrow('A row for steps lacks the column cost_dollars.');
    expect(() => mirror.storage.replication.applyRows({ compactions: [] } as never)).toThrow('compactions is not a replicated table.');
    expect(mirror.storage.sessions.get(written.sessionId)).toBeUndefined();
  });
});

describe('replication marks', () => {
  it('lists the sessions marked dirty, the longest waiting first, until they are shipped', async () => {
    const other = await writeReplicationSession(storage, 'Second');
    expect(storage.replication.pendingSessions()).toEqual([]);
    storage.replication.markDirty(written.sessionId);
    storage.replication.markDirty(other.sessionId);
    storage.replication.markDirty(written.sessionId);
    expect(storage.replication.pendingSessions()).toEqual([written.sessionId, other.sessionId]);

    storage.replication.readSession(written.sessionId);
    storage.replication.markShipped(written.sessionId);
    expect(storage.replication.pendingSessions()).toEqual([other.sessionId]);

    // Dirty again after a shipment: it now waits behind the session that waited first.
    storage.replication.markDirty(written.sessionId);
    expect(storage.replication.pendingSessions()).toEqual([other.sessionId, written.sessionId]);
  });

  it('keeps a session pending when a step landed after the read its shipment carried', () => {
    storage.replication.markDirty(written.sessionId);
    storage.replication.readSession(written.sessionId);
    storage.replication.markDirty(written.sessionId);
    storage.replication.markShipped(written.sessionId);
    expect(storage.replication.pendingSessions()).toEqual([written.sessionId]);

    storage.replication.readSession(written.sessionId);
    storage.replication.markShipped(written.sessionId);
    expect(storage.replication.pendingSessions()).toEqual([]);
  });

  it('keeps the marks across a restart, and drops them with their session', async () => {
    storage.replication.markDirty(written.sessionId);
    storage = source.reopen();
    expect(storage.replication.pendingSessions()).toEqual([written.sessionId]);
    await storage.deleteSession(written.sessionId);
    expect(storage.replication.pendingSessions()).toEqual([]);
  });

  it('refuses to mark a session the home does not have', () => {
    expect(() => storage.replication.markDirty('ses_nope')).toThrow('There is no session ses_nope to replicate.');
    expect(() => storage.replication.markShipped('ses_nope')).not.toThrow();
  });
});

function mergeTables(...all: Array<Record<ReplicatedTable, Row[]>>): Record<ReplicatedTable, Row[]> {
  return Object.fromEntries(REPLICATED_TABLES.map((spec) => [spec.name, all.flatMap((tables) => tables[spec.name])])) as Record<ReplicatedTable, Row[]>;
}
