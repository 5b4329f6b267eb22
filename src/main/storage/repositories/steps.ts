/** Steps of the loop: one model decision and its action, with the screenshot it saw and what it cost. */
import { z } from 'zod';
import { StepActionSchema, type StepAction } from '../../../shared/actions.js';
import { newId } from '../../../shared/ids.js';
import type { Database } from '../database.js';
import { isoTime, type Clock } from '../time.js';
import { jsonColumn, nullableJsonColumn, parseRow, parseRows, toJson, toNullableJson } from './columns.js';

export interface StepRecord {
  id: string;
  sessionId: string;
  turnId: string;
  /** 1, 2, 3… within the turn. */
  sequence: number;
  /** What the step did: a computer action, or another tool's call (src/shared/actions.ts). */
  action: StepAction;
  thought: string | null;
  screenshotImageId: string | null;
  /** When the screen had not changed: the earlier image this step's screenshot repeats. */
  dedupOfImageId: string | null;
  result: unknown;
  error: string | null;
  latencyMs: number | null;
  inputTokens: number | null;
  outputTokens: number | null;
  tokenReport: unknown;
  /** How the screenshot was shown to the model (its size and coordinate space); storage does not interpret it. */
  screenshotView: unknown;
  createdAt: string;
}

export interface NewStep {
  sessionId: string;
  turnId: string;
  action: StepAction;
  thought?: string | null;
  screenshotImageId?: string | null;
  dedupOfImageId?: string | null;
  result?: unknown;
  error?: string | null;
  latencyMs?: number | null;
  inputTokens?: number | null;
  outputTokens?: number | null;
  tokenReport?: unknown;
  screenshotView?: unknown;
}

/** What is known only after the action ran. */
export interface StepOutcome {
  result?: unknown;
  error?: string | null;
  latencyMs?: number | null;
}

const StepRow = z
  .object({
    id: z.string(),
    session_id: z.string(),
    turn_id: z.string(),
    sequence: z.number().int(),
    action: jsonColumn.pipe(StepActionSchema),
    thought: z.string().nullable(),
    screenshot_image_id: z.string().nullable(),
    dedup_of_image_id: z.string().nullable(),
    result: nullableJsonColumn,
    error: z.string().nullable(),
    latency_ms: z.number().int().nullable(),
    input_tokens: z.number().int().nullable(),
    output_tokens: z.number().int().nullable(),
    token_report: nullableJsonColumn,
    screenshot_view: nullableJsonColumn,
    created_at: z.string(),
  })
  .transform(
    (row): StepRecord => ({
      id: row.id,
      sessionId: row.session_id,
      turnId: row.turn_id,
      sequence: row.sequence,
      action: row.action,
      thought: row.thought,
      screenshotImageId: row.screenshot_image_id,
      dedupOfImageId: row.dedup_of_image_id,
      result: row.result,
      error: row.error,
      latencyMs: row.latency_ms,
      inputTokens: row.input_tokens,
      outputTokens: row.output_tokens,
      tokenReport: row.token_report,
      screenshotView: row.screenshot_view,
      createdAt: row.created_at,
    }),
  );

export class StepsRepository {
  private readonly insertStatement;
  private readonly getStatement;
  private readonly listByTurnStatement;
  private readonly listBySessionStatement;
  private readonly outcomeStatement;

  constructor(
    database: Database,
    private readonly clock: Clock,
  ) {
    this.insertStatement = database.prepare(
      `INSERT INTO steps (id, session_id, turn_id, sequence, action, thought, screenshot_image_id, dedup_of_image_id,
                          result, error, latency_ms, input_tokens, output_tokens, token_report, screenshot_view, created_at)
       VALUES (@id, @sessionId, @turnId,
               (SELECT COALESCE(MAX(sequence), 0) + 1 FROM steps WHERE turn_id = @turnId),
               @action, @thought, @screenshotImageId, @dedupOfImageId, @result, @error, @latencyMs,
               @inputTokens, @outputTokens, @tokenReport, @screenshotView, @createdAt)
       RETURNING *`,
    );
    this.getStatement = database.prepare('SELECT * FROM steps WHERE id = ?');
    this.listByTurnStatement = database.prepare('SELECT * FROM steps WHERE turn_id = ? ORDER BY sequence');
    this.listBySessionStatement = database.prepare(
      `SELECT steps.* FROM steps JOIN turns ON turns.id = steps.turn_id
       WHERE steps.session_id = ? ORDER BY turns.sequence, steps.sequence`,
    );
    this.outcomeStatement = database.prepare(
      `UPDATE steps SET result = @result, error = @error, latency_ms = @latencyMs WHERE id = @id RETURNING *`,
    );
  }

  append(step: NewStep): StepRecord {
    const row: unknown = this.insertStatement.get({
      id: newId('step'),
      sessionId: step.sessionId,
      turnId: step.turnId,
      action: toJson(step.action),
      thought: step.thought ?? null,
      screenshotImageId: step.screenshotImageId ?? null,
      dedupOfImageId: step.dedupOfImageId ?? null,
      result: toNullableJson(step.result),
      error: step.error ?? null,
      latencyMs: step.latencyMs ?? null,
      inputTokens: step.inputTokens ?? null,
      outputTokens: step.outputTokens ?? null,
      tokenReport: toNullableJson(step.tokenReport),
      screenshotView: toNullableJson(step.screenshotView),
      createdAt: isoTime(this.clock),
    });
    return parseRow(StepRow, row, 'steps');
  }

  /** Records what the action did, once it has run. Fields left out keep their stored value. */
  recordOutcome(id: string, outcome: StepOutcome): StepRecord {
    const current = this.get(id);
    if (current === undefined) throw new Error(`There is no step ${id}.`);
    const row: unknown = this.outcomeStatement.get({
      id,
      result: toNullableJson(outcome.result === undefined ? current.result : outcome.result),
      error: outcome.error === undefined ? current.error : outcome.error,
      latencyMs: outcome.latencyMs === undefined ? current.latencyMs : outcome.latencyMs,
    });
    return parseRow(StepRow, row, 'steps');
  }

  get(id: string): StepRecord | undefined {
    const row: unknown = this.getStatement.get(id);
    return row === undefined ? undefined : parseRow(StepRow, row, 'steps');
  }

  listByTurn(turnId: string): StepRecord[] {
    return parseRows(StepRow, this.listByTurnStatement.all(turnId), 'steps');
  }

  /** Every step of the session, in turn order then step order. */
  listBySession(sessionId: string): StepRecord[] {
    return parseRows(StepRow, this.listBySessionStatement.all(sessionId), 'steps');
  }
}
