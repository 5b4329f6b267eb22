/**
 * `answer`: how the model answers a question about the screen (a flow's assert, extract, if and wait_for; the
 * SDK's assert, extract and waitFor). Its parameters are the answer's schema, so every dialect that carries
 * function calls answers through an ordinary call; UI-TARS writes the same JSON in `finished(content=…)`
 * (answerFromFinishContent).
 *
 * Every answer is checked: the value against the schema, the evidence against the session's frames. An answer
 * that does not fit is sent back once with what was wrong; a second one ends the turn as failed, saying why.
 * A `until` answer of false is not the end: the tool watches the screen until it changes by the dedup rule
 * (or the time is up), and answers with the new screenshot, so the model is asked again only when there is
 * something new to judge.
 */
import { z } from 'zod';
import type { AnswerKind, LocatedElement, TurnAnswer } from '../../../shared/answers.js';
import { schemaPatterns, withLinearPatterns } from '../../../shared/linear-patterns.js';
import type { MessagePart } from '../../../shared/messages.js';
import type { CoordinateSpace, ShownScreenshot } from '../../../shared/model-view.js';
import type { Storage } from '../../storage/index.js';
import type { AnswerRequest } from '../agent-contract.js';
import type { ScreenRecorder } from '../screen-recorder.js';
import { frameBox } from './frame-box.js';
import type { ToolCallScope, ToolDefinition, ToolResult } from './tool-definition.js';
import { coordinateExtentOf } from './tracked-pointer.js';

export const ANSWER_TOOL_NAME = 'answer';

/** How often the screen is looked at while an `until` condition is not met, unless the request says. */
export const DEFAULT_UNTIL_POLL_MS = 500;

export type ValueCheck = { ok: true; value: unknown } | { ok: false; error: string };

/** The field the model writes its answer in: a value of the schema, or true/false. */
const ANSWER_FIELD: Record<AnswerKind, 'value' | 'verdict' | 'box'> = { value: 'value', verdict: 'verdict', until: 'verdict', box: 'box' };

/** What the model is told each kind of answer means. */
const FIELD_DESCRIPTION: Record<AnswerKind, string> = {
  verdict: 'true when the statement is true of the screen (and the earlier screens it may be about), false when it is not.',
  until: 'true when the condition is met on the screen now; false when it is not yet (you will be shown the screen again when it changes).',
  value: 'The information asked for, in exactly this shape.',
  box: 'The element, boxed on the latest screenshot: [left, top, right, bottom].',
};

/** How a box is read, in the model's terms: the coordinates it names points in on the latest screenshot. */
function boxDescription(space: CoordinateSpace): string {
  const where =
    space === 'normalized-1000'
      ? 'in 0–1000 coordinates on both axes of the latest screenshot (0, 0 its top left, 1000, 1000 its bottom right)'
      : 'in the pixels of the latest screenshot as you were shown it';
  return `The element asked for, boxed ${where}: [left, top, right, bottom], right and bottom exclusive.`;
}

const EnvelopeSchema = z.record(z.string(), z.unknown());

export interface AnswerToolOptions {
  request: AnswerRequest;
  screen: ScreenRecorder;
  /** When the turn began: an `until` condition is watched until this plus its timeout. */
  startedAt: number;
  /** Test seam: the present time. */
  now?: () => number;
  /** How the model names points (the model profile's): what a `box` answer is in. Pixels unless given. */
  coordinateSpace?: CoordinateSpace;
}

/** The tool's parameters: the answer, the reason, and the frames relied on. */
export function answerParameters(request: AnswerRequest, space: CoordinateSpace = 'pixels'): Record<string, unknown> {
  const field = ANSWER_FIELD[request.kind];
  const valueSchema =
    request.kind === 'value'
      ? { ...(request.schema ?? {}), description: FIELD_DESCRIPTION.value }
      : request.kind === 'box'
        ? { type: 'array', items: { type: 'number' }, minItems: 4, maxItems: 4, description: boxDescription(space) }
        : { type: 'boolean', description: FIELD_DESCRIPTION[request.kind] };
  return {
    type: 'object',
    properties: {
      [field]: valueSchema,
      reason: { type: 'string', description: 'Why, in a sentence: what on the screen shows it.' },
      evidence: {
        type: 'array',
        items: { type: 'string' },
        description: 'The ids (img_…) of the screenshots the answer relies on; the latest screenshot when empty.',
      },
    },
    required: [field, 'reason', 'evidence'],
    additionalProperties: false,
  };
}

