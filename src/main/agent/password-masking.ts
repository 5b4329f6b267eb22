/**
 * Text typed into a password field is never stored: the step's action keeps that something was typed,
 * not what. The operators' own details ("pressed s 3 c r e t") are replaced the same way, since they
 * reach the tool result that is stored with the messages; and the model's own call, stored before it ran
 * (the focus is read only when it runs), is masked afterwards, with the thought that may repeat it.
 */
import type { ComputerAction } from '../../shared/actions.js';
import type { AssistantMessage, MessagePart, ToolMessage } from '../../shared/messages.js';
import { redactStrings } from '../../shared/secret-redaction.js';
import { spelledText } from './spelled-text.js';
import { typingPieces } from './typing-pieces.js';

export const MASKED_PASSWORD = '[password]';

/**
 * Shorter typed strings are masked in free text only where a whole JSON value equals them: replacing two
 * letters wherever they occur would garble the stored text without hiding more than it already shows.
 */
export const MIN_MASKED_SUBSTRING_LENGTH = 4;

/** The action as it is stored when it typed into a password field. */
export function maskedTyping(action: ComputerAction): ComputerAction {
  return withTypedValue(action, MASKED_PASSWORD);
}

/** What a typing action types, as a person reads it: `type`'s text, or the text its keys spell. */
export function typedText(action: ComputerAction): string {
  if (action.action === 'type') return action.text;
  return action.action === 'key' || action.action === 'hold_key' ? spelledText(action.keys) : '';
}

/** The action with what it types replaced by `value` (`type`'s text, `key`'s and `hold_key`'s keys). */
export function withTypedValue(action: ComputerAction, value: string): ComputerAction {
  if (action.action === 'type') return { ...action, text: value };
  if (action.action === 'key' || action.action === 'hold_key') return { ...action, keys: value };
  return action;
}

/** What the model and the stored result are told an action into a password field did. */
export function maskedDetail(action: ComputerAction): string {
  return action.action === 'type' ? `typed ${action.text.length} characters into a password field` : 'pressed keys into a password field';
}

/**
 * What a paste or a drop put into a field, from its text before and after: what lies between the part they
 * share at the start and the part they share at the end (a paste over a selection replaces it).
 */
export function landedText(before: string, after: string): string {
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start += 1;
  let end = 0;
  while (end < before.length - start && end < after.length - start && before[before.length - 1 - end] === after[after.length - 1 - end]) end += 1;
  return after.slice(start, after.length - end);
}

/** What the model and the stored result are told a paste or a drop into a password field did: how much, never what. */
export function filledDetail(how: 'pasted' | 'dropped', done: string, landed: string | undefined): string {
  const amount = landed === undefined ? 'text' : `${landed.length} character${landed.length === 1 ? '' : 's'}`;
  return `${done}: ${amount} ${how} into a password field`;
}

/** The strings that would give away what an action typed: as written, as spelled, and each piece of it. */
export function typedStrings(action: ComputerAction): string[] {
  const written = action.action === 'key' || action.action === 'hold_key' ? [action.keys, typedText(action)] : [typedText(action)];
  const pieces = typingPieces(action).flatMap((piece) => (piece.action === 'type' ? [piece.text] : []));
  return [...new Set([...written, ...pieces])].filter((text) => text !== '');
}

/**
 * A text with every occurrence of the typed strings (long enough to find) masked. Masking again changes
 * nothing: a stored row is masked each time the session learns another password, and a password that is
 * a piece of the mask itself ("password") must not mask the mask.
 */
export function maskTyped(text: string, typed: readonly string[]): string {
  return typedMasker(typed)(text);
}

/**
 * maskTyped for one set of typed strings, its pattern compiled once: for masking many texts (every streamed
 * piece, every string of an event or a stored row) with the same passwords.
 */
export function typedMasker(typed: readonly string[]): (text: string) => string {
  const findable = typed.filter((secret) => secret.length >= MIN_MASKED_SUBSTRING_LENGTH).sort((first, second) => second.length - first.length);
  if (findable.length === 0) return (text) => text;
  // One pass over the text, longest first at each place, so a mask just written is never searched again.
  const occurrences = new RegExp(findable.map(escapedForPattern).join('|'), 'g');
  return (text) =>
    text
      .split(MASKED_PASSWORD)
      .map((piece) => piece.replace(occurrences, MASKED_PASSWORD))
      .join(MASKED_PASSWORD);
}

