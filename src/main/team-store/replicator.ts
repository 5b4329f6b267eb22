/**
 * Ships a worker's runs to the team store as their steps land: each run keeps writing to this machine's SQLite home
 * (fast, crash-safe, unchanged), and the replicator copies a session's pixels to S3 and then its rows to PostgreSQL.
 *
 * - Pixels first, rows second: a row in the store always has its pixels there. An object's key is its content hash,
 *   so shipping one twice is harmless, and a blob shipped once is never looked at again.
 * - Rows are upserted by id, and only those that changed since they were last shipped are sent (a fingerprint per
 *   row, kept in memory; a replicator that starts afresh sends each row once more and the store skips equal ones).
 * - A session is marked dirty in the home before a shipment and shipped after it: a worker that dies between the
 *   two finds it dirty at its next start and ships it then, so its last steps reach the store late, never silently
 *   not at all. Runs whose worker never comes back are marked lost by the worker that runs their job again.
 * - The store unreachable or refusing: the replicator says so once, retries with backoff, and says when it is back.
 *   The run goes on meanwhile; nothing is lost, since the home holds everything.
 *
 * Shipments of one session never overlap (its own chain), and a burst of steps during one shipment makes one more,
 * not one per step (a generation count).
 */
import { createHash } from 'node:crypto';
import { REPLICATED_TABLES, type ReplicatedTable, type Row, type Storage } from '../storage/index.js';
import type { PostgresTeamStore } from './postgres-team-store.js';
import type { S3TeamBlobs } from './s3-team-blobs.js';

/** The parts of the team store the replicator uses (the real clients in use; tests may count calls). */
export type ReplicaRows = Pick<PostgresTeamStore, 'ship' | 'markLost' | 'close' | 'shown'>;
export type ReplicaBlobs = Pick<S3TeamBlobs, 'put' | 'shown'>;

export interface ReplicatorOptions {
  /** This machine's home: where the runs write, and where the dirty marks are kept. */
  storage: Storage;
  /** Opens the store (connects, migrates); called again after a failure. */
  connect(): Promise<ReplicaRows>;
  blobs: ReplicaBlobs;
  worker: { host: string; pid: number };
  say(line: string): void;
  /** The wait after the first failure, doubled per failure up to maxMs. */
  backoff?: { firstMs: number; maxMs: number };
  /** How long `settle` waits for a run's last shipment before the job's result goes on without it (not at all while the store fails). */
  settleMs?: number;
}

/** Blobs larger than this are streamed from their file; smaller ones are read, checked against their hash, and sent whole. */
const STREAM_FROM_BYTES = 8 * 1024 * 1024;
const DEFAULT_BACKOFF = { firstMs: 1_000, maxMs: 30_000 };
const DEFAULT_SETTLE_MS = 60_000;
/** Each replicated table's primary key column, as storage names it: what a row's fingerprint is kept under. */
const KEY_OF = Object.fromEntries(REPLICATED_TABLES.map((spec) => [spec.name, spec.key])) as Record<ReplicatedTable, string>;

interface Tracked {
  jobId: string | undefined;
  /** Bumped by every change; a shipment covers the generation it read. */
  generation: number;
  shipped: number;
  /** The run has ended: its next shipment marks it complete. */
  ended: boolean;
  shippedComplete: boolean;
  /** The home's dirty mark is set (cleared once the session is shipped whole). */
  dirty: boolean;
  fingerprints: Map<string, string>;
  chain: Promise<void> | undefined;
  /** settle() calls waiting for the complete shipment: told true when it is done, false when the replicator closes first. */
  waiters: Array<(shipped: boolean) => void>;
}

export interface ReplicationCounts {
  shipments: number;
  rowsSent: number;
  rowsWritten: number;
  statements: number;
  blobsUploaded: number;
  blobsPresent: number;
}

export class Replicator {
  private readonly sessions = new Map<string, Tracked>();
  private readonly shippedBlobs = new Set<string>();
  private readonly lostToMark = new Map<string, string>();
  private store: Promise<ReplicaRows> | undefined;
  private failing: string | undefined;
  private failures = 0;
  private closed = false;
  private readonly timers = new Set<{ timer: NodeJS.Timeout; wake: () => void }>();
  readonly counts: ReplicationCounts = { shipments: 0, rowsSent: 0, rowsWritten: 0, statements: 0, blobsUploaded: 0, blobsPresent: 0 };

  constructor(private readonly options: ReplicatorOptions) {}

