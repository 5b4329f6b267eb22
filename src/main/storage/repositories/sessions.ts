/** Sessions: one conversation with the agent, made of turns. */
import { z } from 'zod';
import { newId } from '../../../shared/ids.js';
import { SESSION_STATUSES, type SessionStatus } from '../../../shared/statuses.js';
import type { Database } from '../database.js';
import { isoTime, type Clock } from '../time.js';
import { parseRow, parseRows } from './columns.js';
import { keepText, type RedactStoredText } from '../stored-text.js';

export interface SessionRecord {
  id: string;
  title: string;
  status: SessionStatus;
  operator: string | null;
  model: string | null;
  /** The flow that ran this session (`sightline flow`, the SDK's `flow` option); null for other sessions. */
  flowName: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface SessionSummary extends SessionRecord {
  turnCount: number;
  stepCount: number;
}

/** One page of session summaries and how many sessions match in all. */
export interface SessionSummaryPage {
  sessions: SessionSummary[];
  total: number;
}

export interface SessionSummaryQuery {
  /** Text the title or a turn's request contains (case-insensitive for ASCII); blank or absent matches all. */
  matching?: string | undefined;
  limit: number;
  offset: number;
}

export interface NewSession {
  title: string;
  operator?: string | null;
  model?: string | null;
  flowName?: string | null;
  status?: SessionStatus;
}

export interface SessionChanges {
  title?: string;
  status?: SessionStatus;
  operator?: string | null;
  model?: string | null;
}

const sessionRowFields = {
  id: z.string(),
  title: z.string(),
  status: z.enum(SESSION_STATUSES),
  operator: z.string().nullable(),
  model: z.string().nullable(),
  flow_name: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
};

function toSessionRecord(row: z.output<z.ZodObject<typeof sessionRowFields>>): SessionRecord {
  return {
    id: row.id,
    title: row.title,
    status: row.status,
    operator: row.operator,
    model: row.model,
    flowName: row.flow_name,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const SessionRow = z.object(sessionRowFields).transform(toSessionRecord);

const SessionSummaryRow = z
  .object({ ...sessionRowFields, turn_count: z.number().int(), step_count: z.number().int() })
  .transform((row): SessionSummary => ({ ...toSessionRecord(row), turnCount: row.turn_count, stepCount: row.step_count }));

/** The turns and steps a session holds, counted beside its columns. */
const SUMMARY_COLUMNS = `sessions.*,
  (SELECT COUNT(*) FROM turns WHERE turns.session_id = sessions.id) AS turn_count,
  (SELECT COUNT(*) FROM steps WHERE steps.session_id = sessions.id) AS step_count`;

/** A session whose title or a turn's request is LIKE @pattern; a NULL pattern matches every session. */
const MATCHES_PATTERN = `(@pattern IS NULL
  OR sessions.title LIKE @pattern ESCAPE '\\'
  OR EXISTS (SELECT 1 FROM turns WHERE turns.session_id = sessions.id AND turns.user_request LIKE @pattern ESCAPE '\\'))`;

/** `%` and `_` in what the user typed are literal characters, not wildcards. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

export class SessionsRepository {
  private readonly insertStatement;
  private readonly getStatement;
  private readonly listStatement;
  private readonly countStatement;
  private readonly updateStatement;
  private readonly summaryStatement;
  private readonly matchingPageStatement;
  private readonly matchingCountStatement;

  constructor(
    database: Database,
    private readonly clock: Clock,
    private readonly redact: RedactStoredText = keepText,
  ) {
    this.insertStatement = database.prepare(
      `INSERT INTO sessions (id, title, status, operator, model, flow_name, created_at, updated_at)
       VALUES (@id, @title, @status, @operator, @model, @flowName, @createdAt, @createdAt) RETURNING *`,
    );
    this.getStatement = database.prepare('SELECT * FROM sessions WHERE id = ?');
    this.listStatement = database.prepare(
      `SELECT ${SUMMARY_COLUMNS} FROM sessions ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?`,
    );
    this.summaryStatement = database.prepare(`SELECT ${SUMMARY_COLUMNS} FROM sessions WHERE id = ?`);
    this.matchingPageStatement = database.prepare(
      `SELECT ${SUMMARY_COLUMNS} FROM sessions WHERE ${MATCHES_PATTERN}
       ORDER BY sessions.created_at DESC, sessions.rowid DESC LIMIT @limit OFFSET @offset`,
    );
    this.matchingCountStatement = database.prepare(`SELECT COUNT(*) FROM sessions WHERE ${MATCHES_PATTERN}`).pluck();
    this.countStatement = database.prepare('SELECT COUNT(*) FROM sessions').pluck();
    this.updateStatement = database.prepare(
      `UPDATE sessions SET title = @title, status = @status, operator = @operator, model = @model,
              updated_at = @updatedAt
       WHERE id = @id RETURNING *`,
    );
  }

  create(session: NewSession): SessionRecord {
    const row: unknown = this.insertStatement.get({
      id: newId('session'),
      title: this.redact(session.title),
      status: session.status ?? 'idle',
      operator: session.operator ?? null,
      model: session.model ?? null,
      flowName: session.flowName === undefined || session.flowName === null ? null : this.redact(session.flowName),
      createdAt: isoTime(this.clock),
    });
    return parseRow(SessionRow, row, 'sessions');
  }

  get(id: string): SessionRecord | undefined {
    const row: unknown = this.getStatement.get(id);
    return row === undefined ? undefined : parseRow(SessionRow, row, 'sessions');
  }

  /** Newest first, with how many turns and steps each holds (for listings). */
  list(options: { limit?: number; offset?: number } = {}): SessionSummary[] {
    const rows = this.listStatement.all(options.limit ?? -1, options.offset ?? 0);
    return parseRows(SessionSummaryRow, rows, 'sessions');
  }

  /** A page of the sessions that match, newest first, with their counts; and how many match in all. */
  summaries(query: SessionSummaryQuery): SessionSummaryPage {
    const text = query.matching?.trim() ?? '';
    const pattern = text === '' ? null : likePattern(text);
    const rows = this.matchingPageStatement.all({ pattern, limit: query.limit, offset: query.offset });
    return {
      sessions: parseRows(SessionSummaryRow, rows, 'sessions'),
      total: z.number().parse(this.matchingCountStatement.get({ pattern })),
    };
  }

  /** One session with how many turns and steps it holds. */
  summary(id: string): SessionSummary | undefined {
    const row: unknown = this.summaryStatement.get(id);
    return row === undefined ? undefined : parseRow(SessionSummaryRow, row, 'sessions');
  }

  count(): number {
    return z.number().parse(this.countStatement.get());
  }

  update(id: string, changes: SessionChanges): SessionRecord {
    const current = this.require(id);
    const row: unknown = this.updateStatement.get({
      id,
      title: changes.title === undefined ? current.title : this.redact(changes.title),
      status: changes.status ?? current.status,
      operator: changes.operator === undefined ? current.operator : changes.operator,
      model: changes.model === undefined ? current.model : changes.model,
      updatedAt: isoTime(this.clock),
    });
    return parseRow(SessionRow, row, 'sessions');
  }

  setStatus(id: string, status: SessionStatus): SessionRecord {
    return this.update(id, { status });
  }

  require(id: string): SessionRecord {
    const session = this.get(id);
    if (session === undefined) throw new Error(`No session ${id}.`);
    return session;
  }
}
