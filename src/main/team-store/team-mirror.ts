/**
 * The readers' side of the team store: a local, read-only mirror of it, so `sessions`, `report` and `timeline` read
 * the team's sessions with the same code that reads a home. A mirror is a SQLite home of its own (under the reader's
 * home, one per store), filled by pulling the rows whose revision is newer than the last pull, a batch of sessions at
 * a time, with pixels fetched from S3 only when something shows them (the blob store's remote fallback keeps each in
 * the mirror's cold-storage/ once fetched, checked against its hash).
 *
 * Nothing writes to a mirror but the pull: it is never opened through the startup repairs (the turns in it belong to
 * other machines' processes), and the timeline serves it read-only. A session the store marks lost (its worker died
 * and never shipped the rest) has its running turn shown as stopped, with the reason in the session's store state.
 *
 * The store's rows are not trusted: whoever can write to the store can write any row. A session with a row the
 * mirror's SQLite refuses is skipped whole (storage's applySessions), said once with the reason, and kept in the
 * pull mark; the rest is read and the mirror pulls on. When that session changes again (a worker ships it anew), all
 * of its rows are pulled, not only the new ones, so a good later revision gives the whole session.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { openStorage, type SkippedSession, type Storage } from '../storage/index.js';
import type { PostgresTeamStore, TeamSessionStatus } from './postgres-team-store.js';
import type { S3TeamBlobs } from './s3-team-blobs.js';

export type MirrorRows = Pick<PostgresTeamStore, 'pullInBatches' | 'close' | 'shown' | 'identity'>;
export type MirrorBlobs = Pick<S3TeamBlobs, 'get' | 'shown'>;

export interface TeamMirrorOptions {
  /** The reader's home folder; the mirror lives in `team-mirrors/<id>/` under it. */
  homeRoot: string;
  rows: MirrorRows;
  blobs: MirrorBlobs;
}

export interface PullResult {
  /** Sessions with new or changed rows (or a changed store state) since the last pull, the skipped ones aside. */
  sessionIds: string[];
  rows: number;
  /** Sessions this pull skipped for a row the mirror refused: each is said once, when it is skipped. */
  skipped: SkippedSession[];
}

export interface TeamMirror {
  /** The mirror's storage: read it as a home's; only `pull` writes to it. */
  storage: Storage;
  /** Where the mirror is (for messages). */
  folder: string;
  pull(): Promise<PullResult>;
  /** Every session the mirror lacks (or holds an older version of) for a row it refused, with the reason. */
  skipped(): SkippedSession[];
  close(): Promise<void>;
}

const SkippedSchema = z.object({ sessionId: z.string(), problem: z.string() });
const MarkSchema = z.object({
  revision: z.number().int().min(0),
  store: z.string(),
  identity: z.string().optional(),
  skipped: z.array(SkippedSchema).default([]),
});

export function mirrorFolder(homeRoot: string, rows: Pick<MirrorRows, 'shown'>, blobs: Pick<MirrorBlobs, 'shown'>): string {
  // The shown forms carry no credentials; two stores (or one store with another bucket) never share a mirror.
  const id = createHash('sha256').update(`${rows.shown}\n${blobs.shown}`).digest('hex').slice(0, 16);
  return join(homeRoot, 'team-mirrors', id);
}

/** Where the last pull left off, or undefined before the first pull (or for a mark that cannot be read). */
function readMark(markFile: string): z.infer<typeof MarkSchema> | undefined {
  try {
    return MarkSchema.parse(JSON.parse(readFileSync(markFile, 'utf8')));
  } catch {
    return undefined;
  }
}

export function openTeamMirror(options: TeamMirrorOptions): TeamMirror {
  const folder = mirrorFolder(options.homeRoot, options.rows, options.blobs);
  const markFile = join(folder, 'pulled.json');
  const mark = readMark(markFile);
  // A mirror of another store under the same URL (dropped and made again) would wait for revisions past its old
  // mark and keep what the new store lacks: it starts over. Pixels may stay: they are named by their hashes.
  const sameStore = mark?.store === options.rows.shown && mark.identity === options.rows.identity;
  if (!sameStore) {
    for (const file of ['sightline.db', 'sightline.db-wal', 'sightline.db-shm', 'pulled.json']) rmSync(join(folder, file), { force: true });
  }
  // Only this mirror's pulls move it on, so after this first read it is kept here rather than read again per pull.
  let pulledTo = sameStore ? mark.revision : 0;
  // Sessions skipped for a refused row, by id: pulled whole when they change again, until one applies.
  const skipped = new Map<string, string>(sameStore ? mark.skipped.map((entry) => [entry.sessionId, entry.problem]) : []);
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const storage = openStorage({
    databaseFile: join(folder, 'sightline.db'),
    blobsDirectory: join(folder, 'blobs'),
    coldStorageDirectory: join(folder, 'cold-storage'),
    remoteBlobs: { fetch: (sha256, mime) => options.blobs.get(sha256, mime) },
  });
  // The store's state of the sessions this process pulled: a lost one's turn is ended when its rows come.
  const states = new Map<string, TeamSessionStatus>();
  let pulling: Promise<PullResult> | undefined;

  const pullOnce = async (): Promise<PullResult> => {
    const sessionIds = new Set<string>();
    const newlySkipped: SkippedSession[] = [];
    let applied = 0;
    // A batch of whole sessions at a time: the first pull of a large store is never all in memory at once.
    const revision = await options.rows.pullInBatches(
      pulledTo,
      (batch) => {
        const result = storage.replication.applySessions(batch.tables);
        applied += result.written;
        for (const sessionId of result.applied) skipped.delete(sessionId);
        for (const entry of result.skipped) {
          skipped.set(entry.sessionId, entry.problem);
          newlySkipped.push(entry);
        }
        const changed = new Set<string>(result.applied);
        for (const status of batch.states) {
          states.set(status.sessionId, status);
          if (!skipped.has(status.sessionId)) changed.add(status.sessionId);
        }
        for (const sessionId of changed) sessionIds.add(sessionId);
        // A lost run's worker died and its last steps never came: the turn it was running will not end by itself.
        const lost = [...changed].filter((sessionId) => states.get(sessionId)?.state === 'lost');
        if (lost.length === 0) return;
        for (const turn of storage.turns.listRunning()) if (lost.includes(turn.sessionId)) storage.endAbandonedTurn(turn);
      },
      { whole: [...skipped.keys()] },
    );
    const temporary = `${markFile}.${process.pid}.tmp`;
    const kept = [...skipped].map(([sessionId, problem]) => ({ sessionId, problem }));
    writeFileSync(temporary, JSON.stringify({ revision, store: options.rows.shown, identity: options.rows.identity, skipped: kept }), { mode: 0o600 });
    renameSync(temporary, markFile);
    pulledTo = revision;
    return { sessionIds: [...sessionIds], rows: applied, skipped: newlySkipped };
  };

  return {
    storage,
    folder,
    // One pull at a time: the timeline's timer and a reader's request may ask together.
    pull: () => {
      pulling ??= pullOnce().finally(() => {
        pulling = undefined;
      });
      return pulling;
    },
    skipped: () => [...skipped].map(([sessionId, problem]) => ({ sessionId, problem })),
    close: async () => {
      await pulling?.catch(() => undefined);
      storage.close();
      await options.rows.close();
    },
  };
}
