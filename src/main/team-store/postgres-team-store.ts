/**
 * The team store's rows in PostgreSQL (issue 29): a replicator ships a session's rows here as its steps land,
 * and the readers' mirrors pull every change after the revision they last saw.
 *
 * - Rows are upserted by key; a row equal to the stored one is not rewritten (`IS DISTINCT FROM`), so shipping a
 *   session again costs reads, not writes, and does not wake the mirrors.
 * - Every written row takes a new revision from one sequence, and every writing transaction first takes one
 *   advisory lock (REVISION_LOCK), so writers commit in revision order. Without it a mirror could read revision 11
 *   committed while 10 was still in flight, move its mark past 10 and never see it; with it, whatever a reader's
 *   snapshot holds, it holds every lower revision too. The lock is held for one shipment (a step's rows), short.
 * - Integers come back as JS numbers (BIGINT is parsed with Number, per pool), REAL as DOUBLE PRECISION numbers:
 *   the values better-sqlite3 gives, so a mirror writes back what the worker's home held.
 * - Every failure is a TeamStoreError naming the store by its shown URL; connecting and each statement have a
 *   timeout, so an unreachable server is an error, never a hang.
 */
import pg from 'pg';
import { z } from 'zod';
import { checkedReplicatedRow, REPLICATED_TABLES, type ReplicatedTable, type ReplicatedTableSpec, type Row } from '../storage/index.js';
import { TEAM_MIGRATIONS } from './migrations/index.js';
import type { StoreAddress } from './store-url.js';
import { migrateTeamStore } from './team-schema.js';
import { teamStoreFailure, type FailureContext } from './team-store-error.js';

export { TeamStoreError, type TeamStoreFailure } from './team-store-error.js';

export type TeamSessionState = 'live' | 'complete' | 'lost';

export interface TeamSessionStatus {
  sessionId: string;
  state: TeamSessionState;
  workerHost: string | null;
  workerPid: number | null;
  jobId: string | null;
  detail: string | null;
  updatedAt: string;
}

export interface ShipOptions {
  state: 'live' | 'complete';
  worker: { host: string; pid: number; jobId?: string | undefined };
}

export interface TeamChanges {
  /** The highest revision seen: pass it as `since` next time. */
  revision: number;
  /** Changed rows per table, tables in REPLICATED_TABLES order (parents first), rows in revision order. */
  tables: Partial<Record<ReplicatedTable, Row[]>>;
  states: TeamSessionStatus[];
}

export interface TeamStoreOptions {
  /** How long to wait for a connection (default 10 s). */
  connectTimeoutMs?: number;
  /** How long a statement may run (default 30 s); the client gives up a little later if the server never answers. */
  statementTimeoutMs?: number;
}

const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
const DEFAULT_STATEMENT_TIMEOUT_MS = 30_000;
/** The server cancels a statement first (a clear 57014); the client's own timer is for a server gone silent. */
const CLIENT_GRACE_MS = 5_000;
/** The advisory lock every writer holds while it takes revisions (see the header). */
const REVISION_LOCK = 0x5167_0002;
/** Rows per INSERT: far below PostgreSQL's 65535 parameters with the widest table (19 columns). */
const ROWS_PER_STATEMENT = 500;
const INT8_OID = 20;

/** BIGINT as a JS number, as better-sqlite3 gives INTEGER; everything else as pg parses it. */
const SQLITE_LIKE_TYPES: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === INT8_OID && format !== 'binary' ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format as 'text')) as pg.CustomTypesConfig['getTypeParser'],
};

