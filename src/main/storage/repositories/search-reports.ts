/** What the search sub-agent found for a question: its queries, its sources and its answer. */
import { z } from 'zod';
import { newId } from '../../../shared/ids.js';
import type { Database } from '../database.js';
import { isoTime, type Clock } from '../time.js';
import { jsonArrayColumn, parseRow, parseRows, toJson } from './columns.js';
import { keepText, redactedValue, type RedactStoredText } from '../stored-text.js';

export interface SearchReportRecord {
  id: string;
  sessionId: string;
  turnId: string | null;
  question: string;
  queries: unknown[];
  /** Sources as the search layer describes them (url, title, excerpt…); storage does not interpret them. */
  sources: unknown[];
  answer: string;
  /** 0 to 1, when the sub-agent gave one. */
  confidence: number | null;
  iterations: number;
  durationMs: number | null;
  createdAt: string;
}

export interface NewSearchReport {
  sessionId: string;
  turnId: string | null;
  question: string;
  queries: unknown[];
  sources: unknown[];
  answer: string;
  confidence?: number | null;
  iterations?: number;
  durationMs?: number | null;
}

const SearchReportRow = z
  .object({
    id: z.string(),
    session_id: z.string(),
    turn_id: z.string().nullable(),
    question: z.string(),
    queries: jsonArrayColumn,
    sources: jsonArrayColumn,
    answer: z.string(),
    confidence: z.number().nullable(),
    iterations: z.number().int(),
    duration_ms: z.number().int().nullable(),
    created_at: z.string(),
  })
  .transform(
    (row): SearchReportRecord => ({
      id: row.id,
      sessionId: row.session_id,
      turnId: row.turn_id,
      question: row.question,
      queries: row.queries,
      sources: row.sources,
      answer: row.answer,
      confidence: row.confidence,
      iterations: row.iterations,
      durationMs: row.duration_ms,
      createdAt: row.created_at,
    }),
  );

export class SearchReportsRepository {
  private readonly insertStatement;
  private readonly getStatement;
  private readonly listBySessionStatement;
  private readonly listByTurnStatement;
  private readonly rewriteTextsStatement;

  constructor(
    database: Database,
    private readonly clock: Clock,
    private readonly redact: RedactStoredText = keepText,
  ) {
    this.insertStatement = database.prepare(
      `INSERT INTO search_reports (id, session_id, turn_id, question, queries, sources, answer, confidence,
                                   iterations, duration_ms, created_at)
       VALUES (@id, @sessionId, @turnId, @question, @queries, @sources, @answer, @confidence, @iterations,
               @durationMs, @createdAt)
       RETURNING *`,
    );
    this.getStatement = database.prepare('SELECT * FROM search_reports WHERE id = ?');
    this.listBySessionStatement = database.prepare(
      'SELECT * FROM search_reports WHERE session_id = ? ORDER BY created_at, rowid',
    );
    this.listByTurnStatement = database.prepare(
      'SELECT * FROM search_reports WHERE turn_id = ? ORDER BY created_at, rowid',
    );
    this.rewriteTextsStatement = database.prepare(
      'UPDATE search_reports SET question = @question, queries = @queries, sources = @sources, answer = @answer WHERE id = @id RETURNING *',
    );
  }

  /** Replaces a report's texts with a masked form of them (what was typed into a password field, found in it later). */
  rewriteTexts(id: string, texts: Pick<SearchReportRecord, 'question' | 'queries' | 'sources' | 'answer'>): SearchReportRecord {
    const row: unknown = this.rewriteTextsStatement.get({
      id,
      question: this.redact(texts.question),
      queries: toJson(redactedValue(texts.queries, this.redact)),
      sources: toJson(redactedValue(texts.sources, this.redact)),
      answer: this.redact(texts.answer),
    });
    if (row === undefined) throw new Error(`There is no search report ${id}.`);
    return parseRow(SearchReportRow, row, 'search_reports');
  }

  add(report: NewSearchReport): SearchReportRecord {
    const row: unknown = this.insertStatement.get({
      id: newId('searchReport'),
      sessionId: report.sessionId,
      turnId: report.turnId,
      question: this.redact(report.question),
      queries: toJson(redactedValue(report.queries, this.redact)),
      sources: toJson(redactedValue(report.sources, this.redact)),
      answer: this.redact(report.answer),
      confidence: report.confidence ?? null,
      iterations: report.iterations ?? 0,
      durationMs: report.durationMs ?? null,
      createdAt: isoTime(this.clock),
    });
    return parseRow(SearchReportRow, row, 'search_reports');
  }

  get(id: string): SearchReportRecord | undefined {
    const row: unknown = this.getStatement.get(id);
    return row === undefined ? undefined : parseRow(SearchReportRow, row, 'search_reports');
  }

  listBySession(sessionId: string): SearchReportRecord[] {
    return parseRows(SearchReportRow, this.listBySessionStatement.all(sessionId), 'search_reports');
  }

  listByTurn(turnId: string): SearchReportRecord[] {
    return parseRows(SearchReportRow, this.listByTurnStatement.all(turnId), 'search_reports');
  }
}
