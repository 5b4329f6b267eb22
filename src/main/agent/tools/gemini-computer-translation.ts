/**
 * Gemini's predefined computer_use functions → Sightline's computer actions. Both of Google's sets are read:
 *
 * - Gemini 2.5 (gemini-2.5-computer-use-preview-10-2025): open_web_browser, click_at, hover_at, type_text_at
 *   (press_enter, clear_before_typing), key_combination, scroll_document, scroll_at (magnitude, default 800),
 *   drag_and_drop (x, y, destination_x, destination_y), wait_5_seconds (the reference agent
 *   google-gemini/computer-use-preview, agent.py `PREDEFINED_COMPUTER_USE_FUNCTIONS` and `handle_action`);
 * - Gemini 3.5 Flash, "streamlined actions with intents: actions include an `intent` field that explains the
 *   model's reasoning behind each step" (https://ai.google.dev/gemini-api/docs/generate-content/computer-use,
 *   read 2026-11-28): click, double_click, triple_click, middle_click, right_click, mouse_down, mouse_up, move,
 *   type (press_enter), drag_and_drop (start_x, start_y, end_x, end_y), wait (seconds), press_key (key), hotkey
 *   (keys), take_screenshot, scroll (x, y, direction, magnitude_in_pixels, default 300). The page's action
 *   table was not readable in full on that date: these names and arguments are the ones Sightline already
 *   answered, kept as they were, and every argument is read leniently, so a call of either set still runs.
 *
 * `intent` is no instruction: it is recorded with the step (its thought) and shown through the terminal
 * sanitizer, never acted on.
 *
 * Points stay on Gemini's 0–999 grid: the model profile's coordinate space is normalized-1000, so the one
 * mapping (operators/coordinates.ts) turns them into pixels of the frame and the screen, HiDPI included.
 * Scroll magnitudes are on the same grid (the reference agent denormalizes them like a coordinate): a distance
 * of the screen's height (or width), turned into wheel notches of PIXELS_PER_SCROLL_NOTCH screen pixels.
 *
 * Navigation (navigate, go_back, go_forward, search) has no computer action: those functions are excluded from
 * the tool (excludedPredefinedFunctions), so the browser's URL scope is never bypassed. key_down and key_up
 * (a key held across calls) are excluded too: Sightline holds keys only for a bounded time (hold_key).
 */
import { z } from 'zod';
import type { ComputerAction } from '../../../shared/actions.js';
import { MAX_TYPED_TEXT_LENGTH, MAX_WAIT_SECONDS } from '../../../shared/actions.js';
import { PIXELS_PER_SCROLL_NOTCH } from '../../operators/playwright-input.js';

/** Gemini 2.5's predefined functions, as the reference agent lists them (PREDEFINED_COMPUTER_USE_FUNCTIONS). */
export const GEMINI_25_FUNCTIONS = [
  'open_web_browser',
  'click_at',
  'hover_at',
  'type_text_at',
  'scroll_document',
  'scroll_at',
  'wait_5_seconds',
  'go_back',
  'go_forward',
  'search',
  'navigate',
  'key_combination',
  'drag_and_drop',
] as const;

/** Gemini 3.5 Flash's browser and desktop functions, each with its `intent`. */
export const GEMINI_35_FUNCTIONS = [
  'click',
  'double_click',
  'triple_click',
  'middle_click',
  'right_click',
  'mouse_down',
  'mouse_up',
  'move',
  'type',
  'drag_and_drop',
  'wait',
  'press_key',
  'key_down',
  'key_up',
  'hotkey',
  'take_screenshot',
  'scroll',
  'go_back',
  'navigate',
  'go_forward',
] as const;

/** What no computer action can do: navigation (the URL scope has no way in here) and keys held across calls. */
const NOT_PERFORMED = new Set(['navigate', 'go_back', 'go_forward', 'search', 'key_down', 'key_up']);

