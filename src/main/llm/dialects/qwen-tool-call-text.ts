/**
 * Qwen's function calls written as text: the Hermes form its chat template teaches, which servers without
 * a tool parser return in the content as it was generated:
 *
 *   Action: Click the Save button.
 *   <tool_call>
 *   {"name": "computer_use", "arguments": {"action": "left_click", "coordinate": [420, 418]}}
 *   </tool_call>
 *
 * Read: every `<tool_call>` block becomes a call (marked `inText`), and the text outside the blocks is the
 * thought. A block that cannot be read becomes a call marked `invalid` that says what was wrong, so the
 * model is told in its next request; nothing here throws for what a model wrote. Written back: the calls as
 * the same blocks after the thought, and their results as `<tool_response>` blocks in a user message, the
 * form Qwen's template gives tool messages.
 */
import { randomUUID } from 'node:crypto';
import type { MessagePart, ToolCall, ToolMessage } from '../../../shared/messages.js';

/** Qwen's computer function: the name its cookbooks and training data use. */
export const QWEN_COMPUTER_USE_TOOL_NAME = 'computer_use';

const OPEN_TAG = '<tool_call>';
const CLOSE_TAG = '</tool_call>';

/**
 * Blocks read from one reply. A model that writes more is looping; the rest of its text is kept as written
 * and one more (invalid) call tells it, so the step limit and the database are not flooded by one answer.
 */
export const MAX_TEXT_CALLS_PER_REPLY = 32;

const EXPECTED_FORM =
  'Write each call as <tool_call>{"name": "computer_use", "arguments": {"action": "left_click", "coordinate": [x, y]}}</tool_call>.';

export interface ToolCallText {
  /** The text outside the blocks (the model's thought), trimmed; '' when there is none. */
  thought: string;
  calls: ToolCall[];
}

/** The calls written in a reply's text, and the text around them. */
export function readToolCallText(text: string): ToolCallText {
  const thoughtPieces: string[] = [];
  const calls: ToolCall[] = [];
  // Where the next closing tag is, found once: searching again from every opening tag would make a reply
  // of many unclosed tags quadratic.
  let knownClose = -2;
  const closeFrom = (start: number): number => {
    if (knownClose === -1 || knownClose >= start) return knownClose;
    knownClose = text.indexOf(CLOSE_TAG, start);
    return knownClose;
  };
  let position = 0;
  for (;;) {
    const open = text.indexOf(OPEN_TAG, position);
    if (open === -1) {
      thoughtPieces.push(text.slice(position));
      break;
    }
    if (calls.length === MAX_TEXT_CALLS_PER_REPLY) {
      calls.push(overflowCall(text.slice(open)));
      break;
    }
    thoughtPieces.push(text.slice(position, open));
    const bodyStart = open + OPEN_TAG.length;
    const close = closeFrom(bodyStart);
    const nextOpen = text.indexOf(OPEN_TAG, bodyStart);
    if (close === -1 || (nextOpen !== -1 && nextOpen < close)) {
      // Never closed: the answer was cut off, or the model went on to another call.
      const end = nextOpen === -1 ? text.length : nextOpen;
      calls.push(readBlock(text.slice(bodyStart, end), text.slice(open, end), false));
      position = end;
    } else {
      calls.push(readBlock(text.slice(bodyStart, close), text.slice(open, close + CLOSE_TAG.length), true));
      position = close + CLOSE_TAG.length;
    }
  }
  return { thought: thoughtPieces.join('').trim(), calls };
}

/** One block's JSON as a call; `source` is the block as written, kept for an invalid call. */
function readBlock(body: string, source: string, closed: boolean): ToolCall {
  const id = textCallId();
  const trimmed = body.trim();
  const invalid = (problem: string): ToolCall => ({
    id,
    name: QWEN_COMPUTER_USE_TOOL_NAME,
    argumentsText: source,
    invalid: `${problem} ${EXPECTED_FORM}`,
    inText: true,
  });
  if (trimmed === '') return invalid(closed ? 'The <tool_call> block is empty.' : 'The <tool_call> block was cut off before any JSON.');
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed) as unknown;
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    const where = closed ? 'The JSON in the <tool_call> block is not valid' : 'The <tool_call> block was never closed and its JSON is not valid';
    return invalid(`${where} (${truncated(detail, 200)}).`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return invalid('The <tool_call> block must hold one JSON object with "name" and "arguments".');
  }
  const { name, arguments: argumentsValue } = parsed as { name?: unknown; arguments?: unknown };
  if (typeof name !== 'string' || name.trim() === '') return invalid('The <tool_call> JSON has no "name" (a function name as a string).');
  const argumentsObject = argumentsObjectOf(argumentsValue);
  if (argumentsObject === undefined) return invalid(`The "arguments" of ${truncated(name, 64)} must be a JSON object.`);
  const argumentsText = templateJson(argumentsObject, 0);
  if (argumentsText === undefined) return invalid(`The "arguments" of ${truncated(name, 64)} are nested more than ${MAX_ARGUMENTS_DEPTH} levels deep.`);
  return { id, name: name.trim(), argumentsText, inText: true };
}

