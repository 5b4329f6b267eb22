/**
 * Ephemeral context (a note, a quote, a document) reaches the model appended to the latest user message of
 * one request, and nowhere else: it is never stored in messages, so it never reaches a later turn, the
 * timeline or a compacted history.
 *
 * Each context is wrapped in markers the history reader knows, so that a block which did reach stored
 * text (written by an older version, or pasted back by a person) can be cut out again:
 *
 *   <sightline:ephemeral type="note" length="11" seal="3f9c0a12b7e4d5a6">
 *   hello world
 *   </sightline:ephemeral seal="3f9c0a12b7e4d5a6">
 *
 * Why content cannot break out of its block: the content is left as written (escaping would change what
 * the model reads), and instead
 * - the closing marker carries a seal derived from the content itself (the first 64 bits of its sha256):
 *   for the content to contain its own closing marker it would have to contain a digest of itself, which
 *   nobody can construct;
 * - the opening marker states the content's length, and the reader cuts exactly that many characters
 *   before it expects the closing marker, so a fake closing marker inside the content is just content.
 * The seal is a pure function of the content, so the same context renders to the same bytes in every
 * request of a turn and the prompt cache holds.
 */
import { createHash } from 'node:crypto';
import type { EphemeralContext } from '../../shared/ephemeral.js';
import type { Message, MessagePart, UserMessage } from '../../shared/messages.js';

/** Where the lengths go when injection is debugged; never given the content. */
export type InjectionDebugLog = (line: string) => void;

export interface InjectEphemeralOptions {
  /** Set to log the lengths before and after injection (see `injectionDebugLogFromEnvironment`). */
  debugLog?: InjectionDebugLog;
}

const OPENING_PREFIX = '<sightline:ephemeral ';
const SEAL_LENGTH = 16;
const OPENING_PATTERN = /<sightline:ephemeral type="([a-z]+)" length="(\d+)" seal="([0-9a-f]{16})">\n/g;

/** The block that carries one context, markers included. */
export function ephemeralBlock(context: EphemeralContext): string {
  const seal = sealOf(context.content);
  return (
    `<sightline:ephemeral type="${context.type}" length="${context.content.length}" seal="${seal}">\n` +
    `${context.content}\n${closingMarker(seal)}`
  );
}

/**
 * A copy of `messages` with each context appended, as its own text part, to the latest user message. The
 * input is never mutated. Without contexts, or without a user message to carry them, the messages come
 * back unchanged (the same array).
 */
export function injectEphemeral(
  messages: readonly Message[],
  contexts: readonly EphemeralContext[],
  options: InjectEphemeralOptions = {},
): Message[] {
  if (contexts.length === 0) return messages as Message[];
  const index = latestUserMessageIndex(messages);
  if (index === -1) return messages as Message[];
  const target = messages[index] as UserMessage;
  const injected: UserMessage = {
    ...target,
    parts: [...target.parts, ...contexts.map((context): MessagePart => ({ type: 'text', text: ephemeralBlock(context) }))],
  };
  const result = [...messages];
  result[index] = injected;
  options.debugLog?.(describeInjection(messages, result, target, injected, contexts));
  return result;
}

/**
 * Text with every injected block removed, markers and content alike, with the blank line that separated
 * it from the text before it. Text without blocks comes back as it was.
 */
export function stripInjectedBlocks(text: string): string {
  if (!text.includes(OPENING_PREFIX)) return text;
  let result = '';
  let position = 0;
  for (;;) {
    OPENING_PATTERN.lastIndex = position;
    const opening = OPENING_PATTERN.exec(text);
    if (opening === null) break;
    const end = blockEnd(text, opening);
    if (end === undefined) {
      // Not a block we wrote (its length or seal does not match): keep it as text and look further on.
      result += text.slice(position, opening.index + 1);
      position = opening.index + 1;
      continue;
    }
    result += trimSeparatorBefore(text.slice(position, opening.index));
    position = end;
  }
  return result + text.slice(position);
}

/**
 * Messages read from older data with injected blocks removed from their text parts; a text part left
 * empty is dropped. Messages without blocks are returned as they were (same objects), so rendering stays
 * byte-identical for them.
 */
export function stripInjectedFromMessages(messages: readonly Message[]): Message[] {
  return messages.map((message) => {
    if (!message.parts.some((part) => part.type === 'text' && part.text.includes(OPENING_PREFIX))) return message;
    const parts: MessagePart[] = [];
    for (const part of message.parts) {
      if (part.type !== 'text' || !part.text.includes(OPENING_PREFIX)) {
        parts.push(part);
        continue;
      }
      const text = stripInjectedBlocks(part.text);
      if (text.trim() !== '') parts.push({ ...part, text });
    }
    return { ...message, parts } as Message;
  });
}

/**
 * A debug log when `SIGHTLINE_DEBUG_INJECTION=1`, or `DEBUG_EPHEMERAL_INJECTION=true` (the variable the
 * injection design names), writing through `write` (stderr in the CLI); otherwise none.
 */
export function injectionDebugLogFromEnvironment(
  environment: Readonly<Record<string, string | undefined>>,
  write: (line: string) => void,
): InjectionDebugLog | undefined {
  const debugged = environment['SIGHTLINE_DEBUG_INJECTION'] === '1' || environment['DEBUG_EPHEMERAL_INJECTION'] === 'true';
  return debugged ? write : undefined;
}

function latestUserMessageIndex(messages: readonly Message[]): number {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    if (messages[index]?.role === 'user') return index;
  }
  return -1;
}

function sealOf(content: string): string {
  return createHash('sha256').update(content, 'utf8').digest('hex').slice(0, SEAL_LENGTH);
}

function closingMarker(seal: string): string {
  return `</sightline:ephemeral seal="${seal}">`;
}

/** Where the block that `opening` starts ends, if its stated length, closing marker and seal all hold. */
function blockEnd(text: string, opening: RegExpExecArray): number | undefined {
  const length = Number(opening[2]);
  const seal = opening[3] ?? '';
  const contentStart = opening.index + opening[0].length;
  const content = text.slice(contentStart, contentStart + length);
  if (content.length !== length || sealOf(content) !== seal) return undefined;
  const closing = `\n${closingMarker(seal)}`;
  const closingStart = contentStart + length;
  if (!text.startsWith(closing, closingStart)) return undefined;
  return closingStart + closing.length;
}

/** Blocks embedded in longer text were joined to it with a blank line; that separator goes with the block. */
function trimSeparatorBefore(text: string): string {
  return text.replace(/\n{1,2}$/, '');
}

function textLength(message: Message): number {
  return message.parts.reduce((total, part) => total + (part.type === 'text' ? part.text.length : 0), 0);
}

function describeInjection(
  before: readonly Message[],
  after: readonly Message[],
  targetBefore: Message,
  targetAfter: Message,
  contexts: readonly EphemeralContext[],
): string {
  const totalBefore = before.reduce((total, message) => total + textLength(message), 0);
  const totalAfter = after.reduce((total, message) => total + textLength(message), 0);
  const listed = contexts.map((context) => `${context.type} ${context.content.length}`).join(', ');
  return (
    `ephemeral injection: ${contexts.length} context(s) (${listed} characters); ` +
    `latest user message ${textLength(targetBefore)} → ${textLength(targetAfter)} characters; ` +
    `request text ${totalBefore} → ${totalAfter} characters`
  );
}
