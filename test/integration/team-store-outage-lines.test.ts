/**
 * The replicator says an outage once and its end once, however the store's failure is worded meanwhile: a
 * PostgreSQL that comes back refuses with "the database system is starting up" between "connection refused" and
 * its first answer, which printed a second "retrying" line (seen in CI). The store here is a stand-in whose
 * failures are scripted, so the order of wordings is certain.
 */
import { afterEach, expect, it } from 'vitest';
import type { Storage } from '../../src/main/storage/index.js';
import { Replicator, type ReplicaBlobs, type ReplicaRows } from '../../src/main/team-store/replicator.js';
import { writeReplicationSession } from '../helpers/replication-session.js';
import { createTemporaryHome, openHomeStorage } from '../helpers/seed.js';

const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function storage(): Storage {
  const home = createTemporaryHome('sightline-outage-lines');
  const opened = openHomeStorage(home);
  cleanups.push(() => home.remove());
  cleanups.push(() => opened.close());
  return opened;
}

const blobs: ReplicaBlobs = { shown: 's3://test-bucket', put: async () => 'uploaded' };

it('says the outage once and its end once, though the refusal changes its words before the store answers', async () => {
  const home = storage();
  const session = await writeReplicationSession(home);
  const failures = [
    'connect ECONNREFUSED 127.0.0.1:5432',
    'connect ECONNREFUSED 127.0.0.1:5432',
    'the database system is starting up',
    'the database system is starting up',
  ];
  let shipped = 0;
  const store: ReplicaRows = {
    shown: 'postgres://127.0.0.1:5432/team',
    ship: async (_sessionId: string, rows: Record<string, readonly unknown[] | undefined>) => {
      shipped += 1;
      const count = Object.values(rows).reduce((sum, tableRows) => sum + (tableRows?.length ?? 0), 0);
      return { rowsWritten: count, statements: 1 };
    },
    markLost: async () => undefined,
    close: async () => undefined,
  } as unknown as ReplicaRows;
  const said: string[] = [];
  const replicator = new Replicator({
    storage: home,
    connect: async () => {
      const failure = failures.shift();
      if (failure !== undefined) throw new Error(failure);
      return store;
    },
    blobs,
    worker: { host: 'worker-host', pid: 1 },
    say: (line) => said.push(line),
    backoff: { firstMs: 1, maxMs: 2 },
  });
  cleanups.push(() => replicator.close());
  replicator.schedule(session.sessionId);
  await expect.poll(() => shipped, { timeout: 20_000 }).toBeGreaterThan(0);
  expect(failures).toEqual([]);
  expect(said.filter((line) => line.includes('retrying'))).toEqual([
    "team store: connect ECONNREFUSED 127.0.0.1:5432; retrying with backoff (the runs wait in this machine's home, nothing is lost)\n",
  ]);
  expect(said.filter((line) => line.includes('reachable again'))).toHaveLength(1);
});
