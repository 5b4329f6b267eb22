/**
 * Text typed into a password field is never stored: the step's action keeps that something was typed,
 * not what. The operators' own details ("pressed s 3 c r e t") are replaced the same way, since they
 * reach the tool result that is stored with the messages; and the model's own call, stored before it ran
 * (the focus is read only when it runs), is masked afterwards, with the thought that may repeat it.
 */
import type { ComputerAction } from '../../shared/actions.js';
import type { AssistantMessage, MessagePart } from '../../shared/messages.js';
import { spelledText } from './spelled-text.js';
import { typingPieces } from './typing-pieces.js';

export const MASKED_PASSWORD = '[password]';

/**
 * Shorter typed strings are masked in free text only where a whole JSON value equals them: replacing two
 * letters wherever they occur would garble the stored text without hiding more than it already shows.
 */
const MIN_MASKED_SUBSTRING_LENGTH = 4;

/** The action as it is stored when it typed into a password field. */
export function maskedTyping(action: ComputerAction): ComputerAction {
  if (action.action === 'type') return { action: 'type', text: MASKED_PASSWORD };
  if (action.action === 'key') return { action: 'key', keys: MASKED_PASSWORD };
  return action;
}

/** What the model and the stored result are told an action into a password field did. */
export function maskedDetail(action: ComputerAction): string {
  return action.action === 'type' ? `typed ${action.text.length} characters into a password field` : 'pressed keys into a password field';
}

/** The strings that would give away what an action typed: as written, as spelled, and each piece of it. */
export function typedStrings(action: ComputerAction): string[] {
  const written = action.action === 'type' ? [action.text] : action.action === 'key' ? [action.keys, spelledText(action.keys)] : [];
  const pieces = typingPieces(action).flatMap((piece) => (piece.action === 'type' ? [piece.text] : []));
  return [...new Set([...written, ...pieces])].filter((text) => text !== '');
}

/** A text with every occurrence of the typed strings (long enough to find) masked. */
export function maskTyped(text: string, typed: readonly string[]): string {
  return typed
    .filter((secret) => secret.length >= MIN_MASKED_SUBSTRING_LENGTH)
    .sort((first, second) => second.length - first.length)
    .reduce((result, secret) => result.split(secret).join(MASKED_PASSWORD), text);
}

/** The assistant message with the typed strings masked in its text and in its calls' arguments. */
export function maskedAssistantMessage(message: AssistantMessage, typed: readonly string[]): AssistantMessage {
  return {
    ...message,
    parts: message.parts.map((part): MessagePart => (part.type === 'text' ? { ...part, text: maskTyped(part.text, typed) } : part)),
    toolCalls: message.toolCalls.map((call) => ({ ...call, argumentsText: maskedArgumentsText(call.argumentsText, typed) })),
  };
}

/** JSON arguments are masked value by value, so that the text stays valid JSON; other text as text. */
function maskedArgumentsText(argumentsText: string, typed: readonly string[]): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(argumentsText);
  } catch {
    return maskTyped(argumentsText, typed);
  }
  return JSON.stringify(maskedJsonValue(parsed, typed));
}

function maskedJsonValue(value: unknown, typed: readonly string[]): unknown {
  if (typeof value === 'string') return typed.includes(value) ? MASKED_PASSWORD : maskTyped(value, typed);
  if (Array.isArray(value)) return value.map((item) => maskedJsonValue(item, typed));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, maskedJsonValue(item, typed)]));
  }
  return value;
}
