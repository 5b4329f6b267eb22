/**
 * The storage side of the team store (issue 29): a session's rows as the team store takes them, the mirror's
 * import of rows it pulled back, and the marks that say which sessions a replicator must still ship.
 *
 * Rows travel as better-sqlite3 gives them (snake_case columns, TEXT, INTEGER as numbers, REAL, NULL), so the
 * PostgreSQL side stores the same values and a mirror writes them back unchanged. Not replicated:
 * `generated_media` (its triggers rebuild it from the messages a mirror writes), `compactions` (a journal of
 * this home's work in progress) and `replication_marks` (this home's own bookkeeping).
 */
import { statSync } from 'node:fs';
import { z } from 'zod';
import { sha256OfGeneratedMedia } from '../../shared/generated-media.js';
import type { BlobStore } from './blob-store.js';
import type { Database } from './database.js';
import { parseRows } from './repositories/columns.js';
import { isoTime, type Clock } from './time.js';

export type ReplicatedTable =
  | 'sessions'
  | 'turns'
  | 'messages'
  | 'images'
  | 'image_pins'
  | 'steps'
  | 'search_reports'
  | 'injections';

/** Exactly what better-sqlite3 returns for the replicated tables (none holds a BLOB). */
export type RowValue = string | number | null;
export type Row = Record<string, RowValue>;

export interface ReplicatedTableSpec {
  name: ReplicatedTable;
  /** The primary key: 'id', or 'image_id' for image_pins. */
  key: string;
  /** Every column, in the table's order (`PRAGMA table_info`); a unit test holds it to the schema. */
  columns: readonly string[];
}

/** In foreign-key order: a table comes after every table it references, so rows applied in this order land. */
export const REPLICATED_TABLES: readonly ReplicatedTableSpec[] = [
  {
    name: 'sessions',
    key: 'id',
    columns: ['id', 'title', 'status', 'operator', 'model', 'created_at', 'updated_at', 'flow_name'],
  },
  {
    name: 'turns',
    key: 'id',
    columns: [
      'id',
      'session_id',
      'sequence',
      'user_request',
      'status',
      'started_at',
      'ended_at',
      'compacted_at',
      'summary',
      'owner_pid',
      'owner_host',
      'step_kind',
      'answer',
      'replay_key',
      'replay',
      'allowed_failure',
    ],
  },
  {
    name: 'messages',
    key: 'id',
    columns: [
      'id',
      'session_id',
      'turn_id',
      'sequence',
      'role',
      'parts',
      'tool_calls',
      'tool_call_id',
      'tool_name',
      'is_error',
      'is_compressed',
      'created_at',
      'provider_data',
    ],
  },
  {
    name: 'images',
    key: 'id',
    columns: [
      'id',
      'session_id',
      'turn_id',
      'sha256',
      'phash',
      'hash_algorithm',
      'width',
      'height',
      'mime',
      'byte_size',
      'zone',
      'is_error_frame',
      'source',
      'display_id',
      'scale_factor',
      'caption',
      'created_at',
      'offloaded_at',
      'purged_at',
    ],
  },
  { name: 'image_pins', key: 'image_id', columns: ['image_id', 'session_id', 'pinned_at'] },
  {
    name: 'steps',
    key: 'id',
    columns: [
      'id',
      'session_id',
      'turn_id',
      'sequence',
      'action',
      'thought',
      'screenshot_image_id',
      'dedup_of_image_id',
      'result',
      'error',
      'latency_ms',
      'input_tokens',
      'output_tokens',
      'token_report',
      'created_at',
      'screenshot_view',
      'cached_input_tokens',
      'cache_write_input_tokens',
      'cost_dollars',
    ],
  },
  {
    name: 'search_reports',
    key: 'id',
    columns: [
      'id',
      'session_id',
      'turn_id',
      'question',
      'queries',
      'sources',
      'answer',
      'confidence',
      'iterations',
      'duration_ms',
      'created_at',
    ],
  },
  { name: 'injections', key: 'id', columns: ['id', 'session_id', 'turn_id', 'type', 'content_length', 'created_at'] },
];

