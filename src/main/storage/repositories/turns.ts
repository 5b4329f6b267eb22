/** Turns: one user request and everything the agent did for it. Compaction happens at turn boundaries. */
import { hostname } from 'node:os';
import { z } from 'zod';
import { newId } from '../../../shared/ids.js';
import { STEP_KINDS, TurnAnswerSchema, type StepKind, type TurnAnswer } from '../../../shared/answers.js';
import { TurnReplaySchema, type TurnReplay } from '../../../shared/replay.js';
import { TURN_STATUSES, type TurnEndStatus, type TurnStatus } from '../../../shared/statuses.js';
import type { Database } from '../database.js';
import { isoTime, type Clock } from '../time.js';
import { parseRow, parseRows } from './columns.js';
import { keepText, redactedText, redactedValue, type RedactStoredText } from '../stored-text.js';

export interface TurnRecord {
  id: string;
  sessionId: string;
  /** 1, 2, 3… within the session. */
  sequence: number;
  userRequest: string;
  status: TurnStatus;
  startedAt: string;
  endedAt: string | null;
  compactedAt: string | null;
  summary: string | null;
  /** The kind of flow step the turn ran for; null for a plain request. */
  stepKind: StepKind | null;
  /** The model's validated answer, for a turn that asked a question (assert, extract, if, wait_for). */
  answer: TurnAnswer | null;
  /** The key a flow step's recording is found by (kind, flow, rendered text); null for a plain request. */
  replayKey: string | null;
  /** What the turn's replay came to (shared/replay.ts); null for a turn without a replay key. */
  replay: TurnReplay | null;
  /** The flow's step failed where failing was allowed (continue_on_error): the flow did not fail for it. */
  allowedFailure?: true;
}

/** A running turn and the process that runs it (null for rows older than the owner columns). */
export interface RunningTurn {
  id: string;
  sessionId: string;
  ownerPid: number | null;
  ownerHost: string | null;
}

const RunningTurnRow = z
  .object({ id: z.string(), session_id: z.string(), owner_pid: z.number().int().nullable(), owner_host: z.string().nullable() })
  .transform((row): RunningTurn => ({ id: row.id, sessionId: row.session_id, ownerPid: row.owner_pid, ownerHost: row.owner_host }));

const TurnRow = z
  .object({
    id: z.string(),
    session_id: z.string(),
    sequence: z.number().int(),
    user_request: z.string(),
    status: z.enum(TURN_STATUSES),
    started_at: z.string(),
    ended_at: z.string().nullable(),
    compacted_at: z.string().nullable(),
    summary: z.string().nullable(),
    step_kind: z.enum(STEP_KINDS).nullable(),
    answer: z.string().nullable(),
    replay_key: z.string().nullable().optional(),
    replay: z.string().nullable().optional(),
    allowed_failure: z.number().int().nullable().optional(),
  })
  .transform(
    (row): TurnRecord => ({
      id: row.id,
      sessionId: row.session_id,
      sequence: row.sequence,
      userRequest: row.user_request,
      status: row.status,
      startedAt: row.started_at,
      endedAt: row.ended_at,
      compactedAt: row.compacted_at,
      summary: row.summary,
      stepKind: row.step_kind,
      answer: row.answer === null ? null : parseAnswer(row.answer),
      replayKey: row.replay_key ?? null,
      replay: row.replay === null || row.replay === undefined ? null : parseReplay(row.replay),
      ...(row.allowed_failure === 1 ? { allowedFailure: true as const } : {}),
    }),
  );