function escapedForPattern(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * What a person is asked to approve for an action into a password field: that it types, and how much,
 * never what (the confirmation is shown in the terminal, the app and the events).
 */
export function maskedForApproval(action: ComputerAction): ComputerAction {
  const length = typedText(action).length;
  return withTypedValue(action, `[password: ${length} character${length === 1 ? '' : 's'}]`);
}

/**
 * The assistant message with the typed strings masked in its text, in its calls' arguments, and in the
 * reasoning summaries that came with them (OpenAI's; the encrypted reasoning cannot be read, so cannot hold
 * anything readable).
 */
export function maskedAssistantMessage(message: AssistantMessage, typed: readonly string[]): AssistantMessage {
  const mask = typedMasker(typed);
  return {
    ...message,
    parts: maskedParts(message.parts, mask),
    toolCalls: message.toolCalls.map((call) => {
      const reasoning = call.providerData?.reasoning;
      return {
        ...call,
        argumentsText: maskedArgumentsText(call.argumentsText, typed, mask),
        ...(reasoning === undefined
          ? {}
          : { providerData: { ...call.providerData, reasoning: reasoning.map((item) => ({ ...item, summary: item.summary.map(mask) })) } }),
      };
    }),
  };
}

/** A tool message with the typed strings masked in its text and in the URL it carries. */
export function maskedToolMessage(message: ToolMessage, typed: readonly string[]): ToolMessage {
  const mask = typedMasker(typed);
  const url = message.providerData?.currentUrl;
  return {
    ...message,
    parts: maskedParts(message.parts, mask),
    ...(url === undefined ? {} : { providerData: { ...message.providerData, currentUrl: mask(url) } }),
  };
}

function maskedParts(parts: readonly MessagePart[], mask: (text: string) => string): MessagePart[] {
  return parts.map((part): MessagePart => (part.type === 'text' ? { ...part, text: mask(part.text) } : part));
}

/**
 * Where, in a call's arguments as the model wrote them, a tool found what it typed: keys and indexes into
 * the JSON (`['actions', 2, 'keys']`). Each tool knows its own protocol's shape; masking by place catches
 * what masking by value cannot, a key list spelled one letter per entry (`["h", "u", "n"]`).
 */
export type ArgumentPath = ReadonlyArray<string | number>;

/**
 * The call's arguments with the value at each path masked (by `mask`: a typed password's, or a spelled
 * secret's `[redacted]`), the shape kept (a list stays a list) so that the stored call can go back to its
 * provider; arguments that are not JSON, or a path that is not there, are left to masking by value.
 */
export function maskedAtPaths(argumentsText: string, paths: readonly ArgumentPath[], mask = MASKED_PASSWORD): string {
  if (paths.length === 0) return argumentsText;
  let parsed: unknown;
  try {
    parsed = JSON.parse(argumentsText);
  } catch {
    return argumentsText;
  }
  const masked = JSON.stringify(paths.reduce<unknown>((value, path) => maskedAtPath(value, path, mask), parsed));
  // Nothing at the paths to mask (or masked already): the model's own text stays as written.
  return masked === JSON.stringify(parsed) ? argumentsText : masked;
}

function maskedAtPath(value: unknown, path: ArgumentPath, mask: string): unknown {
  const [step, ...rest] = path;
  if (step === undefined) {
    if (typeof value === 'string') return mask;
    if (Array.isArray(value)) return [mask];
    return value;
  }
  if (typeof step === 'number') {
    if (!Array.isArray(value) || step < 0 || step >= value.length) return value;
    return value.map((item, index) => (index === step ? maskedAtPath(item, rest, mask) : item));
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !Object.hasOwn(value, step)) return value;
  return { ...value, [step]: maskedAtPath((value as Record<string, unknown>)[step], rest, mask) };
}

/** The field of a computer action (and of the native shapes that mirror it) that holds what it types. */
export function typedField(action: ComputerAction): 'text' | 'keys' | undefined {
  if (action.action === 'type') return 'text';
  if (action.action === 'key' || action.action === 'hold_key') return 'keys';
  return undefined;
}

/** JSON arguments are masked value by value, so that the text stays valid JSON; other text as text. */
function maskedArgumentsText(argumentsText: string, typed: readonly string[], mask: (text: string) => string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(argumentsText);
  } catch {
    return mask(argumentsText);
  }
  // Arguments with nothing to mask keep the model's own text, spacing and all: the history goes back as written.
  const masked = JSON.stringify(redactStrings(parsed, (value) => (typed.includes(value) ? MASKED_PASSWORD : mask(value))));
  return masked === JSON.stringify(parsed) ? argumentsText : masked;
}

