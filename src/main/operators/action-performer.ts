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
import type { ActionResult } from './operator.js';

export type MouseButton = 'left' | 'right' | 'middle';

/** Input in screen points (desktop: logical screen units; browser: CSS pixels of the viewport). */
export interface InputDriver {
  move(to: Point): Promise<void>;
  /**
   * Moves to the point, then clicks `count` times, with the `held` modifier keys down during the clicks
   * (pressed in order, released in reverse, all of them even on failure).
   */
  click(at: Point, button: MouseButton, count: 1 | 2 | 3, held?: KeyChord): Promise<void>;
  /** Left button down at the path's first point, moves through the rest, button up (released even when a move fails). */
  drag(path: readonly Point[]): Promise<void>;
  /** Moves to the point, then turns the wheel: `notches` > 0 scroll right / down. */
  scroll(at: Point, notches: Point): Promise<void>;
  /** Why this driver cannot type the text (so nothing is typed), or undefined when it can. */
  cannotType(text: string): string | undefined;
  type(text: string): Promise<void>;
  /** Presses the chord's keys in order and releases them in reverse (all of them, even on failure). */
  pressChord(chord: KeyChord): Promise<void>;
}

export interface ActionEnvironment {
  view: ModelView;
  /** The frame the model's screenshot was made from (the operator's last capture). */
  frame: FrameGeometry;
  input: InputDriver;
  sleep: (milliseconds: number) => Promise<void>;
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
      if (action.modifiers === undefined) {
        await input.click(at, ...CLICKS[action.action]);
        return { ok: true, detail: `${action.action} at screen (${at.x}, ${at.y})` };
      }
      const held = parseHeldModifiers(action.modifiers);
      if (!held.ok) return refused(held.error);
      await input.click(at, ...CLICKS[action.action], held.chord);
      return { ok: true, detail: `${action.action} with ${action.modifiers} held at screen (${at.x}, ${at.y})` };
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
      await input.scroll(mapping.screen, { x: action.scroll_x, y: action.scroll_y });
      return { ok: true, detail: `scroll (${action.scroll_x}, ${action.scroll_y}) at screen (${mapping.screen.x}, ${mapping.screen.y})` };
    }
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
    case 'wait':
      await environment.sleep(action.seconds * 1000);
      return { ok: true, detail: `waited ${action.seconds} s` };
    case 'screenshot':
      // Nothing to do: the agent captures a new frame after every action.
      return { ok: true };
  }
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