/** Pixels a session's rows name, by content address. */
export interface BlobRef {
  sha256: string;
  mime: string;
  byteSize: number;
}

export interface SessionRows {
  sessionId: string;
  /** Every row of the session in each table. */
  tables: Record<ReplicatedTable, Row[]>;
  /** Pixels the rows name and the home still has: images not purged (hot or cold), and generated media (med_<sha>). */
  blobs: BlobRef[];
}

/** A session a mirror did not apply, and why, in words that hold no value of its rows. */
export interface SkippedSession {
  sessionId: string;
  problem: string;
}

export interface AppliedSessions {
  /** Rows written (a row already as given is not counted). */
  written: number;
  /** The sessions whose rows all landed. */
  applied: string[];
  /** The sessions none of whose rows landed, because one of them could not. */
  skipped: SkippedSession[];
}

const MarkRow = z.object({ dirty_mark: z.number().int() });
/** How much of a row's key or a reason a problem quotes: enough to find the row, not a page of someone's text. */
const QUOTED_LENGTH = 120;
const ImageBlobRow = z.object({ sha256: z.string(), mime: z.string(), byte_size: z.number().int().nonnegative() });
const MediaBlobRow = z.object({ media_id: z.string(), mime: z.string() });

export class ReplicationRepository {
  private readonly sessionStatement;
  private readonly rowsStatements;
  private readonly upsertStatements;
  private readonly imageBlobsStatement;
  private readonly mediaBlobsStatement;
  private readonly markStatement;
  private readonly markDirtyStatement;
  private readonly markShippedStatement;
  private readonly pendingStatement;
  private readonly readSnapshot;
  private readonly applyTransaction;
  private readonly applySessionsTransaction;
  private readonly applySessionSavepoint;
  /**
   * The mark each session had when readSession last read it here: markShipped covers that mark, not a later
   * one, so a step that landed after the read keeps its session pending until the next shipment carries it.
   */
  private readonly marksRead = new Map<string, number>();