/** The functions Sightline answers, in both sets. */
export const GEMINI_ANSWERED_FUNCTIONS: readonly string[] = [...new Set([...GEMINI_25_FUNCTIONS, ...GEMINI_35_FUNCTIONS])].filter(
  (name) => !NOT_PERFORMED.has(name),
);

/**
 * The predefined functions of the model's set the tool excludes for this operator: navigation always, and on
 * the desktop open_web_browser (no browser to open).
 */
export function excludedGeminiFunctions(set: 'gemini-2.5' | 'gemini-3.5', operatorKind: 'desktop' | 'browser'): string[] {
  const functions: readonly string[] = set === 'gemini-2.5' ? GEMINI_25_FUNCTIONS : GEMINI_35_FUNCTIONS;
  return functions.filter((name) => NOT_PERFORMED.has(name) || (operatorKind === 'desktop' && name === 'open_web_browser'));
}

const gridValue = z.number().finite();

/**
 * Gemini's safety service may attach a `safety_decision {decision, explanation}` to a call
 * (https://ai.google.dev/gemini-api/docs/computer-use, "Safety decision"): "regular / allowed" (or no decision
 * at all) means the action may run; `require_confirmation` means a person must confirm it first. Only the
 * documented proceed value, under the documented key, lets a call run unasked: every other decision, however
 * it is spelt (`REQUIRE_CONFIRMATION`, a trailing space, a decision Google adds later, `safetyDecision`), goes
 * to the confirmation gate. A field that cannot be read as a decision (not an object, no `decision` string,
 * a nested object, fields Google does not document) is refused as malformed: the call is answered and never runs.
 */
export const GEMINI_SAFETY_FIELD = 'safety_decision';
export const GEMINI_PROCEED_DECISION = 'regular';
const MAX_DECISION_LENGTH = 200;
const MAX_EXPLANATION_LENGTH = 4000;

const SafetyDecisionSchema = z
  .object({
    decision: z.string().min(1).max(MAX_DECISION_LENGTH),
    explanation: z.string().max(MAX_EXPLANATION_LENGTH).optional(),
  })
  .strict();

/** What a call's safety decision asks: nothing (run it), or a person's confirmation first. */
export type GeminiSafetyDecision =
  | { kind: 'proceed' }
  | { kind: 'confirm'; field: string; decision: string; explanation: string | undefined };

/** Any spelling of a safety field: `safety_decision`, `safetyDecision`, `SAFETY-DECISION`, `safety`, … */
function isSafetyField(key: string): boolean {
  return key.toLowerCase().includes('safety');
}

function safetyFieldsOf(args: Record<string, unknown>): string[] {
  return Object.keys(args).filter(isSafetyField);
}

/** Why the call's safety field cannot be read, for the schema's refusal; undefined when it can (or there is none). */
function safetyShapeProblem(args: Record<string, unknown>): string | undefined {
  const fields = safetyFieldsOf(args);
  if (fields.length === 0) return undefined;
  if (fields.length > 1) return `the call carries ${fields.length} safety fields (${fields.join(', ')}); a call has at most one ${GEMINI_SAFETY_FIELD}`;
  const parsed = SafetyDecisionSchema.safeParse(args[fields[0]!]);
  if (parsed.success) return undefined;
  return `${fields[0]} is not a safety decision: expected {"decision": "<text>", "explanation": "<text>"}`;
}

/**
 * The call's safety decision, from arguments the schema accepted (so its safety field, if any, has the shape).
 * Only `safety_decision.decision` equal to the documented proceed value runs unasked.
 */
export function geminiSafetyDecisionOf(args: Record<string, unknown>): GeminiSafetyDecision {
  const field = safetyFieldsOf(args)[0];
  if (field === undefined) return { kind: 'proceed' };
  const value = SafetyDecisionSchema.parse(args[field]);
  if (field === GEMINI_SAFETY_FIELD && value.decision === GEMINI_PROCEED_DECISION) return { kind: 'proceed' };
  return { kind: 'confirm', field, decision: value.decision, explanation: value.explanation };
}