/** The arguments: an object, an object written as a JSON string, or none at all ({}). */
function argumentsObjectOf(value: unknown): object | undefined {
  if (value === undefined || value === null) return {};
  let candidate: unknown = value;
  if (typeof value === 'string') {
    try {
      candidate = JSON.parse(value) as unknown;
    } catch {
      return undefined;
    }
  }
  return typeof candidate === 'object' && candidate !== null && !Array.isArray(candidate) ? candidate : undefined;
}

/** Deeper than any real call's arguments; the limit keeps the writer's recursion bounded. */
const MAX_ARGUMENTS_DEPTH = 32;

/**
 * JSON as Qwen's chat template writes a call's arguments (`tojson`: Python's separators ", " and ": ",
 * characters unescaped), so a call read from text goes back in the bytes the template would have rendered.
 * Undefined when the value is nested deeper than MAX_ARGUMENTS_DEPTH.
 */
function templateJson(value: unknown, depth: number): string | undefined {
  if (depth > MAX_ARGUMENTS_DEPTH) return undefined;
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  const items: string[] = [];
  const entries = Array.isArray(value) ? value.map((item): [string | undefined, unknown] => [undefined, item]) : Object.entries(value);
  for (const [key, item] of entries) {
    const written = templateJson(item, depth + 1);
    if (written === undefined) return undefined;
    items.push(key === undefined ? written : `${JSON.stringify(key)}: ${written}`);
  }
  return Array.isArray(value) ? `[${items.join(', ')}]` : `{${items.join(', ')}}`;
}

function overflowCall(rest: string): ToolCall {
  return {
    id: textCallId(),
    name: QWEN_COMPUTER_USE_TOOL_NAME,
    argumentsText: rest,
    invalid:
      `This answer holds more than ${MAX_TEXT_CALLS_PER_REPLY} <tool_call> blocks; only the first ` +
      `${MAX_TEXT_CALLS_PER_REPLY} were read and the rest were ignored. Make one call, or a few, per answer ` +
      'and look at the new screenshot.',
    inText: true,
  };
}

function textCallId(): string {
  return `call_text_${randomUUID()}`;
}

function truncated(text: string, length: number): string {
  return text.length <= length ? text : `${text.slice(0, length)}…`;
}

/**
 * A reply with calls written in text, as the model wrote it: the thought, then each call as a block. A
 * call that was read is written in the canonical form; one that was not goes back exactly as written, so
 * the model sees its own mistake beside the error it is answered with.
 */
export function writeToolCallText(thought: string, calls: readonly ToolCall[]): string {
  const blocks = calls.map((call) =>
    call.invalid !== undefined ? call.argumentsText : `${OPEN_TAG}\n{"name": ${JSON.stringify(call.name)}, "arguments": ${call.argumentsText}}\n${CLOSE_TAG}`,
  );
  return [thought, ...blocks].filter((piece) => piece !== '').join('\n');
}

/**
 * The results of calls written in text, as Qwen's template shows tool messages: one user message, each
 * result in its own `<tool_response>` block, its images (the screenshot after an action) inside the block.
 */
export function toolResponseParts(results: readonly ToolMessage[]): MessagePart[] {
  const parts: MessagePart[] = [];
  const addText = (text: string) => {
    const last = parts.at(-1);
    if (last?.type === 'text') parts[parts.length - 1] = { type: 'text', text: `${last.text}\n${text}` };
    else parts.push({ type: 'text', text });
  };
  for (const result of results) {
    addText('<tool_response>');
    if (result.isError === true) addText('The call failed.');
    for (const part of result.parts) {
      if (part.type === 'text') addText(part.text);
      else parts.push(part);
    }
    addText('</tool_response>');
  }
  return parts;
}
