/**
 * Messages of the conversation, in order: one src/shared `Message` per row. Image parts are stored with
 * their image id only, never pixels, so the database stays small and a request is rebuilt from ids when
 * it is sent (the context layer fills the pixels in).
 */
import { z } from 'zod';
import { newId } from '../../../shared/ids.js';
import {
  AssistantMessageSchema,
  MESSAGE_ROLES,
  MessagePartSchema,
  MessageSchema,
  ToolCallSchema,
  ToolMessageSchema,
  type AssistantMessage,
  type Message,
  type MessagePart,
  type MessageRole,
  type ToolMessage,
} from '../../../shared/messages.js';
import type { Database } from '../database.js';
import { isoTime, type Clock } from '../time.js';
import { booleanColumn, booleanToColumn, jsonColumn, nullableJsonColumn, parseRow, parseRows, toJson, toNullableJson } from './columns.js';
import { keepText, redactedValue, type RedactStoredText } from '../stored-text.js';

export interface MessageRecord {
  id: string;
  sessionId: string;
  /** NULL for rows written before turns existed; such rows are never compacted. */
  turnId: string | null;
  /** 1, 2, 3… within the session. */
  sequence: number;
  message: Message;
  isCompressed: boolean;
  createdAt: string;
}

export interface NewMessage {
  sessionId: string;
  turnId: string | null;
  message: Message;
  isCompressed?: boolean;
}

const MessageRow = z
  .object({
    id: z.string(),
    session_id: z.string(),
    turn_id: z.string().nullable(),
    sequence: z.number().int(),
    role: z.enum(MESSAGE_ROLES),
    parts: jsonColumn,
    tool_calls: jsonColumn.pipe(z.array(ToolCallSchema)).nullable(),
    tool_call_id: z.string().nullable(),
    tool_name: z.string().nullable(),
    provider_data: nullableJsonColumn,
    is_error: booleanColumn,
    is_compressed: booleanColumn,
    created_at: z.string(),
  })
  .transform(
    (row): MessageRecord => ({
      id: row.id,
      sessionId: row.session_id,
      turnId: row.turn_id,
      sequence: row.sequence,
      message: MessageSchema.parse(messageFields(row)),
      isCompressed: row.is_compressed,
      createdAt: row.created_at,
    }),
  );

function messageFields(row: {
  role: MessageRole;
  parts: unknown;
  tool_calls: z.infer<typeof ToolCallSchema>[] | null;
  tool_call_id: string | null;
  tool_name: string | null;
  provider_data: unknown;
  is_error: boolean;
}): unknown {
  switch (row.role) {
    case 'assistant':
      return { role: row.role, parts: row.parts, toolCalls: row.tool_calls ?? [] };
    case 'tool':
      return {
        role: row.role,
        parts: row.parts,
        toolCallId: row.tool_call_id,
        name: row.tool_name,
        ...(row.is_error ? { isError: true } : {}),
        ...(row.provider_data === null ? {} : { providerData: row.provider_data }),
      };
    default:
      return { role: row.role, parts: row.parts };
  }
}

export class MessagesRepository {
  private readonly insertStatement;
  private readonly getStatement;
  private readonly listBySessionStatement;
  private readonly listBySessionAfterStatement;
  private readonly listByTurnStatement;
  private readonly compressStatement;
  private readonly rewriteCallsStatement;
  private readonly rewriteResultStatement;

  constructor(
    database: Database,
    private readonly clock: Clock,
    private readonly redact: RedactStoredText = keepText,
  ) {
    // The sequence is computed inside the INSERT, so concurrent writers can never take the same number.
    this.insertStatement = database.prepare(
      `INSERT INTO messages (id, session_id, turn_id, sequence, role, parts, tool_calls, tool_call_id, tool_name,
                             provider_data, is_error, is_compressed, created_at)
       VALUES (@id, @sessionId, @turnId,
               (SELECT COALESCE(MAX(sequence), 0) + 1 FROM messages WHERE session_id = @sessionId),
               @role, @parts, @toolCalls, @toolCallId, @toolName, @providerData, @isError, @isCompressed, @createdAt)
       RETURNING *`,
    );
    this.getStatement = database.prepare('SELECT * FROM messages WHERE id = ?');
    this.listBySessionStatement = database.prepare('SELECT * FROM messages WHERE session_id = ? ORDER BY sequence');
    // Served by the (session_id, sequence) unique index: only the rows after `sequence` are visited.
    this.listBySessionAfterStatement = database.prepare(
      'SELECT * FROM messages WHERE session_id = ? AND sequence > ? ORDER BY sequence',
    );
    this.listByTurnStatement = database.prepare('SELECT * FROM messages WHERE turn_id = ? ORDER BY sequence');
    this.compressStatement = database.prepare(
      'UPDATE messages SET parts = @parts, is_compressed = 1 WHERE id = @id AND turn_id IS NOT NULL RETURNING *',
    );
    this.rewriteCallsStatement = database.prepare(
      "UPDATE messages SET parts = @parts, tool_calls = @toolCalls WHERE id = @id AND role = 'assistant' RETURNING *",
    );
    this.rewriteResultStatement = database.prepare(
      "UPDATE messages SET parts = @parts, provider_data = @providerData WHERE id = @id AND role = 'tool' RETURNING *",
    );
  }

