/**
 * Reads the timeline needs that the repositories do not offer one by one: sessions filtered by text with
 * their token totals, a page of a session's steps, and per-turn step counts. Rows come back as ids or plain
 * numbers; records are read through the repositories, so their parsing stays in one place.
 */
import { z } from 'zod';
import type { TokenTotals } from '../../shared/app-api.js';
import type { Database } from '../storage/index.js';

const SessionIdRow = z.object({ id: z.string() });
const StepIdRow = z.object({ id: z.string() });
const TotalsRow = z.object({
  input: z.number().int(),
  output: z.number().int(),
  sent: z.number().nullable(),
  keep_everything: z.number().nullable(),
});
const CountsRow = z.object({ turns: z.number().int(), steps: z.number().int() });
const TurnStepCountRow = z.object({ turn_id: z.string(), steps: z.number().int() });

/** `%` and `_` in what the user typed are literal characters, not wildcards. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

const MATCHES_QUERY = `(@pattern IS NULL
  OR sessions.title LIKE @pattern ESCAPE '\\'
  OR EXISTS (SELECT 1 FROM turns WHERE turns.session_id = sessions.id AND turns.user_request LIKE @pattern ESCAPE '\\'))`;

export class SessionQueries {
  private readonly pageStatement;
  private readonly countStatement;
  private readonly totalsStatement;
  private readonly stepPageStatement;
  private readonly stepCountStatement;
  private readonly turnStepCountsStatement;
  private readonly countsStatement;

  constructor(database: Database) {
    this.pageStatement = database.prepare(
      `SELECT sessions.id FROM sessions WHERE ${MATCHES_QUERY}
       ORDER BY sessions.created_at DESC, sessions.rowid DESC LIMIT @limit OFFSET @offset`,
    );
    this.countStatement = database.prepare(`SELECT COUNT(*) FROM sessions WHERE ${MATCHES_QUERY}`).pluck();
    this.totalsStatement = database.prepare(
      `SELECT COALESCE(SUM(input_tokens), 0) AS input, COALESCE(SUM(output_tokens), 0) AS output,
              SUM(json_extract(token_report, '$.sentTokens')) AS sent,
              SUM(json_extract(token_report, '$.keepEverythingTokens')) AS keep_everything
       FROM steps WHERE session_id = ?`,
    );
    this.stepPageStatement = database.prepare(
      `SELECT steps.id FROM steps JOIN turns ON turns.id = steps.turn_id
       WHERE steps.session_id = @sessionId AND (@turnId IS NULL OR steps.turn_id = @turnId)
       ORDER BY turns.sequence, steps.sequence LIMIT @limit OFFSET @offset`,
    );
    this.stepCountStatement = database
      .prepare('SELECT COUNT(*) FROM steps WHERE session_id = @sessionId AND (@turnId IS NULL OR turn_id = @turnId)')
      .pluck();
    this.countsStatement = database.prepare(
      `SELECT (SELECT COUNT(*) FROM turns WHERE session_id = @id) AS turns,
              (SELECT COUNT(*) FROM steps WHERE session_id = @id) AS steps`,
    );
    this.turnStepCountsStatement = database.prepare(
      'SELECT turn_id, COUNT(*) AS steps FROM steps WHERE session_id = ? GROUP BY turn_id',
    );
  }

  /** Session ids, newest first, whose title or a turn's request contains `query` (case-insensitive for ASCII). */
  sessionPage(options: { query: string | undefined; limit: number; offset: number }): { ids: string[]; total: number } {
    const pattern = options.query === undefined || options.query.trim() === '' ? null : likePattern(options.query.trim());
    const rows = this.pageStatement.all({ pattern, limit: options.limit, offset: options.offset });
    return {
      ids: rows.map((row) => SessionIdRow.parse(row).id),
      total: z.number().parse(this.countStatement.get({ pattern })),
    };
  }

  tokenTotals(sessionId: string): TokenTotals {
    const row = TotalsRow.parse(this.totalsStatement.get(sessionId));
    return {
      input: row.input,
      output: row.output,
      sent: row.sent === null ? null : Math.round(row.sent),
      keepEverything: row.keep_everything === null ? null : Math.round(row.keep_everything),
    };
  }

  /** Step ids of a session (or one of its turns) in timeline order, one page of them. */
  stepPage(options: { sessionId: string; turnId: string | undefined; limit: number; offset: number }): { ids: string[]; total: number } {
    const scope = { sessionId: options.sessionId, turnId: options.turnId ?? null };
    const rows = this.stepPageStatement.all({ ...scope, limit: options.limit, offset: options.offset });
    return { ids: rows.map((row) => StepIdRow.parse(row).id), total: z.number().parse(this.stepCountStatement.get(scope)) };
  }

  counts(sessionId: string): { turns: number; steps: number } {
    return CountsRow.parse(this.countsStatement.get({ id: sessionId }));
  }

  turnStepCounts(sessionId: string): Map<string, number> {
    const rows = this.turnStepCountsStatement.all(sessionId).map((row) => TurnStepCountRow.parse(row));
    return new Map(rows.map((row) => [row.turn_id, row.steps]));
  }
}