  constructor(
    database: Database,
    private readonly blobs: BlobStore,
    private readonly clock: Clock,
  ) {
    this.sessionStatement = database.prepare(`SELECT ${columnList(specOf('sessions'))} FROM sessions WHERE id = ?`);
    this.rowsStatements = new Map(
      REPLICATED_TABLES.filter((spec) => spec.name !== 'sessions').map((spec) => [
        spec.name,
        // rowid: the order the rows were written, so a reader gets them as this home has them.
        database.prepare(`SELECT ${columnList(spec)} FROM ${spec.name} WHERE session_id = ? ORDER BY rowid`),
      ]),
    );
    this.upsertStatements = new Map(REPLICATED_TABLES.map((spec) => [spec.name, database.prepare(upsertSql(spec))]));
    this.imageBlobsStatement = database.prepare(
      'SELECT sha256, mime, byte_size FROM images WHERE session_id = ? AND purged_at IS NULL ORDER BY rowid',
    );
    this.mediaBlobsStatement = database.prepare(
      `SELECT generated_media.media_id, generated_media.mime FROM generated_media
       JOIN messages ON messages.id = generated_media.message_id
       WHERE generated_media.session_id = ? ORDER BY messages.sequence, generated_media.part_index`,
    );
    this.markStatement = database.prepare('SELECT dirty_mark FROM replication_marks WHERE session_id = ?');
    // One statement: the next number and the write happen under SQLite's write lock, so two processes never share a mark.
    this.markDirtyStatement = database.prepare(
      `INSERT INTO replication_marks (session_id, dirty_mark, pending_since, marked_at)
       SELECT @sessionId, next.mark, next.mark, @now
       FROM (SELECT COALESCE(MAX(dirty_mark), 0) + 1 AS mark FROM replication_marks) AS next
       WHERE EXISTS (SELECT 1 FROM sessions WHERE id = @sessionId)
       ON CONFLICT (session_id) DO UPDATE SET
         pending_since = CASE WHEN shipped_mark IS NULL OR shipped_mark < dirty_mark THEN pending_since ELSE excluded.dirty_mark END,
         dirty_mark = excluded.dirty_mark,
         marked_at = excluded.marked_at`,
    );
    this.markShippedStatement = database.prepare(
      `UPDATE replication_marks SET shipped_mark = MAX(COALESCE(shipped_mark, 0), @mark), shipped_at = @now
       WHERE session_id = @sessionId`,
    );
    this.pendingStatement = database
      .prepare(
        `SELECT session_id FROM replication_marks WHERE shipped_mark IS NULL OR shipped_mark < dirty_mark
         ORDER BY pending_since`,
      )
      .pluck();
    // One read transaction: every table (and the mark) from one snapshot, so a shipment never pairs a step
    // with a turn from before it.
    this.readSnapshot = database.transaction((sessionId: string) => this.readRows(sessionId));
    this.applyTransaction = database.transaction((rows: Partial<Record<ReplicatedTable, Row[]>>) => this.upsertRows(rows));
    // Called inside applySessionsTransaction, so a savepoint: a session that fails rolls back alone.
    this.applySessionSavepoint = database.transaction((rows: Partial<Record<ReplicatedTable, Row[]>>) => this.upsertRows(rows, describedRowFailure));
    this.applySessionsTransaction = database.transaction((bySession: Map<string, Partial<Record<ReplicatedTable, Row[]>>>) => {
      const result: AppliedSessions = { written: 0, applied: [], skipped: [] };
      for (const [sessionId, rows] of bySession) {
        try {
          result.written += this.applySessionSavepoint(rows);
          result.applied.push(sessionId);
        } catch (error) {
          // Only a row's own fault skips its session; a full disk or a busy database fails the pull, which is retried.
          if (!(error instanceof RowFailure)) throw error;
          result.skipped.push({ sessionId, problem: error.message });
        }
      }
      return result;
    });
  }

  /** Every replicated row of the session and the pixels they name; undefined when there is no such session. */
  readSession(sessionId: string): SessionRows | undefined {
    const read = this.readSnapshot(sessionId);
    if (read === undefined) return undefined;
    this.marksRead.set(sessionId, read.mark);
    return read.rows;
  }

  /**
   * The mirror's import: upserts the rows by key, parents first, in one transaction, and returns how many rows
   * it wrote. A row equal to the stored one is left alone (its message's media index is not rebuilt for nothing).
   * Every row must carry exactly its table's columns: a row from another schema fails whole, naming the column.
   */
  applyRows(rows: Partial<Record<ReplicatedTable, Row[]>>): number {
    for (const table of Object.keys(rows)) {
      if (!REPLICATED_TABLES.some((spec) => spec.name === table)) throw new Error(`${table} is not a replicated table.`);
    }
    return this.applyTransaction(rows);
  }

  /**
   * The mirror's import of rows it cannot trust (another machine wrote them, or anyone with write access to the team
   * store): each session's rows land whole or not at all, in one transaction with a savepoint per session, so a row
   * SQLite refuses (a CHECK, a type, a missing parent) costs its own session, said with the table, the row's key and
   * the rule it broke, and every other session still lands. A session is the unit because half of one (its turns
   * without their steps, a step without its turn) would show a run that never happened; its earlier version, if the
   * mirror had one, stays.
   */
  applySessions(rows: Partial<Record<ReplicatedTable, Row[]>>): AppliedSessions {
    for (const table of Object.keys(rows)) {
      if (!REPLICATED_TABLES.some((spec) => spec.name === table)) throw new Error(`${table} is not a replicated table.`);
    }
    const bySession = new Map<string, Partial<Record<ReplicatedTable, Row[]>>>();
    for (const spec of REPLICATED_TABLES) {
      for (const row of rows[spec.name] ?? []) {
        const owner = String(spec.name === 'sessions' ? row['id'] : row['session_id']);
        const tables = bySession.get(owner) ?? {};
        (tables[spec.name] ??= []).push(row);
        bySession.set(owner, tables);
      }
    }
    return this.applySessionsTransaction(bySession);
  }