  append(entry: NewMessage): MessageRecord {
    const message = redactedValue(MessageSchema.parse(entry.message), this.redact);
    assertNoPixels(message.parts);
    const row: unknown = this.insertStatement.get({
      id: newId('message'),
      sessionId: entry.sessionId,
      turnId: entry.turnId,
      role: message.role,
      parts: toJson(message.parts),
      toolCalls: message.role === 'assistant' ? toJson(message.toolCalls) : null,
      toolCallId: message.role === 'tool' ? message.toolCallId : null,
      toolName: message.role === 'tool' ? message.name : null,
      providerData: message.role === 'tool' ? toNullableJson(message.providerData) : null,
      isError: booleanToColumn(message.role === 'tool' && message.isError === true),
      isCompressed: booleanToColumn(entry.isCompressed),
      createdAt: isoTime(this.clock),
    });
    return parseRow(MessageRow, row, 'messages');
  }

  get(id: string): MessageRecord | undefined {
    const row: unknown = this.getStatement.get(id);
    return row === undefined ? undefined : parseRow(MessageRow, row, 'messages');
  }

  listBySession(sessionId: string): MessageRecord[] {
    return parseRows(MessageRow, this.listBySessionStatement.all(sessionId), 'messages');
  }

  /** The session's messages written after the one numbered `sequence`, in order: what a reader that has seen up to it lacks. */
  listBySessionAfter(sessionId: string, sequence: number): MessageRecord[] {
    return parseRows(MessageRow, this.listBySessionAfterStatement.all(sessionId, sequence), 'messages');
  }

  listByTurn(turnId: string): MessageRecord[] {
    return parseRows(MessageRow, this.listByTurnStatement.all(turnId), 'messages');
  }

  /**
   * Replaces a message's parts with their compacted form (placeholders for folded images) and marks it
   * compressed. Messages without a turn (older data) are refused: compaction never touches them.
   */
  compress(id: string, parts: MessagePart[]): MessageRecord {
    const checked = redactedValue(z.array(MessagePartSchema).parse(parts), this.redact);
    assertNoPixels(checked);
    const row: unknown = this.compressStatement.get({ id, parts: toJson(checked) });
    if (row === undefined) {
      const existing = this.get(id);
      throw new Error(
        existing === undefined
          ? `There is no message ${id}.`
          : `Message ${id} has no turn (older data) and is never compacted.`,
      );
    }
    return parseRow(MessageRow, row, 'messages');
  }

  /**
   * Replaces an assistant message's parts and calls with a masked form of them: what a call typed into a
   * password field is known only once the call ran, after the message was stored.
   */
  rewriteCalls(id: string, message: AssistantMessage): MessageRecord {
    const checked = redactedValue(AssistantMessageSchema.parse(message), this.redact);
    assertNoPixels(checked.parts);
    const row: unknown = this.rewriteCallsStatement.get({ id, parts: toJson(checked.parts), toolCalls: toJson(checked.toolCalls) });
    if (row === undefined) throw new Error(`There is no assistant message ${id}.`);
    return parseRow(MessageRow, row, 'messages');
  }

  /**
   * Replaces a tool message's parts and provider data with a masked form of them (a later call typed into a
   * password field what an earlier result repeats). Its call id, name and error flag stay.
   */
  rewriteResult(id: string, message: ToolMessage): MessageRecord {
    const checked = redactedValue(ToolMessageSchema.parse(message), this.redact);
    assertNoPixels(checked.parts);
    const row: unknown = this.rewriteResultStatement.get({ id, parts: toJson(checked.parts), providerData: toNullableJson(checked.providerData) });
    if (row === undefined) throw new Error(`There is no tool message ${id}.`);
    return parseRow(MessageRow, row, 'messages');
  }
}

/**
 * Stored image parts name an image by id (a generated one by its mediaId); pixels (base64 data or a data
 * URL) belong in the blob store. Audio a model generated is stored the same way, by its mediaId.
 */
function assertNoPixels(parts: readonly MessagePart[]): void {
  for (const part of parts) {
    if (part.type === 'audio' && part.mediaId !== undefined && part.data !== undefined) {
      throw new Error('A generated audio part to store holds its bytes; store them and keep only its mediaId.');
    }
    if (part.type !== 'image') continue;
    if (part.data !== undefined || part.url?.startsWith('data:') === true) {
      throw new Error('An image part to store holds pixels; store the image and keep only its imageId.');
    }
    if (part.imageId === undefined && part.mediaId === undefined && part.url === undefined) {
      throw new Error('An image part to store needs an imageId.');
    }
  }
}
