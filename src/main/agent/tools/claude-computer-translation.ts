/**
 * One call of Claude's `computer` tool, in Anthropic's terms → what Sightline does: a computer action for
 * the one action pipeline, a question about the pointer (cursor_position), a zoom (a crop of the present
 * screen), or a refusal that says why nothing was done. A pure function of the arguments, the tool version
 * and where the pointer is, so a table of Claude's documented calls pins it.
 *
 * The actions per version are Anthropic's computer use tool documentation
 * (https://docs.claude.com/en/docs/agents-and-tools/tool-use/computer-use-tool, "Available actions") and
 * the reference implementation (anthropics/anthropic-quickstarts computer-use-demo/computer_use_demo/tools/
 * computer.py): computer_20241022 has key, type, mouse_move, left_click, left_click_drag, right_click,
 * middle_click, double_click, screenshot and cursor_position; computer_20250124 adds scroll, triple_click,
 * left_mouse_down, left_mouse_up, hold_key and wait, and lets clicks and scrolls name a point and hold keys
 * (`text`); computer_20251124 adds zoom. The toolset computer_toolset_20260801 has the same 17 actions as member
 * tools, each called by its own name with the same fields and no `action` (its member tool reads the name as the
 * action), and adds `repeat` (1 to 100) on key. An action its version lacks is refused the way the tool would.
 *
 * Points are pixels of the image sent (display_width_px × display_height_px is that image's size) and
 * pass through unchanged: the call's view maps them.
 *
 * `text` on a click or a scroll names modifier keys held during it (shift-click, ctrl-scroll): the
 * action's `modifiers`. left_mouse_down / left_mouse_up are mouse_down / mouse_up, which leave the left
 * button down between them (a drag in steps); a button still down when the turn ends is released then.
 * hold_key is hold_key, held at most MAX_HOLD_SECONDS (a longer duration is held that long, and the model
 * is told so in the result).
 */
import { z } from 'zod';
import { ComputerActionSchema, MAX_HOLD_SECONDS, MAX_WAIT_SECONDS, type ComputerAction } from '../../../shared/actions.js';
import type { AnthropicComputerToolDeclaration } from '../../llm/model-adapter.js';
import { parseHeldModifiers } from '../../operators/key-combination.js';

export type ClaudeComputerToolType = AnthropicComputerToolDeclaration['toolType'];

export const CLAUDE_ACTIONS_20241022 = [
  'key',
  'type',
  'mouse_move',
  'left_click',
  'left_click_drag',
  'right_click',
  'middle_click',
  'double_click',
  'screenshot',
  'cursor_position',
] as const;
export const CLAUDE_ACTIONS_20250124 = [
  ...CLAUDE_ACTIONS_20241022,
  'scroll',
  'left_mouse_down',
  'left_mouse_up',
  'hold_key',
  'wait',
  'triple_click',
] as const;
export const CLAUDE_ACTIONS_20251124 = [...CLAUDE_ACTIONS_20250124, 'zoom'] as const;
export type ClaudeActionName = (typeof CLAUDE_ACTIONS_20251124)[number];

/** Which actions each tool version has: data, so a newer version is one more row. */
export const CLAUDE_ACTIONS_BY_VERSION: Readonly<Record<ClaudeComputerToolType, readonly ClaudeActionName[]>> = {
  computer_20241022: CLAUDE_ACTIONS_20241022,
  computer_20250124: CLAUDE_ACTIONS_20250124,
  computer_20251124: CLAUDE_ACTIONS_20251124,
  computer_toolset_20260801: CLAUDE_ACTIONS_20251124,
};

const Coordinate = z.tuple([z.number().finite(), z.number().finite()]);

/**
 * Claude's arguments, one flat object as the tool takes them. Unknown fields are kept out by `strict`, but
 * fields an action does not use are tolerated when null (as the reference implementation tolerates None).
 */