  /** Ships the sessions an earlier worker on this home left dirty (it died, or the store was down when it stopped). */
  resumePending(): number {
    const pending = this.options.storage.replication.pendingSessions();
    for (const sessionId of pending) {
      const tracked = this.track(sessionId, undefined);
      tracked.ended = true;
      this.changed(sessionId, tracked);
    }
    return pending.length;
  }

  /** A step, screenshot or turn of the session landed in the home: ship it soon. */
  schedule(sessionId: string, jobId?: string): void {
    if (this.closed) return;
    this.changed(sessionId, this.track(sessionId, jobId));
  }

  /**
   * The session's run ended: ship what is left and mark it complete, waiting up to `settleMs`. Resolves false when
   * the store did not take it in time; it is then shipped in the background, or by this home's next worker.
   */
  async settle(sessionId: string, jobId?: string): Promise<boolean> {
    const tracked = this.track(sessionId, jobId);
    tracked.ended = true;
    this.changed(sessionId, tracked);
    let timer: NodeJS.Timeout | undefined;
    // A store known to be failing is not waited for: every job would lose settleMs to an outage it cannot end.
    const inTime =
      this.failing === undefined &&
      (await Promise.race([
        new Promise<boolean>((resolve) => tracked.waiters.push(resolve)),
        new Promise<boolean>((resolve) => {
          timer = setTimeout(() => resolve(false), this.options.settleMs ?? DEFAULT_SETTLE_MS);
        }),
      ]));
    clearTimeout(timer);
    if (!inTime) {
      this.options.say(
        `team store: session ${sessionId} is not all in the team store yet (${this.failing ?? 'still shipping'}); it stays in this machine's home and is shipped when the store answers\n`,
      );
    }
    return inTime;
  }

  /** A run of a job whose worker died: marked lost in the store unless its home was shipped whole since. */
  lost(sessionId: string, detail: string): void {
    if (this.closed) return;
    this.lostToMark.set(sessionId, detail);
    void this.markLostRuns();
  }

  /** Stops retrying; shipments under way finish first. Dirty sessions stay marked for the home's next worker. */
  async close(): Promise<void> {
    this.closed = true;
    for (const tracked of this.sessions.values()) for (const wake of tracked.waiters.splice(0)) wake(false);
    for (const { timer, wake } of this.timers) {
      clearTimeout(timer);
      wake();
    }
    await Promise.all([...this.sessions.values()].map((tracked) => tracked.chain?.catch(() => undefined)));
    const store = await this.store?.catch(() => undefined);
    await store?.close().catch(() => undefined);
  }

  private track(sessionId: string, jobId: string | undefined): Tracked {
    let tracked = this.sessions.get(sessionId);
    if (tracked === undefined) {
      tracked = { jobId, generation: 0, shipped: 0, ended: false, shippedComplete: false, dirty: false, fingerprints: new Map(), chain: undefined, waiters: [] };
      this.sessions.set(sessionId, tracked);
    }
    if (jobId !== undefined) tracked.jobId = jobId;
    return tracked;
  }

  private changed(sessionId: string, tracked: Tracked): void {
    tracked.generation += 1;
    if (!tracked.dirty) {
      this.options.storage.replication.markDirty(sessionId);
      tracked.dirty = true;
    }
    this.kick(sessionId, tracked);
  }

  private kick(sessionId: string, tracked: Tracked): void {
    if (tracked.chain !== undefined || this.closed) return;
    tracked.chain = this.shipUntilCurrent(sessionId, tracked).finally(() => {
      tracked.chain = undefined;
      // A change that came after the loop's last look and before this line would otherwise wait for the next one.
      if (hasWork(tracked)) this.kick(sessionId, tracked);
    });
  }

  private async shipUntilCurrent(sessionId: string, tracked: Tracked): Promise<void> {
    while (!this.closed && hasWork(tracked)) {
      const generation = tracked.generation;
      const complete = tracked.ended;
      try {
        await this.shipOnce(sessionId, tracked, complete);
        tracked.shipped = generation;
        if (complete) tracked.shippedComplete = true;
        this.recovered();
      } catch (error) {
        await this.failed(error);
      }
    }
    if (tracked.shipped === tracked.generation && tracked.shippedComplete) {
      this.options.storage.replication.markShipped(sessionId);
      tracked.dirty = false;
      for (const wake of tracked.waiters.splice(0)) wake(true);
    }
  }

