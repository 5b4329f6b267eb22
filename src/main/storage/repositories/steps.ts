/** Steps of the loop: one model decision and its action, with the screenshot it saw and what it cost. */
import { z } from 'zod';
import { StepActionSchema, type StepAction } from '../../../shared/actions.js';
import type { CostTotals } from '../../../shared/cost.js';
import { newId } from '../../../shared/ids.js';
import type { Database } from '../database.js';
import { isoTime, type Clock } from '../time.js';
import { jsonColumn, nullableJsonColumn, parseRow, parseRows, toJson, toNullableJson } from './columns.js';
import { keepText, redactedText, redactedValue, type RedactStoredText } from '../stored-text.js';

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
  /** Of the input, how many tokens the provider's prompt cache served; null when it reported none. */
  cachedInputTokens: number | null;
  /** Input tokens this call wrote to the provider's prompt cache; null when it reported none. */
  cacheWriteInputTokens: number | null;
  /**
   * What the step's model call cost in US dollars, priced when it was recorded; null when the model's price
   * was unknown or the step carries no call (a reply's steps after its first).
   */
  costDollars: number | null;
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
  cachedInputTokens?: number | null;
  cacheWriteInputTokens?: number | null;
  costDollars?: number | null;
  tokenReport?: unknown;
  screenshotView?: unknown;
}

/** The texts of a step that hold what the model and the tools wrote. */
export type StepTexts = Pick<StepRecord, 'action' | 'thought' | 'result' | 'error'>;

/** What is known only after the action ran. */
export interface StepOutcome {
  result?: unknown;
  error?: string | null;
  latencyMs?: number | null;
}

/** What a session's steps cost, summed; `sent` and `keepEverything` are null when no step has a token report. */
export interface StepTokenTotals {
  input: number;
  output: number;
  /** Of `input`, what the prompt cache served, and what was written to it (0 when no step reported any). */
  cachedInput: number;
  cacheWriteInput: number;
  sent: number | null;
  keepEverything: number | null;
}

/** What one turn's steps cost, summed: input (and how much of it the prompt cache served or took) and output. */
export interface TurnTokenTotals {
  input: number;
  output: number;
  cachedInput: number;
  cacheWriteInput: number;
}

/** One page of steps in timeline order and how many there are in all. */
export interface StepPage {
  steps: StepRecord[];
  total: number;
}

export interface StepPageQuery {
  sessionId: string;
  /** Only this turn's steps; absent for the whole session. */
  turnId?: string | undefined;
  limit: number;
  offset: number;
}