/** A stored answer that does not read (written by hand, or by a newer Sightline) is shown as none. */
function parseAnswer(text: string): TurnAnswer | null {
  try {
    const parsed = TurnAnswerSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** A replay record that does not read (a newer Sightline's) is shown as none. */
function parseReplay(text: string): TurnReplay | null {
  try {
    const parsed = TurnReplaySchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export class TurnsRepository {
  private readonly insertStatement;
  private readonly getStatement;
  private readonly listStatement;
  private readonly latestStatement;
  private readonly endStatement;
  private readonly compactedStatement;
  private readonly runningStatement;
  private readonly recordingStatement;
  private readonly allowedFailureStatement;

  constructor(
    database: Database,
    private readonly clock: Clock,
    private readonly redact: RedactStoredText = keepText,
  ) {
    // The sequence is computed inside the INSERT, so concurrent writers can never take the same number.
    this.insertStatement = database.prepare(
      `INSERT INTO turns (id, session_id, sequence, user_request, status, started_at, owner_pid, owner_host, step_kind, replay_key)
       VALUES (@id, @sessionId,
               (SELECT COALESCE(MAX(sequence), 0) + 1 FROM turns WHERE session_id = @sessionId),
               @userRequest, 'running', @startedAt, @ownerPid, @ownerHost, @stepKind, @replayKey)
       RETURNING *`,
    );
    this.runningStatement = database.prepare(
      "SELECT id, session_id, owner_pid, owner_host FROM turns WHERE status = 'running' ORDER BY started_at",
    );
    this.getStatement = database.prepare('SELECT * FROM turns WHERE id = ?');
    this.allowedFailureStatement = database.prepare('UPDATE turns SET allowed_failure = 1 WHERE id = ?');
    this.listStatement = database.prepare('SELECT * FROM turns WHERE session_id = ? ORDER BY sequence');
    this.latestStatement = database.prepare(
      'SELECT * FROM turns WHERE session_id = ? ORDER BY sequence DESC LIMIT 1',
    );
    this.endStatement = database.prepare(
      `UPDATE turns SET status = @status, ended_at = @endedAt, answer = @answer, replay = @replay WHERE id = @id AND status = 'running' RETURNING *`,
    );
    // The latest finished turn of the key: rowid breaks a tie of ended_at (one millisecond).
    this.recordingStatement = database.prepare(
      `SELECT * FROM turns WHERE replay_key = ? AND status = 'finished' ORDER BY ended_at DESC, rowid DESC LIMIT 1`,
    );
    this.compactedStatement = database.prepare(
      'UPDATE turns SET compacted_at = @compactedAt, summary = @summary WHERE id = @id RETURNING *',
    );
  }

  start(turn: { sessionId: string; userRequest: string; stepKind?: StepKind | undefined; replayKey?: string | undefined }): TurnRecord {
    const row: unknown = this.insertStatement.get({
      id: newId('turn'),
      sessionId: turn.sessionId,
      userRequest: this.redact(turn.userRequest),
      startedAt: isoTime(this.clock),
      // The process that runs the turn, so a later start can tell a turn in progress from an abandoned one.
      ownerPid: process.pid,
      ownerHost: hostname(),
      stepKind: turn.stepKind ?? null,
      // Redacted like the request it is made of, and looked up the same way.
      replayKey: turn.replayKey === undefined ? null : this.redact(turn.replayKey),
    });
    return parseRow(TurnRow, row, 'turns');
  }

  /** The flow's verdict on an ended turn's step: it failed where failing was allowed (continue_on_error). */
  markAllowedFailure(id: string): void {
    this.allowedFailureStatement.run(id);
  }

  get(id: string): TurnRecord | undefined {
    const row: unknown = this.getStatement.get(id);
    return row === undefined ? undefined : parseRow(TurnRow, row, 'turns');
  }

  listBySession(sessionId: string): TurnRecord[] {
    return parseRows(TurnRow, this.listStatement.all(sessionId), 'turns');
  }

  latest(sessionId: string): TurnRecord | undefined {
    const row: unknown = this.latestStatement.get(sessionId);
    return row === undefined ? undefined : parseRow(TurnRow, row, 'turns');
  }

  /**
   * Ends a running turn, with the model's answer when it gave one (its texts redacted like every stored text).
   * Ending a turn twice is an error: its first ending is the one that counts.
   */
  end(id: string, status: TurnEndStatus, answer?: TurnAnswer, replay?: TurnReplay): TurnRecord {
    const stored = answer === undefined ? null : JSON.stringify(redactedValue(answer, this.redact));
    const replayed = replay === undefined ? null : JSON.stringify(redactedValue(replay, this.redact));
    const row: unknown = this.endStatement.get({ id, status, endedAt: isoTime(this.clock), answer: stored, replay: replayed });
    if (row === undefined) {
      const turn = this.get(id);
      throw new Error(turn === undefined ? `No turn ${id}.` : `Turn ${id} has already ended (${turn.status}).`);
    }
    return parseRow(TurnRow, row, 'turns');
  }

  /**
   * A step's recording: the latest turn of the key that finished. A turn killed, stopped or failed mid-replay is
   * never finished, so the last passing recording stays the one found.
   */
  latestRecording(replayKey: string): TurnRecord | undefined {
    const row: unknown = this.recordingStatement.get(this.redact(replayKey));
    return row === undefined ? undefined : parseRow(TurnRow, row, 'turns');
  }

  /** Every turn still marked running, with the process that started it. */
  listRunning(): RunningTurn[] {
    return parseRows(RunningTurnRow, this.runningStatement.all(), 'turns');
  }

  markCompacted(id: string, summary: string | null): TurnRecord {
    const row: unknown = this.compactedStatement.get({ id, summary: redactedText(summary, this.redact), compactedAt: isoTime(this.clock) });
    if (row === undefined) throw new Error(`No turn ${id}.`);
    return parseRow(TurnRow, row, 'turns');
  }
}
