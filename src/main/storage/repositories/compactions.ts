/**
 * The compaction journal (see migration 0004). Storage keeps the plan as opaque JSON: what a plan means
 * belongs to the context layer, which writes it and reads it back through its own schema.
 */
import { z } from 'zod';
import { COMPACTION_STATES, type CompactionState } from '../../../shared/statuses.js';
import type { Database } from '../database.js';
import { isoTime, type Clock } from '../time.js';
import { jsonColumn, parseRow, parseRows, toJson } from './columns.js';
import { keepText, redactedValue, type RedactStoredText } from '../stored-text.js';

export interface CompactionRecord {
  turnId: string;
  sessionId: string;
  state: CompactionState;
  plan: unknown;
  plannedAt: string;
  finishedAt: string | null;
}

const CompactionRow = z
  .object({
    turn_id: z.string(),
    session_id: z.string(),
    state: z.enum(COMPACTION_STATES),
    plan: jsonColumn,
    planned_at: z.string(),
    finished_at: z.string().nullable(),
  })
  .transform(
    (row): CompactionRecord => ({
      turnId: row.turn_id,
      sessionId: row.session_id,
      state: row.state,
      plan: row.plan,
      plannedAt: row.planned_at,
      finishedAt: row.finished_at,
    }),
  );

const TurnReferenceRow = z
  .object({ id: z.string(), session_id: z.string() })
  .transform((row) => ({ turnId: row.id, sessionId: row.session_id }));

export class CompactionsRepository {
  private readonly insertStatement;
  private readonly getStatement;
  private readonly unfinishedStatement;
  private readonly finishStatement;
  private readonly endedUncompactedStatement;

  constructor(
    database: Database,
    private readonly clock: Clock,
    private readonly redact: RedactStoredText = keepText,
  ) {
    this.insertStatement = database.prepare(
      `INSERT INTO compactions (turn_id, session_id, state, plan, planned_at)
       VALUES (@turnId, @sessionId, 'planned', @plan, @plannedAt)
       RETURNING *`,
    );
    this.getStatement = database.prepare('SELECT * FROM compactions WHERE turn_id = ?');
    this.unfinishedStatement = database.prepare(
      "SELECT * FROM compactions WHERE state = 'planned' ORDER BY planned_at, rowid",
    );
    this.finishStatement = database.prepare(
      `UPDATE compactions SET state = 'done', finished_at = @finishedAt
       WHERE turn_id = @turnId AND state = 'planned' RETURNING *`,
    );
    this.endedUncompactedStatement = database.prepare(
      `SELECT id, session_id FROM turns
       WHERE status != 'running' AND compacted_at IS NULL AND ended_at < @endedBefore
         AND NOT EXISTS (SELECT 1 FROM compactions WHERE compactions.turn_id = turns.id)
       ORDER BY ended_at, rowid`,
    );
  }

  /** Turns that ended before `endedBefore` and were never compacted nor planned (their turn-end hook never ran). */
  listEndedUncompactedTurns(endedBefore: string): { turnId: string; sessionId: string }[] {
    return parseRows(TurnReferenceRow, this.endedUncompactedStatement.all({ endedBefore }), 'turns');
  }

  /** Records a turn's plan. A turn has one journal row: planning it twice is an error. */
  plan(entry: { turnId: string; sessionId: string; plan: unknown }): CompactionRecord {
    const row: unknown = this.insertStatement.get({
      turnId: entry.turnId,
      sessionId: entry.sessionId,
      plan: toJson(redactedValue(entry.plan, this.redact)),
      plannedAt: isoTime(this.clock),
    });
    return parseRow(CompactionRow, row, 'compactions');
  }

  get(turnId: string): CompactionRecord | undefined {
    const row: unknown = this.getStatement.get(turnId);
    return row === undefined ? undefined : parseRow(CompactionRow, row, 'compactions');
  }

  /** Compactions that were planned and never finished (a crash or a kill in the middle), oldest first. */
  listUnfinished(): CompactionRecord[] {
    return parseRows(CompactionRow, this.unfinishedStatement.all(), 'compactions');
  }

  finish(turnId: string): CompactionRecord {
    const row: unknown = this.finishStatement.get({ turnId, finishedAt: isoTime(this.clock) });
    if (row === undefined) {
      const existing = this.get(turnId);
      throw new Error(
        existing === undefined ? `Turn ${turnId} has no planned compaction.` : `The compaction of turn ${turnId} is already done.`,
      );
    }
    return parseRow(CompactionRow, row, 'compactions');
  }
}
