/**
 * OpenAI's computer tool actions (what a `computer_call` carries as `action`, or as the batched `actions`
 * list) as Sightline's computer actions. The schema keeps OpenAI's own names and shapes; the mapping is
 * pure and never throws: what cannot be done is an error the model is told about, and nothing runs.
 *
 * Coordinates pass through unchanged: they are pixels of the screenshot the model was shown (the model
 * profile's `pixels` space), and the one mapping in operators/coordinates.ts takes them to the screen.
 *
 * Choices (docs/decisions/0023-openai-computer-dialect.md):
 * - click `button`: left → click, right → right_click, wheel → middle_click. back and forward are refused:
 *   neither operator has those buttons, and a browser's history keys are not delivered to a headless page.
 * - keys held during a mouse action (`keys` on click, scroll, move, drag) are refused: the operators press
 *   keys only as a combination of their own; the model can send a keypress before.
 * - keypress `keys` is one combination, pressed in order and released in reverse (["CTRL", "C"] is ctrl+c).
 *   OpenAI's key names (CTRL, ENTER, ARROWLEFT, ESC, SPACE, CMD, …) are Sightline's own, without regard to
 *   case; a space character is `space` and `+` is `plus`.
 * - scroll_x / scroll_y are pixels of the screenshot; one wheel notch scrolls about 100 CSS pixels, so the
 *   distance on the screen divided by 100, rounded, and at least one notch when it is not 0.
 * - wait has no duration: one second, as OpenAI's sample waits.
 *
 * Sources: the `openai` package's types (ComputerAction, ResponseComputerToolCall: click with button
 * left/right/wheel/back/forward and held keys, double_click, drag with a path, keypress, move, screenshot,
 * scroll with scroll_x/scroll_y, type, wait; the batched `actions` list) and OpenAI's computer use guide
 * and sample app (https://platform.openai.com/docs/guides/tools-computer-use,
 * https://github.com/openai/openai-cua-sample-app computers/base_playwright.py: its key names).
 */
import { z } from 'zod';
import {
  ComputerActionSchema,
  MAX_DRAG_WAYPOINTS,
  MAX_TYPED_TEXT_LENGTH,
  type ComputerAction,
} from '../../../shared/actions.js';
import { parseKeyCombinations } from '../../operators/key-combination.js';
import { PIXELS_PER_SCROLL_NOTCH } from '../../operators/playwright-input.js';

/** Most actions one batched call may carry; a model that sends more is looping, not working. */
export const MAX_BATCHED_ACTIONS = 20;
/** Most safety checks one call may carry (OpenAI sends one or two). */
const MAX_SAFETY_CHECKS = 10;
/** Most keys one keypress may name. */
const MAX_KEYPRESS_KEYS = 10;
/** The longest wheel turn one scroll may ask for (the computer action's bound). */
const MAX_SCROLL_NOTCHES = 100;
/** What a wait without a duration waits, in seconds. */
const WAIT_SECONDS = 1;

const coordinate = z.number().finite();
const point = { x: coordinate, y: coordinate };
/** Keys held during a mouse action; OpenAI sends null (or nothing) when there are none. */
const heldKeys = z.array(z.string().max(50)).max(MAX_KEYPRESS_KEYS).nullable().optional();

export const OPENAI_CLICK_BUTTONS = ['left', 'right', 'wheel', 'back', 'forward'] as const;

export const OpenAiComputerActionSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('click'), button: z.enum(OPENAI_CLICK_BUTTONS).default('left'), ...point, keys: heldKeys }),
  z.object({ type: z.literal('double_click'), ...point, keys: heldKeys }),
  z.object({ type: z.literal('drag'), path: z.array(z.object(point)).min(2).max(MAX_DRAG_WAYPOINTS + 2), keys: heldKeys }),
  z.object({ type: z.literal('keypress'), keys: z.array(z.string().min(1).max(50)).min(1).max(MAX_KEYPRESS_KEYS) }),
  z.object({ type: z.literal('move'), ...point, keys: heldKeys }),
  z.object({ type: z.literal('screenshot') }),
  z.object({ type: z.literal('scroll'), ...point, scroll_x: z.number().finite(), scroll_y: z.number().finite(), keys: heldKeys }),
  z.object({ type: z.literal('type'), text: z.string().min(1).max(MAX_TYPED_TEXT_LENGTH) }),
  z.object({ type: z.literal('wait') }),
]);
export type OpenAiComputerAction = z.infer<typeof OpenAiComputerActionSchema>;

export const PendingSafetyCheckSchema = z.object({
  id: z.string().min(1).max(500),
  code: z.string().max(500).nullish(),
  message: z.string().max(5_000).nullish(),
});

/** A computer call's arguments as the Responses adapter writes them from the model's `computer_call`. */
export const OpenAiComputerArgumentsSchema = z
  .object({
    action: OpenAiComputerActionSchema.optional(),
    actions: z.array(OpenAiComputerActionSchema).min(1).max(MAX_BATCHED_ACTIONS).optional(),
    pending_safety_checks: z.array(PendingSafetyCheckSchema).max(MAX_SAFETY_CHECKS).default([]),
  })
  .refine((value) => (value.action === undefined) !== (value.actions === undefined), {
    message: 'a computer call carries either one action or an actions list',
  });
