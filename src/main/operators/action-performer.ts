/**
 * One `computer` action, from the model's words to input events, the same way for every operator: points
 * are mapped (and refused when off the screenshot) before anything moves, keys are parsed before any is
 * pressed, so an action the model got wrong does nothing at all. The operator supplies the input driver
 * (nut-js for the desktop, Playwright for a page), which works in screen points.
 */
import type { ComputerAction } from '../../shared/actions.js';
import { mapModelPoint, mapModelPoints, type FrameGeometry, type Point } from './coordinates.js';
import { parseHeldModifiers, parseKeyCombinations, type KeyChord } from './key-combination.js';
import type { ModelView } from '../../shared/model-view.js';
import type { ActionResult, ElementIdentity, PageText } from './operator.js';
import type { Sleep } from './pause.js';

export type MouseButton = 'left' | 'right' | 'middle';

/** Input in screen points (desktop: logical screen units; browser: CSS pixels of the viewport). */
export interface InputDriver {
  move(to: Point): Promise<void>;
  /**
   * Brings the pointer to where a click will press, as the click itself would: the check at the press looks
   * after it, and the click that follows does not move again. Absent, `move` does it.
   */
  approach?(to: Point): Promise<void>;
  /**
   * Moves to the point, then clicks `count` times, with the `held` modifier keys down during the clicks
   * (pressed in order, released in reverse, all of them even on failure).
   */
  click(at: Point, button: MouseButton, count: 1 | 2 | 3, held?: KeyChord): Promise<void>;
  /** Left button down at the path's first point, moves through the rest, button up (released even when a move fails). */
  drag(path: readonly Point[]): Promise<void>;
  /**
   * Moves to the point, then turns the wheel: `notches` > 0 scroll right / down; with the `held` modifier
   * keys down during the turn (pressed in order, released in reverse, all of them even on failure).
   */
  scroll(at: Point, notches: Point, held?: KeyChord): Promise<void>;
  /**
   * Presses the button where the pointer is and leaves it down (mouse_down), until releaseButton or
   * releaseHeldButtons. The driver remembers what it left down.
   */
  pressButton(button: MouseButton): Promise<void>;
  /** Releases a button pressButton left down, where the pointer is now. */
  releaseButton(button: MouseButton): Promise<void>;
  /** Whether pressButton left the button down. */
  isPressed(button: MouseButton): boolean;
  /** Releases every button pressButton left down; nothing when none is (then it touches no device). */
  releaseHeldButtons(): Promise<void>;
  /** Why this driver cannot type the text (so nothing is typed), or undefined when it can. */
  cannotType(text: string): string | undefined;
  type(text: string): Promise<void>;
  /** Presses the chord's keys in order and releases them in reverse (all of them, even on failure). */
  pressChord(chord: KeyChord): Promise<void>;
  /** Presses the chord's keys in order, runs `during` with them down, and releases them in reverse (all, even on failure). */
  holdChord<T>(chord: KeyChord, during: () => Promise<T>): Promise<T>;
}

export interface ActionEnvironment {
  view: ModelView;
  /** The frame the model's screenshot was made from (the operator's last capture). */
  frame: FrameGeometry;
  input: InputDriver;
  /** Resolves after the time, or early when `signal` aborts (see pause.ts). */
  sleep: Sleep;
  /** The turn's signal: a stop cuts a wait or a hold short. */
  signal?: AbortSignal | undefined;
  /**
   * Called for a click once the pointer is on its point, before the button goes down: the element there (where
   * the operator can tell), and a reason not to press (the click then fails with it and nothing is pressed).
   */
  beforePress?: ((at: Point) => Promise<{ refusal?: string | undefined; element?: ElementIdentity | undefined; texts?: PageText[] | undefined }>) | undefined;
}