/** A tool the answer arrives through, with its own count of answers that did not fit. */
export function createAnswerTool(options: AnswerToolOptions): ToolDefinition<Record<string, unknown>> {
  const judge = answerJudge(options);
  return {
    name: ANSWER_TOOL_NAME,
    description: answerToolDescription(options.request.kind),
    // Any object reaches execute, which says what does not fit and counts it (the loop's malformed count
    // would allow three tries; an answer gets one more).
    arguments: EnvelopeSchema,
    parametersJsonSchema: answerParameters(options.request, options.coordinateSpace),
    execute: (argumentsValue, scope) => judge(argumentsValue, scope),
  };
}

export function answerToolDescription(kind: AnswerKind): string {
  switch (kind) {
    case 'verdict':
      return 'Answer whether the statement is true, with the reason and the screenshots that show it. This ends the step.';
    case 'until':
      return 'Say whether the condition is met on the screen now. true ends the step; false waits for the screen to change.';
    case 'value':
      return 'Give the information asked for, in the schema of `value`, with the reason and the screenshots it comes from. This ends the step.';
    case 'box':
      return 'Say where the element asked for is: its box on the latest screenshot, with the reason. This ends the step.';
  }
}

/**
 * Judges one answer (from `answer`, or UI-TARS's `finished` content): ends the turn with it, sends it back
 * once when it does not fit, or, for an unmet `until`, waits for the screen to change.
 */
export function answerJudge(options: AnswerToolOptions): (answer: unknown, scope: ToolCallScope) => Promise<ToolResult> {
  const { request } = options;
  const now = options.now ?? Date.now;
  let misfits = 0;
  return async (answer, scope) => {
    const checked = checkAnswer(answer, request, scope);
    if (!checked.ok) {
      misfits += 1;
      if (misfits >= 2) {
        return {
          parts: [{ type: 'text', text: `The answer does not fit: ${checked.error}` }],
          isError: true,
          endTurn: { status: 'failed', summary: `The model's answer did not fit twice: ${checked.error}` },
        };
      }
      return {
        parts: [{ type: 'text', text: `The answer does not fit, so it was not taken: ${checked.error}\nAnswer again, with exactly the fields asked for.` }],
        isError: true,
      };
    }
    const taken = checked.answer;
    if (request.kind !== 'until' || taken.value === true) {
      return { parts: [{ type: 'text', text: 'Answer taken.' }], endTurn: { status: 'finished', summary: taken.reason, answer: taken } };
    }
    return awaitChange(options, taken, scope, now);
  };
}

/** An unmet `until`: the screen is watched until it changes; the time running out ends the turn as failed. */
async function awaitChange(options: AnswerToolOptions, taken: TurnAnswer, scope: ToolCallScope, now: () => number): Promise<ToolResult> {
  const timeoutMs = options.request.timeoutMs ?? 30_000;
  const deadline = options.startedAt + timeoutMs;
  const changed = await options.screen.waitForChange({
    deadline,
    pollMs: options.request.pollMs ?? DEFAULT_UNTIL_POLL_MS,
    signal: scope.signal,
    now,
  });
  if (changed === undefined) {
    const seconds = Math.round(timeoutMs / 100) / 10;
    return {
      parts: [{ type: 'text', text: `The time is up (${seconds} s): the condition was not met.` }],
      endTurn: { status: 'failed', summary: `Not met within ${seconds} s: ${taken.reason}`, answer: taken },
    };
  }
  const parts: MessagePart[] = [{ type: 'text', text: `Not met yet. The screen has changed since (${changed.imageId}); is the condition met now?` }];
  parts.push({ type: 'image', imageId: changed.imageId });
  return { parts, record: { result: { ok: true, waitedForChange: true, screenshotImageId: changed.imageId } } };
}

type CheckedAnswer = { ok: true; answer: TurnAnswer } | { ok: false; error: string };