const TokenTotalsRow = z.object({
  input: z.number().int(),
  output: z.number().int(),
  cached_input: z.number().int(),
  cache_write_input: z.number().int(),
  sent: z.number().nullable(),
  keep_everything: z.number().nullable(),
});
const TurnStepCountRow = z.object({ turn_id: z.string(), steps: z.number().int() });
const CostTotalsRow = z.object({ dollars: z.number().nullable(), unpriced_tokens: z.number().int() });
const TurnCostTotalsRow = CostTotalsRow.extend({ turn_id: z.string() });
const TurnTokenTotalsRow = z.object({
  turn_id: z.string(),
  input: z.number().int(),
  output: z.number().int(),
  cached_input: z.number().int(),
  cache_write_input: z.number().int(),
});

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
    cached_input_tokens: z.number().int().nullable(),
    cache_write_input_tokens: z.number().int().nullable(),
    cost_dollars: z.number().nullable(),
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
      cachedInputTokens: row.cached_input_tokens,
      cacheWriteInputTokens: row.cache_write_input_tokens,
      costDollars: row.cost_dollars,
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
  private readonly rewriteTextsStatement;
  private readonly pageStatement;
  private readonly pageCountStatement;
  private readonly tokenTotalsStatement;
  private readonly countsByTurnStatement;
  private readonly tokenTotalsByTurnStatement;
  private readonly costTotalsStatement;
  private readonly costTotalsByTurnStatement;

  constructor(
    database: Database,
    private readonly clock: Clock,
    private readonly redact: RedactStoredText = keepText,
  ) {
    this.insertStatement = database.prepare(
      `INSERT INTO steps (id, session_id, turn_id, sequence, action, thought, screenshot_image_id, dedup_of_image_id,
                          result, error, latency_ms, input_tokens, output_tokens, cached_input_tokens, cache_write_input_tokens,
                          cost_dollars, token_report, screenshot_view, created_at)
       VALUES (@id, @sessionId, @turnId,
               (SELECT COALESCE(MAX(sequence), 0) + 1 FROM steps WHERE turn_id = @turnId),
               @action, @thought, @screenshotImageId, @dedupOfImageId, @result, @error, @latencyMs,
               @inputTokens, @outputTokens, @cachedInputTokens, @cacheWriteInputTokens, @costDollars, @tokenReport, @screenshotView, @createdAt)
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
    this.rewriteTextsStatement = database.prepare(
      'UPDATE steps SET action = @action, thought = @thought, result = @result, error = @error WHERE id = @id RETURNING *',
    );
    this.pageStatement = database.prepare(
      `SELECT steps.* FROM steps JOIN turns ON turns.id = steps.turn_id
       WHERE steps.session_id = @sessionId AND (@turnId IS NULL OR steps.turn_id = @turnId)
       ORDER BY turns.sequence, steps.sequence LIMIT @limit OFFSET @offset`,
    );
    this.pageCountStatement = database
      .prepare('SELECT COUNT(*) FROM steps WHERE session_id = @sessionId AND (@turnId IS NULL OR turn_id = @turnId)')
      .pluck();
    this.tokenTotalsStatement = database.prepare(
      `SELECT COALESCE(SUM(input_tokens), 0) AS input, COALESCE(SUM(output_tokens), 0) AS output,
              COALESCE(SUM(cached_input_tokens), 0) AS cached_input,
              COALESCE(SUM(cache_write_input_tokens), 0) AS cache_write_input,
              SUM(json_extract(token_report, '$.sentTokens')) AS sent,
              SUM(json_extract(token_report, '$.keepEverythingTokens')) AS keep_everything
       FROM steps WHERE session_id = ?`,
    );
    this.countsByTurnStatement = database.prepare(
      'SELECT turn_id, COUNT(*) AS steps FROM steps WHERE session_id = ? GROUP BY turn_id',
    );
    this.tokenTotalsByTurnStatement = database.prepare(
      `SELECT turn_id, COALESCE(SUM(input_tokens), 0) AS input, COALESCE(SUM(output_tokens), 0) AS output,
              COALESCE(SUM(cached_input_tokens), 0) AS cached_input,
              COALESCE(SUM(cache_write_input_tokens), 0) AS cache_write_input
       FROM steps WHERE session_id = ? GROUP BY turn_id`,
    );
    // The dollars of the priced calls, and the tokens of the calls whose price was unknown.
    const costColumns = `SUM(cost_dollars) AS dollars,
              COALESCE(SUM(CASE WHEN cost_dollars IS NULL THEN COALESCE(input_tokens, 0) + COALESCE(output_tokens, 0) END), 0) AS unpriced_tokens`;
    this.costTotalsStatement = database.prepare(`SELECT ${costColumns} FROM steps WHERE session_id = ?`);
    this.costTotalsByTurnStatement = database.prepare(`SELECT turn_id, ${costColumns} FROM steps WHERE session_id = ? GROUP BY turn_id`);
  }

  append(step: NewStep): StepRecord {
    const row: unknown = this.insertStatement.get({
      id: newId('step'),
      sessionId: step.sessionId,
      turnId: step.turnId,
      action: toJson(redactedValue(step.action, this.redact)),
      thought: redactedText(step.thought ?? null, this.redact),
      screenshotImageId: step.screenshotImageId ?? null,
      dedupOfImageId: step.dedupOfImageId ?? null,
      result: toNullableJson(redactedValue(step.result, this.redact)),
      error: redactedText(step.error ?? null, this.redact),
      latencyMs: step.latencyMs ?? null,
      inputTokens: step.inputTokens ?? null,
      outputTokens: step.outputTokens ?? null,
      cachedInputTokens: step.cachedInputTokens ?? null,
      cacheWriteInputTokens: step.cacheWriteInputTokens ?? null,
      costDollars: step.costDollars ?? null,
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
      result: toNullableJson(outcome.result === undefined ? current.result : redactedValue(outcome.result, this.redact)),
      error: outcome.error === undefined ? current.error : redactedText(outcome.error, this.redact),
      latencyMs: outcome.latencyMs === undefined ? current.latencyMs : outcome.latencyMs,
    });
    return parseRow(StepRow, row, 'steps');
  }

  /**
   * Replaces a step's texts (its action, thought, result and error) with a masked form of them: what was
   * typed into a password field is known only once the call ran, and an earlier step may repeat it.
   */
  rewriteTexts(id: string, texts: StepTexts): StepRecord {
    const row: unknown = this.rewriteTextsStatement.get({
      id,
      action: toJson(redactedValue(StepActionSchema.parse(texts.action), this.redact)),
      thought: redactedText(texts.thought, this.redact),
      result: toNullableJson(redactedValue(texts.result, this.redact)),
      error: redactedText(texts.error, this.redact),
    });
    if (row === undefined) throw new Error(`There is no step ${id}.`);
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

  /** Steps of a session (or of one of its turns) in timeline order, one page of them. */
  page(query: StepPageQuery): StepPage {
    const scope = { sessionId: query.sessionId, turnId: query.turnId ?? null };
    const rows = this.pageStatement.all({ ...scope, limit: query.limit, offset: query.offset });
    return { steps: parseRows(StepRow, rows, 'steps'), total: z.number().parse(this.pageCountStatement.get(scope)) };
  }

  /** The session's token use, summed over its steps (token reports' estimates rounded to whole tokens). */
  tokenTotals(sessionId: string): StepTokenTotals {
    const row = parseRow(TokenTotalsRow, this.tokenTotalsStatement.get(sessionId), 'steps');
    return {
      input: row.input,
      output: row.output,
      cachedInput: row.cached_input,
      cacheWriteInput: row.cache_write_input,
      sent: row.sent === null ? null : Math.round(row.sent),
      keepEverything: row.keep_everything === null ? null : Math.round(row.keep_everything),
    };
  }

  /** Each turn's token use, summed over its steps; turns without steps are absent. */
  tokenTotalsByTurn(sessionId: string): Map<string, TurnTokenTotals> {
    const rows = parseRows(TurnTokenTotalsRow, this.tokenTotalsByTurnStatement.all(sessionId), 'steps');
    return new Map(
      rows.map((row) => [row.turn_id, { input: row.input, output: row.output, cachedInput: row.cached_input, cacheWriteInput: row.cache_write_input }]),
    );
  }

  /** What the session's model calls cost: the dollars of those priced when they were made, the tokens of the others. */
  costTotals(sessionId: string): CostTotals {
    const row = parseRow(CostTotalsRow, this.costTotalsStatement.get(sessionId), 'steps');
    return { dollars: row.dollars, unpricedTokens: row.unpriced_tokens };
  }

  /** What each turn's model calls cost, as costTotals; turns without steps are absent. */
  costTotalsByTurn(sessionId: string): Map<string, CostTotals> {
    const rows = parseRows(TurnCostTotalsRow, this.costTotalsByTurnStatement.all(sessionId), 'steps');
    return new Map(rows.map((row) => [row.turn_id, { dollars: row.dollars, unpricedTokens: row.unpriced_tokens }]));
  }

  /** How many steps each turn of the session has; turns without steps are absent. */
  countsByTurn(sessionId: string): Map<string, number> {
    const rows = parseRows(TurnStepCountRow, this.countsByTurnStatement.all(sessionId), 'steps');
    return new Map(rows.map((row) => [row.turn_id, row.steps]));
  }
}