  private async shipOnce(sessionId: string, tracked: Tracked, complete: boolean): Promise<void> {
    const rows = this.options.storage.replication.readSession(sessionId);
    if (rows === undefined) return; // deleted from the home since: nothing left to ship
    for (const blob of rows.blobs) {
      if (this.shippedBlobs.has(blob.sha256)) continue;
      const outcome = await this.shipBlob(blob);
      if (outcome === undefined) continue;
      this.shippedBlobs.add(blob.sha256);
      if (outcome === 'uploaded') this.counts.blobsUploaded += 1;
      else this.counts.blobsPresent += 1;
    }
    const changed: Partial<Record<ReplicatedTable, Row[]>> = {};
    const fingerprints = new Map<string, string>();
    let sent = 0;
    for (const [table, tableRows] of Object.entries(rows.tables) as Array<[ReplicatedTable, Row[]]>) {
      for (const row of tableRows) {
        const key = `${table}:${String(row[KEY_OF[table]])}`;
        const fingerprint = createHash('sha256').update(JSON.stringify(row)).digest('base64');
        if (tracked.fingerprints.get(key) === fingerprint) continue;
        fingerprints.set(key, fingerprint);
        (changed[table] ??= []).push(row);
        sent += 1;
      }
    }
    const store = await this.connected();
    const result = await store.ship(sessionId, changed, {
      state: complete ? 'complete' : 'live',
      worker: { host: this.options.worker.host, pid: this.options.worker.pid, jobId: tracked.jobId },
    });
    for (const [key, fingerprint] of fingerprints) tracked.fingerprints.set(key, fingerprint);
    this.counts.shipments += 1;
    this.counts.rowsSent += sent;
    this.counts.rowsWritten += result.rowsWritten;
    this.counts.statements += result.statements;
  }

  /** undefined: the home no longer has the pixels (purged by retention), so there is nothing to send. */
  private async shipBlob(blob: { sha256: string; mime: string; byteSize: number }): Promise<'uploaded' | 'present' | undefined> {
    const { blobs } = this.options.storage;
    if (blob.byteSize >= STREAM_FROM_BYTES) {
      const location = await blobs.locate(blob.sha256, blob.mime);
      if (location === undefined) return undefined;
      return this.options.blobs.put(blob, { path: blobs.pathFor(location, blob.sha256, blob.mime) });
    }
    const read = await blobs.read(blob.sha256, blob.mime);
    if (read.status !== 'ok') {
      // A damaged file is not sent: the store would keep bytes that do not match their name.
      if (read.reason === 'corrupt') this.options.say(`team store: not shipping ${blob.sha256.slice(0, 12)}…: ${read.message}\n`);
      return undefined;
    }
    return this.options.blobs.put(blob, { bytes: read.bytes });
  }

  private async markLostRuns(): Promise<void> {
    for (const [sessionId, detail] of [...this.lostToMark]) {
      try {
        const store = await this.connected();
        await store.markLost(sessionId, detail);
        this.lostToMark.delete(sessionId);
        this.recovered();
      } catch (error) {
        await this.failed(error);
        if (!this.closed) void this.markLostRuns();
        return;
      }
    }
  }

  private connected(): Promise<ReplicaRows> {
    this.store ??= this.options.connect().catch((error: unknown) => {
      this.store = undefined;
      throw error;
    });
    return this.store;
  }

  private async failed(error: unknown): Promise<void> {
    const message = error instanceof Error ? error.message : String(error);
    // Once per outage, not once per wording: a PostgreSQL coming back answers "starting up" before it answers.
    if (this.failing === undefined) {
      this.options.say(`team store: ${message}; retrying with backoff (the runs wait in this machine's home, nothing is lost)\n`);
    }
    this.failing = message;
    // Jobs waiting for their sessions go on: the store will not take them before the next try at the earliest.
    for (const tracked of this.sessions.values()) for (const wake of tracked.waiters.splice(0)) wake(false);
    const { firstMs, maxMs } = this.options.backoff ?? DEFAULT_BACKOFF;
    const wait = Math.min(maxMs, firstMs * 2 ** Math.min(this.failures, 16));
    this.failures += 1;
    await this.sleep(wait);
  }

  private recovered(): void {
    if (this.failing !== undefined) this.options.say('team store: reachable again; shipping what waited\n');
    this.failing = undefined;
    this.failures = 0;
  }

  private sleep(ms: number): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      const entry = {
        timer: setTimeout(() => {
          this.timers.delete(entry);
          resolve();
        }, ms),
        wake: resolve,
      };
      entry.timer.unref();
      this.timers.add(entry);
    });
  }
}

function hasWork(tracked: Tracked): boolean {
  return tracked.shipped < tracked.generation || (tracked.ended && !tracked.shippedComplete);
}
