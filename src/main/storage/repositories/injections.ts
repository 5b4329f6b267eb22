/**
 * A record of each ephemeral injection into a request (a reminder, the current time, a safety notice):
 * its type and length only. The content itself is never stored, so nothing private lands on disk.
 */
import { z } from 'zod';
import { newId } from '../../../shared/ids.js';
import type { Database } from '../database.js';
import { isoTime, type Clock } from '../time.js';
import { parseRow, parseRows } from './columns.js';

export interface InjectionRecord {
  id: string;
  sessionId: string;
  turnId: string | null;
  type: string;
  contentLength: number;
  createdAt: string;
}

export interface NewInjection {
  sessionId: string;
  turnId: string | null;
  type: string;
  contentLength: number;
}

const InjectionRow = z
  .object({
    id: z.string(),
    session_id: z.string(),
    turn_id: z.string().nullable(),
    type: z.string(),
    content_length: z.number().int(),
    created_at: z.string(),
  })
  .transform(
    (row): InjectionRecord => ({
      id: row.id,
      sessionId: row.session_id,
      turnId: row.turn_id,
      type: row.type,
      contentLength: row.content_length,
      createdAt: row.created_at,
    }),
  );

export class InjectionsRepository {
  private readonly insertStatement;
  private readonly listByTurnStatement;
  private readonly listBySessionStatement;

  constructor(
    database: Database,
    private readonly clock: Clock,
  ) {
    this.insertStatement = database.prepare(
      `INSERT INTO injections (id, session_id, turn_id, type, content_length, created_at)
       VALUES (@id, @sessionId, @turnId, @type, @contentLength, @createdAt)
       RETURNING *`,
    );
    this.listByTurnStatement = database.prepare('SELECT * FROM injections WHERE turn_id = ? ORDER BY created_at, rowid');
    this.listBySessionStatement = database.prepare(
      'SELECT * FROM injections WHERE session_id = ? ORDER BY created_at, rowid',
    );
  }

  record(injection: NewInjection): InjectionRecord {
    const row: unknown = this.insertStatement.get({
      id: newId('injection'),
      sessionId: injection.sessionId,
      turnId: injection.turnId,
      type: injection.type,
      contentLength: injection.contentLength,
      createdAt: isoTime(this.clock),
    });
    return parseRow(InjectionRow, row, 'injections');
  }

  listByTurn(turnId: string): InjectionRecord[] {
    return parseRows(InjectionRow, this.listByTurnStatement.all(turnId), 'injections');
  }

  listBySession(sessionId: string): InjectionRecord[] {
    return parseRows(InjectionRow, this.listBySessionStatement.all(sessionId), 'injections');
  }
}