/**
 * Every function's arguments in one lenient object: Gemini sends each function its own fields (and `intent`,
 * `safety_decision`), and what each needs is checked when it is translated, so a missing field is answered with
 * that function's own words. The safety field is the exception: one that cannot be read fails the schema, so
 * the call is answered as malformed before anything is done.
 */
export const GeminiComputerArgumentsSchema = z
  .object({
    x: gridValue.optional(),
    y: gridValue.optional(),
    destination_x: gridValue.optional(),
    destination_y: gridValue.optional(),
    start_x: gridValue.optional(),
    start_y: gridValue.optional(),
    end_x: gridValue.optional(),
    end_y: gridValue.optional(),
    text: z.string().max(MAX_TYPED_TEXT_LENGTH).optional(),
    press_enter: z.boolean().optional(),
    clear_before_typing: z.boolean().optional(),
    keys: z.union([z.string().min(1).max(200), z.array(z.string().min(1).max(50)).min(1).max(10)]).optional(),
    key: z.string().min(1).max(50).optional(),
    direction: z.enum(['up', 'down', 'left', 'right']).optional(),
    magnitude: z.number().finite().min(0).optional(),
    magnitude_in_pixels: z.number().finite().min(0).optional(),
    seconds: z.number().finite().min(0).optional(),
    intent: z.string().optional(),
  })
  .loose()
  .superRefine((args, context) => {
    const problem = safetyShapeProblem(args);
    if (problem !== undefined) context.addIssue({ code: 'custom', message: problem, path: safetyFieldsOf(args).slice(0, 1) });
  });
export type GeminiComputerArguments = z.infer<typeof GeminiComputerArgumentsSchema>;

export type GeminiStep =
  | { kind: 'act'; actions: ComputerAction[] }
  | { kind: 'refuse'; message: string };

/** How the screen is sized, for scroll distances: screen pixels per grid unit across and down. */
export interface GeminiTranslationContext {
  screenWidth: number;
  screenHeight: number;
  /** The keys that select all the text of a field (cmd+a on macOS's desktop, ctrl+a elsewhere). */
  selectAll: string;
}

const MAX_SCROLL_NOTCHES = 100;
/** What scroll_document turns: the whole screen's height (or width), as the reference agent's page scroll does. */
const DOCUMENT_SCROLL = 1000;

