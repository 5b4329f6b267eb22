/**
 * One `computer_use` call in Qwen's terms → what Sightline does: a computer action (for the one action
 * pipeline), the end of the turn (`terminate`, `answer`), or a refusal that says why nothing can be done.
 * A pure function of the arguments and of where the pointer is, so a table of real Qwen outputs pins it.
 *
 * Points pass through unchanged: Qwen names them in the space the model profile declares (pixels of the
 * image sent for Qwen2.5-VL, 0–1000 for Qwen3-VL), which is the space the call's view maps from.
 *
 * Where Qwen leaves the point out (a click or scroll "where the cursor is", a drag "from where it is"), the
 * point is the pointer's position after the last action that placed it (tracked by the tool). When no action
 * has placed it, Sightline does not know where the pointer is: a click or drag is refused with the reason,
 * and a scroll turns the wheel over the middle of the screen.
 */
import { ComputerActionSchema, type ComputerAction } from '../../../shared/actions.js';
import { keyNameFromPyautogui } from '../../../shared/pyautogui-keys.js';
import type { QwenComputerUseArguments } from './qwen-computer-use-arguments.js';

export interface QwenPoint {
  x: number;
  y: number;
}

/** What the call comes to. */
export type QwenStep =
  | { kind: 'act'; action: ComputerAction }
  | { kind: 'end'; status: 'finished' | 'failed'; summary: string }
  | { kind: 'refuse'; message: string };

export interface QwenPointerState {
  /** Where the last action that placed the pointer left it, in the model's coordinates; unknown before. */
  pointer: QwenPoint | undefined;
  /** The middle of the screenshot in the model's coordinates (where a scroll with no known point turns). */
  centre: QwenPoint;
}

/**
 * Scroll distance Qwen calls one notch of the wheel: the 100 px Chrome scrolls per notch (the browser
 * operator's PIXELS_PER_SCROLL_NOTCH). Rounded, but never below one notch, so a small but non-zero `pixels`
 * still scrolls; bounded by what one scroll action may do.
 */
export const QWEN_PIXELS_PER_NOTCH = 100;
const MAX_NOTCHES = 100;

export function translateQwenAction(call: QwenComputerUseArguments, state: QwenPointerState): QwenStep {
  switch (call.action) {
    case 'key':
      return keyStep(call.keys);
    case 'type':
      return act({ action: 'type', text: call.text });
    case 'mouse_move':
      return act({ action: 'move', ...pointOf(call.coordinate) });
    case 'left_click':
      return clickStep('click', call.coordinate, state);
    case 'right_click':
      return clickStep('right_click', call.coordinate, state);
    case 'middle_click':
      return clickStep('middle_click', call.coordinate, state);
    case 'double_click':
      return clickStep('double_click', call.coordinate, state);
    case 'triple_click':
      return clickStep('triple_click', call.coordinate, state);
    case 'left_click_drag': {
      if (state.pointer === undefined) {
        return refuse(
          'left_click_drag drags from where the cursor is, and no earlier action has placed the cursor. ' +
            'Move it to the start first (action mouse_move with coordinate), then drag to the end.',
        );
      }
      const to = pointOf(call.coordinate);
      return act({ action: 'drag', x: state.pointer.x, y: state.pointer.y, to_x: to.x, to_y: to.y });
    }
    case 'scroll':
    case 'hscroll': {
      const at = call.coordinate !== undefined ? pointOf(call.coordinate) : (state.pointer ?? state.centre);
      const notches = notchesOf(call.pixels);
      // Qwen: scroll's positive pixels go up, hscroll's go right; Sightline: positive notches go down / right.
      return call.action === 'scroll'
        ? act({ action: 'scroll', ...at, scroll_x: 0, scroll_y: -notches })
        : act({ action: 'scroll', ...at, scroll_x: notches, scroll_y: 0 });
    }
    case 'wait':
      return act(call.time === undefined ? { action: 'wait', seconds: 1 } : { action: 'wait', seconds: call.time });
    case 'terminate':
      return call.status === 'success'
        ? { kind: 'end', status: 'finished', summary: 'The task is done (the model ended it with terminate: success).' }
        : { kind: 'end', status: 'failed', summary: 'The task could not be done (the model ended it with terminate: failure).' };
    case 'answer':
      return { kind: 'end', status: 'finished', summary: call.text };
  }
}

/** Signed notches from Qwen's pixels (the sign kept, the size rounded to at least one notch). */
export function notchesOf(pixels: number): number {
  if (pixels === 0) return 0;
  const size = Math.min(MAX_NOTCHES, Math.max(1, Math.round(Math.abs(pixels) / QWEN_PIXELS_PER_NOTCH)));
  return Math.sign(pixels) * size;
}

function clickStep(
  action: 'click' | 'right_click' | 'middle_click' | 'double_click' | 'triple_click',
  coordinate: [number, number] | undefined,
  state: QwenPointerState,
): QwenStep {
  const at = coordinate !== undefined ? pointOf(coordinate) : state.pointer;
  if (at === undefined) {
    return refuse(
      `${qwenName(action)} without a coordinate clicks where the cursor is, and no earlier action has placed the cursor. ` +
        'Give the coordinate [x, y] of what to click.',
    );
  }
  return act({ action, ...at });
}

/** Qwen's `keys` list as one combination in Sightline's vocabulary (`["ctrl", "s"]` → `ctrl+s`). */
function keyStep(keys: string | string[]): QwenStep {
  const names = (typeof keys === 'string' ? [keys] : keys).map(sightlineKeyName);
  if (names.some((name) => name === '')) return refuse('A key in `keys` is empty: name each key, for example ["ctrl", "s"].');
  return act({ action: 'key', keys: names.join('+') });
}

function sightlineKeyName(key: string): string {
  if (key === ' ') return 'space';
  const name = key.trim();
  // pyautogui's names are one word each. Any other name is left to Sightline's key vocabulary to judge, but a
  // name written with spaces ("page down") would read as several combinations: one key, one word.
  return keyNameFromPyautogui(name) ?? name.replace(/\s+/g, '_');
}

/** The action, if it is one Sightline's schema accepts (a key list too long for it is refused here). */
function act(action: ComputerAction): QwenStep {
  const checked = ComputerActionSchema.safeParse(action);
  if (!checked.success) return refuse(`The call cannot be done as written: ${checked.error.issues.map((issue) => issue.message).join('; ')}.`);
  return { kind: 'act', action: checked.data };
}

function refuse(message: string): QwenStep {
  return { kind: 'refuse', message: `${message} Nothing was done.` };
}

function pointOf(coordinate: [number, number]): QwenPoint {
  return { x: coordinate[0], y: coordinate[1] };
}

function qwenName(action: ComputerAction['action']): string {
  return action === 'click' ? 'left_click' : action;
}