/** The answer's fields, the value against its schema, and the evidence against the session's frames. */
export function checkAnswer(answer: unknown, request: AnswerRequest, scope: Pick<ToolCallScope, 'storage' | 'sessionId' | 'shown'>): CheckedAnswer {
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) return { ok: false, error: 'the answer must be a JSON object.' };
  const fields = answer as Record<string, unknown>;
  const field = ANSWER_FIELD[request.kind];
  if (!(field in fields)) return { ok: false, error: `"${field}" is missing.` };
  const reason = fields['reason'];
  if (typeof reason !== 'string' || reason.trim() === '') return { ok: false, error: '"reason" must be a sentence saying why.' };
  const value = request.kind === 'box' ? locatedElement(fields[field], scope) : checkValue(fields[field], request);
  if (!value.ok) return { ok: false, error: `"${field}" ${value.error}` };
  const evidence = checkEvidence(fields['evidence'], scope.storage, scope.sessionId);
  if (!evidence.ok) return evidence;
  const ids = evidence.ids.length > 0 ? evidence.ids : scope.shown === undefined ? [] : [scope.shown.imageId];
  return { ok: true, answer: { kind: request.kind, value: value.value, reason: reason.trim(), evidence: ids } };
}

/**
 * A box the model drew on the latest screenshot, in the page's own coordinates: from the extent it names points
 * in to the frame's pixels (frameBox, as crop_image cuts), then from the frame's pixels to the page's units by the
 * frame's scale, as an action's point is mapped (operators/coordinates.ts). A box outside the screenshot, or
 * inverted, goes back to the model, as a click outside it does.
 */
function locatedElement(value: unknown, scope: Pick<ToolCallScope, 'storage' | 'shown'>): ValueCheck {
  if (!Array.isArray(value) || value.length !== 4 || !value.every((number) => typeof number === 'number' && Number.isFinite(number))) {
    return { ok: false, error: 'must be four numbers [left, top, right, bottom].' };
  }
  const shown: ShownScreenshot | undefined = scope.shown;
  if (shown === undefined) return { ok: false, error: 'cannot be read: no screenshot has been shown yet; take one first.' };
  const [left, top, right, bottom] = value as [number, number, number, number];
  const extent = coordinateExtentOf(shown.view);
  if (left < 0 || top < 0 || right > extent.width || bottom > extent.height) {
    return { ok: false, error: `is outside the latest screenshot (0–${extent.width} across, 0–${extent.height} down).` };
  }
  if (right <= left || bottom <= top) return { ok: false, error: 'is empty or inverted: right must be above left and bottom above top.' };
  const inFrame = frameBox({ left, top, right, bottom }, extent, { width: shown.view.frameWidth, height: shown.view.frameHeight });
  const dpr = scope.storage.images.get(shown.imageId)?.scaleFactor ?? 1;
  const unit = (pixels: number) => Math.round(pixels / dpr);
  const located: LocatedElement = {
    rect: { left: unit(inFrame.left), top: unit(inFrame.top), width: Math.max(1, unit(inFrame.right) - unit(inFrame.left)), height: Math.max(1, unit(inFrame.bottom) - unit(inFrame.top)) },
    center: [unit((inFrame.left + inFrame.right) / 2), unit((inFrame.top + inFrame.bottom) / 2)],
    dpr,
  };
  return { ok: true, value: located };
}

function checkValue(value: unknown, request: AnswerRequest): ValueCheck {
  if (request.kind !== 'value') return typeof value === 'boolean' ? { ok: true, value } : { ok: false, error: 'must be true or false.' };
  const checked = (request.check ?? checkerOf(request.schema ?? {}))(value);
  return checked.ok ? checked : { ok: false, error: `does not match its schema: ${checked.error}` };
}

/** A check from a JSON Schema, through zod's reading of it. */
export function checkerOf(schema: Record<string, unknown>): (value: unknown) => ValueCheck {
  // The schema's patterns run on the model's answer: on RE2, where no answer can make them backtrack for ever.
  const zodSchema = withLinearPatterns(schemaPatterns(schema), () => z.fromJSONSchema(schema));
  return (value) => {
    const parsed = zodSchema.safeParse(value);
    return parsed.success ? { ok: true, value: parsed.data } : { ok: false, error: z.prettifyError(parsed.error).replace(/\n/g, ' ') };
  };
}