export type OpenAiComputerArguments = z.infer<typeof OpenAiComputerArgumentsSchema>;

/** How the model's pixels relate to the screen, for what is measured in pixels rather than pointed at. */
export interface ActionMappingContext {
  /** Screen units (desktop points, CSS pixels) per pixel of the screenshot the model was shown. */
  screenUnitsPerImagePixel: number;
}

export type ActionMapping = { ok: true; action: ComputerAction } | { ok: false; error: string };

export function toComputerAction(native: OpenAiComputerAction, context: ActionMappingContext): ActionMapping {
  const mapped = translate(native, context);
  if (!mapped.ok) return mapped;
  // The computer action's own bounds (text length, key string, waypoints) hold here too.
  const checked = ComputerActionSchema.safeParse(mapped.action);
  if (!checked.success) return { ok: false, error: `${native.type} cannot be done: ${z.prettifyError(checked.error)}` };
  return { ok: true, action: checked.data };
}

function translate(native: OpenAiComputerAction, context: ActionMappingContext): ActionMapping {
  if ('keys' in native && native.type !== 'keypress' && native.keys !== undefined && native.keys !== null && native.keys.length > 0) {
    return {
      ok: false,
      error:
        `${native.type} with keys held (${native.keys.join('+')}) is not supported: keys can only be pressed as a ` +
        'combination of their own. Send a keypress, then the mouse action without keys.',
    };
  }
  switch (native.type) {
    case 'click':
      return clickAction(native);
    case 'double_click':
      return { ok: true, action: { action: 'double_click', x: native.x, y: native.y } };
    case 'drag': {
      const first = native.path[0]!;
      const last = native.path[native.path.length - 1]!;
      const via = native.path.slice(1, -1).map(({ x, y }) => ({ x, y }));
      return { ok: true, action: { action: 'drag', x: first.x, y: first.y, to_x: last.x, to_y: last.y, ...(via.length > 0 ? { via } : {}) } };
    }
    case 'keypress':
      return keypressAction(native.keys);
    case 'move':
      return { ok: true, action: { action: 'move', x: native.x, y: native.y } };
    case 'screenshot':
      return { ok: true, action: { action: 'screenshot' } };
    case 'scroll':
      return {
        ok: true,
        action: {
          action: 'scroll',
          x: native.x,
          y: native.y,
          scroll_x: scrollNotches(native.scroll_x, context),
          scroll_y: scrollNotches(native.scroll_y, context),
        },
      };
    case 'type':
      return { ok: true, action: { action: 'type', text: native.text } };
    case 'wait':
      return { ok: true, action: { action: 'wait', seconds: WAIT_SECONDS } };
  }
}

function clickAction(native: Extract<OpenAiComputerAction, { type: 'click' }>): ActionMapping {
  const at = { x: native.x, y: native.y };
  switch (native.button) {
    case 'left':
      return { ok: true, action: { action: 'click', ...at } };
    case 'right':
      return { ok: true, action: { action: 'right_click', ...at } };
    case 'wheel':
      return { ok: true, action: { action: 'middle_click', ...at } };
    case 'back':
    case 'forward':
      return {
        ok: false,
        error:
          `click with the ${native.button} button is not supported: this mouse has no ${native.button} button. ` +
          `Use the page's or the application's own ${native.button === 'back' ? 'Back' : 'Forward'} control instead.`,
      };
  }
}

/** OpenAI's key names in Sightline's vocabulary (operators/key-combination.ts); the rest are the same names. */
const KEY_NAMES: Readonly<Record<string, string>> = {
  ' ': 'space',
  '+': 'plus',
};

function keypressAction(keys: readonly string[]): ActionMapping {
  const names: string[] = [];
  for (const key of keys) {
    // Own entries only: `constructor` must not find Object.prototype's.
    const name = (Object.hasOwn(KEY_NAMES, key) ? KEY_NAMES[key] : undefined) ?? key;
    if (/[\s+]/.test(name)) return { ok: false, error: `keypress: unknown key ${JSON.stringify(key)}` };
    names.push(name);
  }
  const combination = names.join('+');
  const parsed = parseKeyCombinations(combination);
  if (!parsed.ok) return { ok: false, error: `keypress ${JSON.stringify(keys)}: ${parsed.error}` };
  return { ok: true, action: { action: 'key', keys: combination } };
}

/** Pixels of the screenshot → wheel notches: the screen distance over one notch's, at least one when moving. */
export function scrollNotches(pixels: number, context: ActionMappingContext): number {
  if (pixels === 0) return 0;
  const notches = Math.max(1, Math.round((Math.abs(pixels) * context.screenUnitsPerImagePixel) / PIXELS_PER_SCROLL_NOTCH));
  return Math.sign(pixels) * Math.min(MAX_SCROLL_NOTCHES, notches);
}