export function translateGeminiCall(name: string, args: GeminiComputerArguments, context: GeminiTranslationContext): GeminiStep {
  const point = (xField: keyof GeminiComputerArguments, yField: keyof GeminiComputerArguments): { x: number; y: number } | string => {
    const x = args[xField];
    const y = args[yField];
    if (typeof x !== 'number' || typeof y !== 'number') return `${name} needs ${String(xField)} and ${String(yField)} (0-999).`;
    return { x, y };
  };
  const at = (action: 'click' | 'double_click' | 'triple_click' | 'middle_click' | 'right_click' | 'move' | 'mouse_down' | 'mouse_up'): GeminiStep => {
    const where = point('x', 'y');
    return typeof where === 'string' ? refuse(where) : { kind: 'act', actions: [{ action, ...where }] };
  };
  switch (name) {
    case 'open_web_browser':
    case 'take_screenshot':
      return { kind: 'act', actions: [{ action: 'screenshot' }] };
    case 'click_at':
    case 'click':
      return at('click');
    case 'double_click':
    case 'triple_click':
    case 'middle_click':
    case 'right_click':
    case 'mouse_down':
    case 'mouse_up':
    case 'move':
      return at(name);
    case 'hover_at':
      return at('move');
    case 'type_text_at':
    case 'type':
      return typing(name, args, context);
    case 'key_combination':
    case 'hotkey':
    case 'press_key': {
      const keys = name === 'press_key' ? args.key : Array.isArray(args.keys) ? args.keys.join('+') : args.keys;
      if (keys === undefined || keys.trim() === '') return refuse(`${name} needs ${name === 'press_key' ? 'key' : 'keys'}.`);
      // One combination: Gemini joins its keys with "+", and a space is no separator here.
      return { kind: 'act', actions: [{ action: 'key', keys: keys.trim().replace(/\s*\+\s*/g, '+').replace(/\s+/g, '_') }] };
    }
    case 'scroll_document':
      if (args.direction === undefined) return refuse('scroll_document needs direction (up, down, left or right).');
      return scrolling({ x: 500, y: 500 }, args.direction, DOCUMENT_SCROLL, context);
    case 'scroll_at':
    case 'scroll': {
      const where = point('x', 'y');
      if (typeof where === 'string') return refuse(where);
      if (args.direction === undefined) return refuse(`${name} needs direction (up, down, left or right).`);
      const magnitude = name === 'scroll_at' ? (args.magnitude ?? 800) : (args.magnitude_in_pixels ?? 300);
      return scrolling(where, args.direction, magnitude, context);
    }
    case 'drag_and_drop': {
      const from = args.start_x !== undefined || args.start_y !== undefined ? point('start_x', 'start_y') : point('x', 'y');
      const to = args.end_x !== undefined || args.end_y !== undefined ? point('end_x', 'end_y') : point('destination_x', 'destination_y');
      if (typeof from === 'string') return refuse(from);
      if (typeof to === 'string') return refuse(to);
      return { kind: 'act', actions: [{ action: 'drag', x: from.x, y: from.y, to_x: to.x, to_y: to.y }] };
    }
    case 'wait_5_seconds':
      return { kind: 'act', actions: [{ action: 'wait', seconds: 5 }] };
    case 'wait':
      return { kind: 'act', actions: [{ action: 'wait', seconds: Math.min(MAX_WAIT_SECONDS, args.seconds ?? 1) }] };
    default:
      return refuse(`${name} is not a computer function Sightline can perform.`);
  }
}

/**
 * type_text_at: a click where the text goes, the field's text selected and deleted unless clear_before_typing
 * is false (the reference agent's default is to clear), then the text; press_enter adds an Enter (a newline,
 * which the gate judges on its own). Its default is false, as in the reference agent's handle_action.
 * `type` (3.5) types where the focus is, with the same press_enter.
 */
function typing(name: 'type_text_at' | 'type', args: GeminiComputerArguments, context: GeminiTranslationContext): GeminiStep {
  if (args.text === undefined) return refuse(`${name} needs text.`);
  const actions: ComputerAction[] = [];
  if (name === 'type_text_at' || (args.x !== undefined && args.y !== undefined)) {
    if (typeof args.x !== 'number' || typeof args.y !== 'number') return refuse(`${name} needs x and y (0-999).`);
    actions.push({ action: 'click', x: args.x, y: args.y });
    if (name === 'type_text_at' && args.clear_before_typing !== false) actions.push({ action: 'key', keys: `${context.selectAll} BackSpace` });
  }
  const text = `${args.text}${args.press_enter === true ? '\n' : ''}`;
  if (text !== '') actions.push({ action: 'type', text });
  return { kind: 'act', actions };
}

function scrolling(
  at: { x: number; y: number },
  direction: 'up' | 'down' | 'left' | 'right',
  magnitude: number,
  context: GeminiTranslationContext,
): GeminiStep {
  const vertical = direction === 'up' || direction === 'down';
  const screenPixels = (magnitude / 1000) * (vertical ? context.screenHeight : context.screenWidth);
  const notches = Math.min(MAX_SCROLL_NOTCHES, Math.max(1, Math.round(screenPixels / PIXELS_PER_SCROLL_NOTCH)));
  const sign = direction === 'down' || direction === 'right' ? 1 : -1;
  return {
    kind: 'act',
    actions: [{ action: 'scroll', x: at.x, y: at.y, scroll_x: vertical ? 0 : sign * notches, scroll_y: vertical ? sign * notches : 0 }],
  };
}

function refuse(message: string): GeminiStep {
  return { kind: 'refuse', message: `${message} Nothing was done.` };
}