type CheckedEvidence = { ok: true; ids: string[] } | { ok: false; error: string };

function checkEvidence(evidence: unknown, storage: Storage, sessionId: string): CheckedEvidence {
  if (evidence === undefined) return { ok: true, ids: [] };
  if (!Array.isArray(evidence) || !evidence.every((id) => typeof id === 'string')) {
    return { ok: false, error: '"evidence" must be a list of screenshot ids (img_…).' };
  }
  const ids = [...new Set(evidence.map((id: string) => id.trim()))];
  const unknown = ids.filter((id) => storage.images.get(id)?.sessionId !== sessionId);
  if (unknown.length > 0) {
    return { ok: false, error: `"evidence" names ${unknown.map((id) => JSON.stringify(id.slice(0, 40))).join(', ')}, which ${unknown.length === 1 ? 'is' : 'are'} not a screenshot of this session.` };
  }
  return { ok: true, ids };
}

/**
 * UI-TARS's answer: its grammar has no functions, so it writes the answer's JSON in `finished(content=…)`,
 * which its wire makes a `finish` call with the content as the summary. This `finish` reads that JSON and
 * judges it like any answer; content that is not JSON is an answer that does not fit.
 */
export function createFinishContentAnswerTool(options: AnswerToolOptions, name: string): ToolDefinition<Record<string, unknown>> {
  const judge = answerJudge(options);
  return {
    name,
    description: 'Answer with finished(content=…): one JSON object with the fields asked for.',
    arguments: EnvelopeSchema,
    execute: (argumentsValue, scope) => judge(answerFromFinishContent(argumentsValue['summary']), scope),
  };
}

/**
 * The JSON object a `finished` content holds; the text itself when it holds none (judged as not fitting).
 * The first `{` that opens a whole object is taken, its end found with strings skipped, so braces inside the
 * answer's strings and text around the object do not cut it short. UI-TARS's `\n` escape arrives as a newline,
 * which JSON refuses inside a string: control characters in strings are escaped before the object is read.
 */
export function answerFromFinishContent(content: unknown): unknown {
  if (typeof content !== 'string') return content;
  let tries = 0;
  // A few openings at most: each is a scan to the object's end, and a hostile content may hold a megabyte of `{`.
  for (let start = content.indexOf('{'); start !== -1 && tries < MAX_OBJECT_STARTS; start = content.indexOf('{', start + 1), tries += 1) {
    const end = objectEnd(content, start);
    if (end === undefined) continue;
    const parsed = parsedObject(content.slice(start, end));
    if (parsed !== undefined) return parsed;
  }
  return content;
}

const MAX_OBJECT_STARTS = 8;

/** Where the object that opens at `start` closes (just after its `}`), reading strings as JSON does. */
function objectEnd(text: string, start: number): number | undefined {
  let depth = 0;
  let inString = false;
  for (let index = start; index < text.length; index += 1) {
    const character = text[index];
    if (inString) {
      if (character === '\\') index += 1;
      else if (character === '"') inString = false;
    } else if (character === '"') inString = true;
    else if (character === '{' || character === '[') depth += 1;
    else if (character === '}' || character === ']') {
      depth -= 1;
      if (depth === 0) return character === '}' ? index + 1 : undefined;
    }
  }
  return undefined;
}

function parsedObject(text: string): Record<string, unknown> | undefined {
  for (const candidate of [text, controlCharactersEscaped(text)]) {
    try {
      const value = JSON.parse(candidate) as unknown;
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
      return undefined;
    } catch {
      // The next candidate, if any.
    }
  }
  return undefined;
}

/** Raw control characters inside JSON strings as their escapes; the text between strings left as it is. */
function controlCharactersEscaped(text: string): string {
  let inString = false;
  let result = '';
  for (let index = 0; index < text.length; index += 1) {
    const character = text[index]!;
    if (inString && character === '\\') {
      result += character + (text[index + 1] ?? '');
      index += 1;
      continue;
    }
    if (character === '"') inString = !inString;
    const code = character.charCodeAt(0);
    result += inString && code < 0x20 ? `\\u${code.toString(16).padStart(4, '0')}` : character;
  }
  return result;
}