export async function performAction(action: ComputerAction, environment: ActionEnvironment): Promise<ActionResult> {
  const { view, frame, input } = environment;
  switch (action.action) {
    case 'click':
    case 'double_click':
    case 'triple_click':
    case 'right_click':
    case 'middle_click':
    case 'move': {
      const mapping = mapModelPoint(action, view, frame);
      if (!mapping.ok) return refused(mapping.error);
      const at = mapping.screen;
      if (action.action === 'move') {
        await input.move(at);
        return { ok: true, detail: `move at screen (${at.x}, ${at.y})` };
      }
      const held = action.modifiers === undefined ? undefined : parseHeldModifiers(action.modifiers);
      if (held !== undefined && !held.ok) return refused(held.error);
      let pressed: { element?: ElementIdentity; texts?: PageText[] } = {};
      if (environment.beforePress !== undefined) {
        // The pointer goes first, so what the press meets (hover effects included) is what is looked at.
        await (input.approach === undefined ? input.move(at) : input.approach(at));
        const looked = await environment.beforePress(at);
        if (looked.refusal !== undefined) return refused(looked.refusal);
        pressed = { ...(looked.element === undefined ? {} : { element: looked.element }), ...(looked.texts === undefined ? {} : { texts: looked.texts }) };
      }
      if (held === undefined) {
        await input.click(at, ...CLICKS[action.action]);
        return { ok: true, detail: `${action.action} at screen (${at.x}, ${at.y})`, ...pressed };
      }
      await input.click(at, ...CLICKS[action.action], held.chord);
      return { ok: true, detail: `${action.action} with ${action.modifiers} held at screen (${at.x}, ${at.y})`, ...pressed };
    }
    case 'drag': {
      const via = (action.via ?? []).map((point, index) => ({ point, names: { x: `via[${index}].x`, y: `via[${index}].y` } }));
      const mapping = mapModelPoints(
        [
          { point: action, names: { x: 'x', y: 'y' } },
          ...via,
          { point: { x: action.to_x, y: action.to_y }, names: { x: 'to_x', y: 'to_y' } },
        ],
        view,
        frame,
      );
      if (!mapping.ok) return refused(mapping.error);
      const path = mapping.screens;
      await input.drag(path);
      const from = path[0]!;
      const to = path[path.length - 1]!;
      return { ok: true, detail: `drag from screen (${from.x}, ${from.y}) to (${to.x}, ${to.y})` };
    }
    case 'scroll': {
      if (action.scroll_x === 0 && action.scroll_y === 0) return refused('scroll_x and scroll_y are both 0: nothing to scroll');
      const mapping = mapModelPoint(action, view, frame);
      if (!mapping.ok) return refused(mapping.error);
      const where = `(${action.scroll_x}, ${action.scroll_y}) at screen (${mapping.screen.x}, ${mapping.screen.y})`;
      if (action.modifiers === undefined) {
        await input.scroll(mapping.screen, { x: action.scroll_x, y: action.scroll_y });
        return { ok: true, detail: `scroll ${where}` };
      }
      const held = parseHeldModifiers(action.modifiers);
      if (!held.ok) return refused(held.error);
      await input.scroll(mapping.screen, { x: action.scroll_x, y: action.scroll_y }, held.chord);
      return { ok: true, detail: `scroll with ${action.modifiers} held ${where}` };
    }
    case 'mouse_down':
    case 'mouse_up':
      return pressOrRelease(action, environment);
    case 'type': {
      const reason = input.cannotType(action.text);
      if (reason) return refused(reason);
      await input.type(action.text);
      return { ok: true, detail: `typed ${action.text.length} characters` };
    }
    case 'key': {
      const parse = parseKeyCombinations(action.keys);
      if (!parse.ok) return refused(parse.error);
      for (const chord of parse.chords) await input.pressChord(chord);
      return { ok: true, detail: `pressed ${action.keys}` };
    }
    case 'hold_key':
      return holdKeys(action, environment);
    case 'wait': {
      const cutShortAfter = await pause(action.seconds, environment);
      if (cutShortAfter !== undefined) return { ok: true, detail: `waited ${cutShortAfter} s of ${action.seconds} s: the turn was stopped` };
      return { ok: true, detail: `waited ${action.seconds} s` };
    }
    case 'screenshot':
      // Nothing to do: the agent captures a new frame after every action.
      return { ok: true };
  }
}

/**
 * mouse_down / mouse_up: the left button pressed and left down, or released, where the pointer is (after
 * moving to the point, when one is given). The driver remembers a button it left down, so a second press
 * or a release of a button that is up is refused, and whatever is left down is released when the turn ends.
 */
async function pressOrRelease(action: Extract<ComputerAction, { action: 'mouse_down' | 'mouse_up' }>, environment: ActionEnvironment): Promise<ActionResult> {
  const { input } = environment;
  let at: Point | undefined;
  if (action.x !== undefined && action.y !== undefined) {
    const mapping = mapModelPoint({ x: action.x, y: action.y }, environment.view, environment.frame);
    if (!mapping.ok) return refused(mapping.error);
    at = mapping.screen;
  }
  const pressing = action.action === 'mouse_down';
  if (pressing && input.isPressed('left')) return refused('the left button is already down (an earlier mouse_down); release it with mouse_up first');
  if (!pressing && !input.isPressed('left')) return refused('the left button is not down, so there is nothing to release; mouse_down presses it');
  if (at !== undefined) await input.move(at);
  if (pressing) await input.pressButton('left');
  else await input.releaseButton('left');
  const where = at === undefined ? 'where the pointer is' : `at screen (${at.x}, ${at.y})`;
  return { ok: true, detail: pressing ? `left button down ${where}, held until mouse_up` : `left button released ${where}` };
}

/** hold_key: one combination held down for the time asked (a stop cuts it short), then released in reverse. */
async function holdKeys(action: Extract<ComputerAction, { action: 'hold_key' }>, environment: ActionEnvironment): Promise<ActionResult> {
  const parse = parseKeyCombinations(action.keys);
  if (!parse.ok) return refused(parse.error);
  const [chord, ...more] = parse.chords;
  if (chord === undefined || more.length > 0) return refused(`hold_key holds one combination, such as shift or ctrl+a, not "${action.keys}"`);
  const cutShortAfter = await environment.input.holdChord(chord, () => pause(action.seconds, environment));
  if (cutShortAfter !== undefined) return { ok: true, detail: `held ${action.keys} for ${cutShortAfter} s of ${action.seconds} s, released early: the turn was stopped` };
  return { ok: true, detail: `held ${action.keys} for ${action.seconds} s, then released` };
}

/** Pauses for `seconds`, or until the turn is stopped: then how long it paused (in seconds), else undefined. */
async function pause(seconds: number, environment: ActionEnvironment): Promise<number | undefined> {
  const started = performance.now();
  await environment.sleep(seconds * 1000, environment.signal);
  if (environment.signal?.aborted !== true) return undefined;
  return Math.round((performance.now() - started) / 100) / 10;
}

/** Which button each click action presses, and how many times. */
const CLICKS: Record<'click' | 'double_click' | 'triple_click' | 'right_click' | 'middle_click', [MouseButton, 1 | 2 | 3]> = {
  click: ['left', 1],
  double_click: ['left', 2],
  triple_click: ['left', 3],
  right_click: ['right', 1],
  middle_click: ['middle', 1],
};

/** The model's error, with the reassurance it needs to retry safely. */
function refused(reason: string): ActionResult {
  return { ok: false, error: `${reason}. Nothing was done.` };
}