export const ClaudeComputerArgumentsSchema = z
  .object({
    action: z.enum(CLAUDE_ACTIONS_20251124),
    coordinate: Coordinate.nullish(),
    start_coordinate: Coordinate.nullish(),
    text: z.string().nullish(),
    scroll_direction: z.enum(['up', 'down', 'left', 'right']).nullish(),
    scroll_amount: z.number().int().min(0).nullish(),
    duration: z.number().finite().min(0).nullish(),
    region: z.tuple([z.number().finite(), z.number().finite(), z.number().finite(), z.number().finite()]).nullish(),
    /** The toolset's key member: how many times to press the key (1 to 100, default 1). */
    repeat: z.number().int().min(1).max(100).nullish(),
  })
  .strict();
export type ClaudeComputerArguments = z.infer<typeof ClaudeComputerArgumentsSchema>;

export interface ClaudePoint {
  x: number;
  y: number;
}

/** A zoom's region in pixels of the image sent: left, top, right, bottom. */
export interface ClaudeRegion {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export type ClaudeStep =
  /** `notice`: what the model is told beside the action's result (a hold_key's duration was capped). */
  | { kind: 'act'; action: ComputerAction; notice?: string }
  | { kind: 'cursor-position' }
  | { kind: 'zoom'; region: ClaudeRegion }
  | { kind: 'refuse'; message: string };

export interface ClaudePointerState {
  /** Where the last action that placed the pointer left it, in pixels of the image sent; unknown before. */
  pointer: ClaudePoint | undefined;
  /** The middle of the image sent (where a scroll with no known point turns). */
  centre: ClaudePoint;
}

/** Most wheel notches one scroll may turn (Sightline's scroll action's bound). */
const MAX_SCROLL_NOTCHES = 100;

/**
 * xdotool keysyms Claude writes that Sightline's key vocabulary (operators/key-combination.ts) spells
 * otherwise: left/right modifiers are the modifier, the keypad's digits and operators are the plain keys.
 */
const XDOTOOL_KEY_NAMES: Readonly<Record<string, string>> = {
  control_l: 'ctrl',
  control_r: 'ctrl',
  shift_l: 'shift',
  shift_r: 'shift',
  alt_l: 'alt',
  alt_r: 'alt',
  super_l: 'super',
  super_r: 'super',
  meta_l: 'meta',
  meta_r: 'meta',
  kp_add: 'plus',
  kp_subtract: 'minus',
  kp_divide: 'slash',
  kp_decimal: 'period',
  iso_left_tab: 'shift+Tab',
};

export function translateClaudeAction(
  call: ClaudeComputerArguments,
  toolType: ClaudeComputerToolType,
  state: ClaudePointerState,
): ClaudeStep {
  if (!CLAUDE_ACTIONS_BY_VERSION[toolType].includes(call.action)) {
    return refuse(`The ${call.action} action is not supported by ${toolType}; its actions are ${CLAUDE_ACTIONS_BY_VERSION[toolType].join(', ')}.`);
  }
  switch (call.action) {
    case 'key':
      return keyStep(call.text, call.repeat ?? 1);
    case 'type':
      if (call.text === undefined || call.text === null || call.text === '') return refuse('type needs the text to type in `text`.');
      return act({ action: 'type', text: call.text });
    case 'mouse_move':
      if (call.coordinate === undefined || call.coordinate === null) return refuse('mouse_move needs `coordinate` [x, y].');
      return act({ action: 'move', ...pointOf(call.coordinate) });
    case 'left_click':
      return clickStep('click', call, state);
    case 'right_click':
      return clickStep('right_click', call, state);
    case 'middle_click':
      return clickStep('middle_click', call, state);
    case 'double_click':
      return clickStep('double_click', call, state);
    case 'triple_click':
      return clickStep('triple_click', call, state);
    case 'left_click_drag':
      return dragStep(call, state);
    case 'scroll':
      return scrollStep(call, state);
    case 'wait':
      return act({ action: 'wait', seconds: Math.min(call.duration ?? 1, MAX_WAIT_SECONDS) });
    case 'screenshot':
      return act({ action: 'screenshot' });
    case 'cursor_position':
      return { kind: 'cursor-position' };
    case 'zoom':
      return zoomStep(call);
    case 'left_mouse_down':
    case 'left_mouse_up': {
      // The reference tool takes no coordinate here; one is honoured all the same (moving there first), as on clicks.
      const action = call.action === 'left_mouse_down' ? 'mouse_down' : 'mouse_up';
      return act(call.coordinate === undefined || call.coordinate === null ? { action } : { action, ...pointOf(call.coordinate) });
    }
    case 'hold_key':
      return holdKeyStep(call);
  }
}

/** hold_key: Claude's xdotool key names for the keys, its duration in seconds, held at most MAX_HOLD_SECONDS. */
function holdKeyStep(call: ClaudeComputerArguments): ClaudeStep {
  if (call.text === undefined || call.text === null || call.text.trim() === '') return refuse('hold_key needs the key or combination to hold in `text`, for example "shift".');
  if (call.duration === undefined || call.duration === null) return refuse('hold_key needs `duration`, how many seconds to hold the keys.');
  const keys = sightlineKeys(call.text);
  const seconds = Math.min(call.duration, MAX_HOLD_SECONDS);
  const step = act({ action: 'hold_key', keys, seconds });
  if (step.kind !== 'act' || seconds === call.duration) return step;
  return { ...step, notice: `The keys were held for ${MAX_HOLD_SECONDS} s, the longest one hold_key may hold them here, not the ${call.duration} s asked for.` };
}

function clickStep(
  action: 'click' | 'right_click' | 'middle_click' | 'double_click' | 'triple_click',
  call: ClaudeComputerArguments,
  state: ClaudePointerState,
): ClaudeStep {
  const modifiers = call.text === undefined || call.text === null || call.text === '' ? undefined : heldModifiersOf(call.text, call.action);
  if (modifiers?.ok === false) return refuse(modifiers.error);
  // computer_20241022's clicks click where mouse_move left the pointer; a coordinate is honoured all the same
  // (the reference tool only refused it), since the point is what the model meant.
  const named = call.coordinate ?? undefined;
  const at = named === undefined ? state.pointer : pointOf(named);
  if (at === undefined) {
    return refuse(`${call.action} without a coordinate clicks where the pointer is, and no earlier action has placed it. Give the coordinate [x, y].`);
  }
  return act(modifiers === undefined ? { action, ...at } : { action, ...at, modifiers: modifiers.keys });
}

/** A click's `text` (`shift`, `ctrl`, `Shift_L+ctrl`) as the modifiers held during it, in Sightline's key names. */
function heldModifiersOf(text: string, action: string): { ok: true; keys: string } | { ok: false; error: string } {
  const keys = text.trim().split('+').map(sightlineKeyName).join('+');
  const parse = parseHeldModifiers(keys);
  if (!parse.ok) return { ok: false, error: `The keys to hold during ${action} (\`text\`) cannot be held: ${parse.error}.` };
  return { ok: true, keys };
}

function dragStep(call: ClaudeComputerArguments, state: ClaudePointerState): ClaudeStep {
  if (call.coordinate === undefined || call.coordinate === null) return refuse('left_click_drag needs `coordinate` [x, y], where to release.');
  const from = call.start_coordinate === undefined || call.start_coordinate === null ? state.pointer : pointOf(call.start_coordinate);
  if (from === undefined) {
    return refuse('left_click_drag without start_coordinate drags from where the pointer is, and no earlier action has placed it. Give start_coordinate [x, y].');
  }
  const to = pointOf(call.coordinate);
  return act({ action: 'drag', x: from.x, y: from.y, to_x: to.x, to_y: to.y });
}

function scrollStep(call: ClaudeComputerArguments, state: ClaudePointerState): ClaudeStep {
  const modifiers = call.text === undefined || call.text === null || call.text === '' ? undefined : heldModifiersOf(call.text, call.action);
  if (modifiers?.ok === false) return refuse(modifiers.error);
  if (call.scroll_direction === undefined || call.scroll_direction === null) return refuse('scroll needs `scroll_direction`: up, down, left or right.');
  if (call.scroll_amount === undefined || call.scroll_amount === null) return refuse('scroll needs `scroll_amount`, the number of wheel notches.');
  const notches = Math.min(call.scroll_amount, MAX_SCROLL_NOTCHES);
  const at = call.coordinate === undefined || call.coordinate === null ? (state.pointer ?? state.centre) : pointOf(call.coordinate);
  // Sightline's notches: positive scroll_y goes down, positive scroll_x goes right (xdotool buttons 5 and 7).
  const direction = call.scroll_direction;
  const scrollY = direction === 'down' ? notches : direction === 'up' ? -notches : 0;
  const scrollX = direction === 'right' ? notches : direction === 'left' ? -notches : 0;
  const scroll = { action: 'scroll' as const, ...at, scroll_x: scrollX, scroll_y: scrollY };
  return act(modifiers === undefined ? scroll : { ...scroll, modifiers: modifiers.keys });
}

function zoomStep(call: ClaudeComputerArguments): ClaudeStep {
  if (call.region === undefined || call.region === null) return refuse('zoom needs `region` [x0, y0, x1, y1], the top-left and bottom-right corners.');
  const [x0, y0, x1, y1] = call.region;
  const region = { left: Math.round(Math.min(x0, x1)), top: Math.round(Math.min(y0, y1)), right: Math.round(Math.max(x0, x1)), bottom: Math.round(Math.max(y0, y1)) };
  if (region.right <= region.left || region.bottom <= region.top) return refuse(`The zoom region ${JSON.stringify(call.region)} is empty.`);
  return { kind: 'zoom', region };
}

/** Claude's xdotool `key` text in Sightline's vocabulary (`ctrl+s`, `Return`, `Control_L+a` → `ctrl+a`). */
function keyStep(text: string | null | undefined, repeat: number): ClaudeStep {
  if (text === undefined || text === null || text.trim() === '') return refuse('key needs the key or combination in `text`, for example "Return" or "ctrl+s".');
  const keys = sightlineKeys(text);
  // Sightline's key action presses combinations separated by spaces one after another.
  return act({ action: 'key', keys: Array.from({ length: repeat }, () => keys).join(' ') });
}

/** Combinations of xdotool key names, separated by spaces, in Sightline's key names. */
function sightlineKeys(text: string): string {
  return text
    .trim()
    .split(/\s+/)
    .map((combination) => combination.split('+').map(sightlineKeyName).join('+'))
    .join(' ');
}

export function sightlineKeyName(name: string): string {
  const lower = name.toLowerCase();
  // Own entries only: `constructor` must not find Object.prototype's.
  const alias = Object.hasOwn(XDOTOOL_KEY_NAMES, lower) ? XDOTOOL_KEY_NAMES[lower] : undefined;
  if (alias !== undefined) return alias;
  // KP_0 … KP_9: the keypad's digits type the digits.
  const keypadDigit = /^kp_([0-9])$/.exec(lower);
  if (keypadDigit !== null) return keypadDigit[1]!;
  return name;
}

/** The action, if Sightline's schema accepts it (a text or key list too long for it is refused here). */
function act(action: ComputerAction): ClaudeStep {
  const checked = ComputerActionSchema.safeParse(action);
  if (!checked.success) return refuse(`The call cannot be done as written: ${checked.error.issues.map((issue) => issue.message).join('; ')}.`);
  return { kind: 'act', action: checked.data };
}

function refuse(message: string): ClaudeStep {
  return { kind: 'refuse', message: `${message} Nothing was done.` };
}

function pointOf(coordinate: readonly [number, number]): ClaudePoint {
  return { x: coordinate[0], y: coordinate[1] };
}
