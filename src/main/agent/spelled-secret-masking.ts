/**
 * Masking the pieces of a secret spelled over several calls (spelled-secrets.ts) where each was written: by
 * place, since a piece ("s", "k+-") is too short to be found by value. In the model's call as stored, in its
 * protocol's shape (the paths its tool reported, and the reply's text for a call written there: UI-TARS's);
 * in the step's action and result (each action that typed, and the operator's "pressed …" and "held … for");
 * in the tool message the model reads next. What a piece typed becomes `[redacted]`, as a configured secret
 * does everywhere else.
 */
import type { ComputerAction } from '../../shared/actions.js';
import type { AssistantMessage, MessagePart, ToolMessage } from '../../shared/messages.js';
import { REDACTED } from '../../shared/secret-redaction.js';
import type { DialectWire } from '../llm/dialects/dialect-wire.js';
import type { Storage } from '../storage/index.js';
import { maskedAtPaths, typedField, withTypedValue } from './password-masking.js';
import type { ToolResult, WrittenTyping } from './tools/tool-definition.js';

/** Where a recorded piece is: its call, in which stored reply, and the rows its result was recorded in. */
export interface SpelledPieceRows {
  callId: string;
  /** The assistant message that holds the call; none when it could not be stored. */
  callsMessageId: string | undefined;
  stepId: string;
  toolMessageId: string;
  typing: readonly WrittenTyping[];
}

export type MaskWrittenCall = DialectWire['maskWrittenCall'];

/** A call's result, before it is recorded, with what its actions typed masked in its text and its step record. */
export function maskedSpelledResult(result: ToolResult, typing: readonly WrittenTyping[]): ToolResult {
  const mask = detailMasker(typing);
  const record = result.record;
  return {
    ...result,
    parts: maskedParts(result.parts, mask),
    ...(record === undefined
      ? {}
      : {
          record: {
            ...record,
            ...(record.action === undefined ? {} : { action: maskedJson(record.action, mask) }),
            ...(record.result === undefined ? {} : { result: maskedJson(record.result, mask) }),
          },
        }),
  };
}

/** The stored reply with the call's typing masked: at its paths, and in the reply's text where the dialect wrote it. */
export function maskedSpelledCall(message: AssistantMessage, callId: string, typing: readonly WrittenTyping[], maskWrittenCall: MaskWrittenCall): AssistantMessage {
  const paths = typing.map((each) => each.path);
  const placed: AssistantMessage = {
    ...message,
    toolCalls: message.toolCalls.map((call) => (call.id === callId ? { ...call, argumentsText: maskedAtPaths(call.argumentsText, paths, REDACTED) } : call)),
  };
  return maskWrittenCall?.(placed, callId, REDACTED) ?? placed;
}

/**
 * Rewrites the rows a piece's result was recorded in before the secret was known: its step and its tool
 * message (its call, in the stored reply, is the turn's: maskedSpelledCall). A row no longer there (its
 * session was deleted) is passed over; rows are rewritten only where they change.
 */
export function maskStoredPiece(storage: Storage, rows: SpelledPieceRows): void {
  const mask = detailMasker(rows.typing);
  storage.transaction(() => {
    const step = storage.steps.get(rows.stepId);
    if (step !== undefined) {
      const texts = { action: step.action, thought: step.thought, result: step.result, error: step.error };
      const masked = { ...texts, action: maskedJson(step.action, mask), result: maskedJson(step.result, mask), error: step.error === null ? null : mask(step.error) };
      if (JSON.stringify(masked) !== JSON.stringify(texts)) storage.steps.rewriteTexts(step.id, masked);
    }
    const tool = storage.messages.get(rows.toolMessageId)?.message;
    if (tool?.role === 'tool') {
      const masked: ToolMessage = { ...tool, parts: maskedParts(tool.parts, mask) };
      if (JSON.stringify(masked) !== JSON.stringify(tool)) storage.messages.rewriteResult(rows.toolMessageId, masked);
    }
  });
}

function maskedParts(parts: readonly MessagePart[], mask: (text: string) => string): MessagePart[] {
  return parts.map((part): MessagePart => (part.type === 'text' ? { ...part, text: mask(part.text) } : part));
}

/**
 * A step's action or result with every action in it that types masked (the step's own, and each of a
 * batch's), and the operator's words for its keys in every string.
 */
function maskedJson<T>(value: T, mask: (text: string) => string): T {
  if (typeof value === 'string') return mask(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => maskedJson(item, mask)) as T;
  if (typeof value !== 'object' || value === null) return value;
  if (isTypingAction(value)) return withTypedValue(value, REDACTED) as T;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, maskedJson(item, mask)])) as T;
}

function isTypingAction(value: object): value is ComputerAction {
  const action = value as Partial<ComputerAction>;
  if (typeof action.action !== 'string') return false;
  const field = typedField(action as ComputerAction);
  return field !== undefined && typeof (value as Record<string, unknown>)[field] === 'string';
}

/**
 * The operator's words for the keys the pieces pressed (action-performer.ts: "pressed s+k", "held s for 1 s")
 * with the keys masked. Only those words: a one-letter key masked wherever it occurs would garble the text.
 */
function detailMasker(typing: readonly WrittenTyping[]): (text: string) => string {
  const keys = [...new Set(typing.flatMap(({ action }) => (action.action === 'key' || action.action === 'hold_key' ? [action.keys] : [])))];
  if (keys.length === 0) return (text) => text;
  const written = keys.sort((first, second) => second.length - first.length).map(escapedForPattern).join('|');
  const words = new RegExp(`\\b(pressed|held) (?:${written})(?=$|[\\s;])`, 'g');
  return (text) => text.replace(words, `$1 ${REDACTED}`);
}

function escapedForPattern(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