  /** Notes that the session has rows the team store has not seen yet. Throws for a session this home lacks. */
  markDirty(sessionId: string): void {
    const result = this.markDirtyStatement.run({ sessionId, now: isoTime(this.clock) });
    if (result.changes === 0) throw new Error(`There is no session ${sessionId} to replicate.`);
  }

  /**
   * Notes that the session's rows reached the team store: up to the mark its last readSession here saw (a step
   * that landed since keeps it pending), or every mark when this process has not read it.
   */
  markShipped(sessionId: string): void {
    const mark = this.marksRead.get(sessionId) ?? this.currentMark(sessionId);
    this.marksRead.delete(sessionId);
    if (mark === 0) return;
    this.markShippedStatement.run({ sessionId, mark, now: isoTime(this.clock) });
  }

  /** Sessions marked dirty and not shipped since, the longest waiting first. */
  pendingSessions(): string[] {
    return z.array(z.string()).parse(this.pendingStatement.all());
  }

  private currentMark(sessionId: string): number {
    const [row] = parseRows(MarkRow, this.markStatement.all(sessionId), 'replication_marks');
    return row?.dirty_mark ?? 0;
  }

  private readRows(sessionId: string): { rows: SessionRows; mark: number } | undefined {
    const session = this.sessionStatement.get(sessionId) as Row | undefined;
    if (session === undefined) return undefined;
    const tables = { sessions: [session] } as Record<ReplicatedTable, Row[]>;
    for (const [table, statement] of this.rowsStatements) tables[table] = statement.all(sessionId) as Row[];
    const rows: SessionRows = { sessionId, tables, blobs: this.blobsOf(sessionId) };
    return { rows, mark: this.currentMark(sessionId) };
  }

  private blobsOf(sessionId: string): BlobRef[] {
    const found = new Map<string, BlobRef>();
    for (const image of parseRows(ImageBlobRow, this.imageBlobsStatement.all(sessionId), 'images')) {
      if (!found.has(image.sha256)) found.set(image.sha256, { sha256: image.sha256, mime: image.mime, byteSize: image.byte_size });
    }
    for (const media of parseRows(MediaBlobRow, this.mediaBlobsStatement.all(sessionId), 'generated_media')) {
      const sha256 = sha256OfGeneratedMedia(media.media_id);
      if (sha256 === undefined || found.has(sha256)) continue;
      // The media index keeps no size (the message is the record): the file has it, if the home still has the file.
      const byteSize = this.sizeOfFile(sha256, media.mime);
      if (byteSize !== undefined) found.set(sha256, { sha256, mime: media.mime, byteSize });
    }
    return [...found.values()];
  }

  private sizeOfFile(sha256: string, mime: string): number | undefined {
    for (const location of ['blobs', 'cold'] as const) {
      const info = statSync(this.blobs.pathFor(location, sha256, mime), { throwIfNoEntry: false });
      if (info?.isFile() === true) return info.size;
    }
    return undefined;
  }

  private upsertRows(rows: Partial<Record<ReplicatedTable, Row[]>>, failed: (spec: ReplicatedTableSpec, row: Row, error: unknown) => never = rethrow): number {
    let written = 0;
    for (const spec of REPLICATED_TABLES) {
      const statement = this.upsertStatements.get(spec.name)!;
      for (const row of rows[spec.name] ?? []) {
        try {
          written += statement.run(checkedReplicatedRow(spec, row)).changes;
        } catch (error) {
          failed(spec, row, error);
        }
      }
    }
    return written;
  }
}