const ISO_NOW = `to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const ShipOptionsSchema = z.object({
  state: z.enum(['live', 'complete']),
  worker: z.object({ host: z.string().min(1), pid: z.number().int().nonnegative(), jobId: z.string().min(1).optional() }),
});

const StateRow = z
  .object({
    session_id: z.string(),
    state: z.enum(['live', 'complete', 'lost']),
    worker_host: z.string().nullable(),
    worker_pid: z.number().int().nullable(),
    job_id: z.string().nullable(),
    detail: z.string().nullable(),
    updated_at: z.string(),
    revision: z.number().int(),
  })
  .transform((row) => ({
    revision: row.revision,
    status: {
      sessionId: row.session_id,
      state: row.state,
      workerHost: row.worker_host,
      workerPid: row.worker_pid,
      jobId: row.job_id,
      detail: row.detail,
      updatedAt: row.updated_at,
    } satisfies TeamSessionStatus,
  }));

export class PostgresTeamStore {
  readonly shown: string;
  /** The store's own random id (migration 0002): another id under the same URL is another store. */
  identity = '';
  private closed = false;

  private constructor(
    private readonly pool: pg.Pool,
    private readonly context: FailureContext,
  ) {
    this.shown = context.address.shown;
  }

  /** Connects and brings the store's schema up to date; a TeamStoreError when it cannot. */
  static async open(url: StoreAddress, options: TeamStoreOptions = {}): Promise<PostgresTeamStore> {
    const connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    const statementTimeoutMs = options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
    const secrets = [...url.secrets, ...(process.env.PGPASSWORD ? [process.env.PGPASSWORD] : [])];
    const context: FailureContext = { address: { ...url, secrets }, connectTimeoutMs, statementTimeoutMs };
    const pool = new pg.Pool({
      connectionString: url.connectionString,
      connectionTimeoutMillis: connectTimeoutMs,
      statement_timeout: statementTimeoutMs,
      query_timeout: statementTimeoutMs + CLIENT_GRACE_MS,
      idle_in_transaction_session_timeout: statementTimeoutMs + CLIENT_GRACE_MS,
      application_name: 'sightline',
      types: SQLITE_LIKE_TYPES,
      max: 4,
      idleTimeoutMillis: 30_000,
      // A worker's pool must not keep its process alive once the work is done.
      allowExitOnIdle: true,
    });
    // An idle connection the server drops (a restart, a failover) is reported here; the next statement opens a
    // new one and fails clearly if the server is still gone. Unheard, the event would end the process.
    pool.on('error', () => undefined);
    // A connection in use reports its loss to its statement, and as an event too: hear that one as well.
    pool.on('connect', (client) => client.on('error', () => undefined));
    const store = new PostgresTeamStore(pool, context);
    try {
      await store.withClient(async (client) => {
        await migrateTeamStore(client, TEAM_MIGRATIONS, url.shown);
        const identity = await client.query<{ id: string }>('SELECT id FROM team_store_identity LIMIT 1');
        store.identity = identity.rows[0]?.id ?? '';
      });
    } catch (error) {
      await pool.end().catch(() => undefined);
      throw teamStoreFailure(error, context);
    }
    return store;
  }

  /**
   * Upserts the rows (parents first) and the session's state row in ONE transaction. A row equal to the stored
   * one is not rewritten; every written row gets a new revision. `rowsWritten` counts the replicated rows written
   * (not the state row); `statements` the upserts sent, the state's included. A complete session stays complete.
   */
  async ship(
    sessionId: string,
    rows: Partial<Record<ReplicatedTable, Row[]>>,
    options: ShipOptions,
  ): Promise<{ rowsWritten: number; statements: number }> {
    const { state, worker } = ShipOptionsSchema.parse(options);
    const batches = batchesOf(sessionId, rows);
    return this.writing(async (client) => {
      let rowsWritten = 0;
      let statements = 0;
      for (const { spec, chunk } of batches) {
        const result = await client.query(upsertSql(spec, chunk.length), chunk.flatMap((row) => spec.columns.map((column) => row[column] ?? null)));
        rowsWritten += result.rowCount ?? 0;
        statements += 1;
      }
      await client.query(
        `INSERT INTO team_session_states (session_id, state, worker_host, worker_pid, job_id, detail, updated_at, revision)
         VALUES ($1, $2, $3, $4, $5, NULL, ${ISO_NOW}, nextval('team_revision'))
         ON CONFLICT (session_id) DO UPDATE SET
           state = EXCLUDED.state, worker_host = EXCLUDED.worker_host, worker_pid = EXCLUDED.worker_pid,
           job_id = EXCLUDED.job_id, detail = NULL, updated_at = EXCLUDED.updated_at, revision = EXCLUDED.revision
         WHERE team_session_states.state <> 'complete'
           AND (team_session_states.state, team_session_states.worker_host, team_session_states.worker_pid,
                team_session_states.job_id, team_session_states.detail)
               IS DISTINCT FROM (EXCLUDED.state, EXCLUDED.worker_host, EXCLUDED.worker_pid, EXCLUDED.job_id, NULL::text)`,
        [sessionId, state, worker.host, worker.pid, worker.jobId ?? null],
      );
      statements += 1;
      return { rowsWritten, statements };
    });
  }

  /**
   * Marks a session lost unless it is complete (a session never shipped gets a state row saying so); true when
   * that changed anything. The new revision lets the mirrors see it.
   */
  async markLost(sessionId: string, detail: string): Promise<boolean> {
    z.string().min(1).parse(sessionId);
    return this.writing(async (client) => {
      const result = await client.query(
        `INSERT INTO team_session_states (session_id, state, detail, updated_at, revision)
         VALUES ($1, 'lost', $2, ${ISO_NOW}, nextval('team_revision'))
         ON CONFLICT (session_id) DO UPDATE SET
           state = 'lost', detail = EXCLUDED.detail, updated_at = EXCLUDED.updated_at, revision = EXCLUDED.revision
         WHERE team_session_states.state <> 'complete'
           AND (team_session_states.state, team_session_states.detail) IS DISTINCT FROM ('lost', EXCLUDED.detail)`,
        [sessionId, detail],
      );
      return (result.rowCount ?? 0) > 0;
    });
  }

  /**
   * Rows and states written after revision `since`, from one snapshot, and the highest revision seen. Tables
   * come parents first (REPLICATED_TABLES order), so a mirror that applies them in order satisfies its keys.
   */
  async changesSince(since: number): Promise<TeamChanges> {
    z.number().int().nonnegative().parse(since);
    return this.withClient(async (client) => {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      let revision = since;
      const tables: Partial<Record<ReplicatedTable, Row[]>> = {};
      for (const spec of REPLICATED_TABLES) {
        const result = await client.query<Row & { revision: number }>(
          `SELECT ${spec.columns.join(', ')}, revision FROM ${spec.name} WHERE revision > $1 ORDER BY revision`,
          [since],
        );
        if (result.rows.length === 0) continue;
        tables[spec.name] = result.rows.map(({ revision: rowRevision, ...row }) => {
          revision = Math.max(revision, rowRevision);
          return row;
        });
      }
      const stateResult = await client.query(
        'SELECT session_id, state, worker_host, worker_pid, job_id, detail, updated_at, revision FROM team_session_states WHERE revision > $1 ORDER BY revision',
        [since],
      );
      const states = z.array(StateRow).parse(stateResult.rows).map((row) => {
        revision = Math.max(revision, row.revision);
        return row.status;
      });
      await client.query('COMMIT');
      return { revision, tables, states };
    });
  }

  /**
   * What changed since `since`, handed over a batch of sessions at a time so a mirror's first pull of a large store
   * never holds it all in memory: every batch has all the changed rows of its sessions (parents with their children,
   * which a mirror needs to apply each batch alone). One REPEATABLE READ snapshot covers every batch, so a row
   * rewritten during the pull (a higher revision) is neither half seen nor skipped: it comes at the next pull.
   * Resolves with the revision to pull from next time; `onBatch` runs in order, each awaited.
   *
   * A session named in `whole` (one the mirror skipped for a bad row) comes with all its rows, not only those after
   * `since`, when it has changed: the mirror never took its older rows, and a later good revision must give it all.
   */
  async pullInBatches(
    since: number,
    onBatch: (batch: Omit<TeamChanges, 'revision'>) => Promise<void> | void,
    options: { sessionsPerBatch?: number; whole?: readonly string[] } = {},
  ): Promise<number> {
    z.number().int().nonnegative().parse(since);
    const perBatch = options.sessionsPerBatch ?? 200;
    const whole = z.array(z.string()).parse(options.whole ?? []);
    return this.withClient(async (client) => {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const tables = [...REPLICATED_TABLES.map((spec) => spec.name), 'team_session_states'];
      const highest = await client.query<{ revision: number | null }>(`SELECT GREATEST(${tables.map((name) => `(SELECT max(revision) FROM ${name})`).join(', ')}) AS revision`);
      const revision = Math.max(since, Number(highest.rows[0]?.revision ?? since));
      const changed = await client.query<{ session_id: string }>(
        `SELECT DISTINCT session_id FROM (${tables.map((name) => `SELECT ${name === 'sessions' ? 'id' : 'session_id'} AS session_id FROM ${name} WHERE revision > $1`).join(' UNION ALL ')}) AS changed ORDER BY session_id`,
        [since],
      );
      const sessionIds = changed.rows.map((row) => row.session_id);
      for (let start = 0; start < sessionIds.length; start += perBatch) {
        const batch = sessionIds.slice(start, start + perBatch);
        const rows: Partial<Record<ReplicatedTable, Row[]>> = {};
        for (const spec of REPLICATED_TABLES) {
          const result = await client.query<Row & { revision: number }>(
            `SELECT ${spec.columns.join(', ')}, revision FROM ${spec.name} WHERE ${spec.name === 'sessions' ? 'id' : 'session_id'} = ANY($2) AND (revision > $1 OR ${spec.name === 'sessions' ? 'id' : 'session_id'} = ANY($3)) ORDER BY revision`,
            [since, batch, whole],
          );
          if (result.rows.length > 0) rows[spec.name] = result.rows.map(({ revision: _revision, ...row }) => row);
        }
        const stateResult = await client.query(
          'SELECT session_id, state, worker_host, worker_pid, job_id, detail, updated_at, revision FROM team_session_states WHERE session_id = ANY($2) AND (revision > $1 OR session_id = ANY($3)) ORDER BY revision',
          [since, batch, whole],
        );
        await onBatch({ tables: rows, states: z.array(StateRow).parse(stateResult.rows).map((row) => row.status) });
      }
      await client.query('COMMIT');
      return revision;
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }

  /** A transaction that takes revisions: under REVISION_LOCK, so writers commit in revision order. */
  private async writing<Result>(work: (client: pg.PoolClient) => Promise<Result>): Promise<Result> {
    return this.withClient(async (client) => {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock($1)', [REVISION_LOCK]);
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    });
  }

  /**
   * A pooled connection for `work`. After a failure the connection is dropped, not reused: its state is unknown
   * (a statement may still run after a client timeout), and closing it rolls back whatever transaction it held.
   */
  private async withClient<Result>(work: (client: pg.PoolClient) => Promise<Result>): Promise<Result> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw teamStoreFailure(error, this.context);
    }
    try {
      const result = await work(client);
      client.release();
      return result;
    } catch (error) {
      client.release(true);
      throw teamStoreFailure(error, this.context);
    }
  }
}

interface Batch {
  spec: ReplicatedTableSpec;
  chunk: Row[];
}

/** The shipment's rows checked (columns, values, their session), one per key, in statements of bounded size. */
function batchesOf(sessionId: string, rows: Partial<Record<ReplicatedTable, Row[]>>): Batch[] {
  z.string().min(1).parse(sessionId);
  for (const table of Object.keys(rows)) {
    if (!REPLICATED_TABLES.some((spec) => spec.name === table)) throw new Error(`${table} is not a replicated table.`);
  }
  const batches: Batch[] = [];
  for (const spec of REPLICATED_TABLES) {
    const byKey = new Map<RowKey, Row>();
    for (const row of rows[spec.name] ?? []) {
      checkedReplicatedRow(spec, row);
      const owner = spec.name === 'sessions' ? row.id : row.session_id;
      if (owner !== sessionId) throw new Error(`A row of ${spec.name} shipped with session ${sessionId} belongs to ${String(owner)}.`);
      // One statement cannot update a row twice: the last version of a row wins, as it would in SQLite.
      byKey.set(row[spec.key] ?? null, row);
    }
    const unique = [...byKey.values()];
    for (let start = 0; start < unique.length; start += ROWS_PER_STATEMENT) {
      batches.push({ spec, chunk: unique.slice(start, start + ROWS_PER_STATEMENT) });
    }
  }
  return batches;
}

type RowKey = string | number | null;

/** A multi-row upsert that rewrites (and renumbers) only the rows that differ from the stored ones. */
function upsertSql(spec: ReplicatedTableSpec, rowCount: number): string {
  const width = spec.columns.length;
  const values = Array.from(
    { length: rowCount },
    (_, row) => `(${spec.columns.map((_column, column) => `$${row * width + column + 1}`).join(', ')}, nextval('team_revision'))`,
  );
  const others = spec.columns.filter((column) => column !== spec.key);
  return `INSERT INTO ${spec.name} (${spec.columns.join(', ')}, revision) VALUES ${values.join(', ')}
    ON CONFLICT (${spec.key}) DO UPDATE SET ${others.map((column) => `${column} = EXCLUDED.${column}`).join(', ')}, revision = EXCLUDED.revision
    WHERE (${others.map((column) => `${spec.name}.${column}`).join(', ')}) IS DISTINCT FROM (${others.map((column) => `EXCLUDED.${column}`).join(', ')})`;
}