/** A pulled row that did not land, described: its table, its key and the rule, never a value of its columns. */
class RowFailure extends Error {
  override name = 'RowFailure';
}

function rethrow(_spec: ReplicatedTableSpec, _row: Row, error: unknown): never {
  throw error;
}

/**
 * What SQLite says when the row itself is at fault: a constraint (CHECK, NOT NULL, UNIQUE, FOREIGN KEY, a STRICT
 * column's type), a value too large, a type it cannot take. Anything else (SQLITE_FULL, SQLITE_BUSY, an I/O error) is
 * this machine's trouble, not the row's.
 */
const ROW_FAULT_CODES = /^(SQLITE_CONSTRAINT|SQLITE_MISMATCH|SQLITE_TOOBIG)/;

function describedRowFailure(spec: ReplicatedTableSpec, row: Row, error: unknown): never {
  const code = (error as { code?: unknown } | null)?.code;
  const fromSqlite = typeof code === 'string';
  if (fromSqlite && !ROW_FAULT_CODES.test(code)) throw error;
  const reason = error instanceof Error ? error.message : String(error);
  // SQLite's messages name the rule and the columns (`CHECK constraint failed: json_valid(parts) AND …`, `cannot
  // store TEXT value in INTEGER column turns.sequence`), not the values; a foreign key's names neither.
  const hint = /FOREIGN KEY constraint failed/i.test(reason) ? ' (a row it refers to, such as its session or turn, is missing)' : '';
  throw new RowFailure(`its ${spec.name} row ${quoted(JSON.stringify(row[spec.key] ?? null))} was refused: ${quoted(reason)}${hint}`);
}

function quoted(text: string): string {
  return text.length > QUOTED_LENGTH ? `${text.slice(0, QUOTED_LENGTH)}…` : text;
}

function specOf(name: ReplicatedTable): ReplicatedTableSpec {
  return REPLICATED_TABLES.find((spec) => spec.name === name)!;
}

function columnList(spec: ReplicatedTableSpec): string {
  return spec.columns.join(', ');
}

/**
 * INSERT … ON CONFLICT DO UPDATE, never INSERT OR REPLACE: a replace deletes the old row first, and its ON DELETE
 * CASCADE would take the row's children with it. The WHERE skips a row that is already as given.
 */
function upsertSql(spec: ReplicatedTableSpec): string {
  const others = spec.columns.filter((column) => column !== spec.key);
  return `INSERT INTO ${spec.name} (${columnList(spec)}) VALUES (${spec.columns.map((column) => `@${column}`).join(', ')})
    ON CONFLICT (${spec.key}) DO UPDATE SET ${others.map((column) => `${column} = excluded.${column}`).join(', ')}
    WHERE (${others.map((column) => `${spec.name}.${column}`).join(', ')}) IS NOT (${others.map((column) => `excluded.${column}`).join(', ')})`;
}

/**
 * The row, when it carries exactly its table's columns with text, numbers or null: a row from another schema (a
 * newer Sightline's store) fails whole, naming the column. The team store checks a shipment with it too.
 */
export function checkedReplicatedRow(spec: ReplicatedTableSpec, row: Row): Row {
  for (const column of Object.keys(row)) {
    if (!spec.columns.includes(column)) throw new Error(`A row for ${spec.name} has the column ${column}, which this Sightline does not know.`);
  }
  for (const column of spec.columns) {
    if (!(column in row)) throw new Error(`A row for ${spec.name} lacks the column ${column}.`);
    const value = row[column];
    if (value !== null && typeof value !== 'string' && typeof value !== 'number') {
      throw new Error(`A row for ${spec.name} has a ${typeof value} in ${column}; only text, numbers and null are stored.`);
    }
  }
  return row;
}
