/**
 * One UI-TARS action → what Sightline does for it. The action names are UI-TARS's (its COMPUTER_USE
 * templates; the aliases its parsers accept, `left_single`, `double_click`, `select` …); each becomes a
 * Sightline ComputerAction with the model's own numbers, or the end of the task (`finished`), or a question
 * to the person (`call_user`), or an error that says what was wrong in UI-TARS's terms.
 *
 *   type(content='abc\n')  → type "abc", then key Return: UI-TARS submits with a trailing newline, and a
 *                            separate Return keeps the Enter visible to the safety policy and the timeline.
 *   scroll(direction=…)    → SCROLL_NOTCHES wheel notches that way.
 *   wait()                 → wait WAIT_SECONDS (the template: "Sleep for 5s").
 */
import { ComputerActionSchema, MAX_TYPED_TEXT_LENGTH, type ComputerAction } from '../../../../shared/actions.js';
import { readPoint, type PointRead } from './ui-tars-boxes.js';
import type { WrittenCall } from './ui-tars-call-syntax.js';
import { readHotkey } from './ui-tars-keys.js';

/** What one written action comes to. `written` is the action's text, for messages and the invalid call. */
export type UiTarsStep =
  | { kind: 'computer'; action: ComputerAction; written: string }
  | { kind: 'finished'; content: string; written: string }
  | { kind: 'call_user'; written: string }
  | { kind: 'unreadable'; error: string; written: string };

/**
 * Wheel notches of one UI-TARS scroll: 5 notches of 100 CSS pixels is the 500 px UI-TARS-desktop's browser
 * operator scrolls, and the 5 clicks of the pyautogui code UI-TARS's own parser writes (action_parser.py).
 */
export const SCROLL_NOTCHES = 5;
/** wait(): "Sleep for 5s and take a screenshot to check for any changes." */
export const WAIT_SECONDS = 5;

/** The actions this dialect runs, as the model is told when it writes another. */
export const UI_TARS_ACTION_NAMES = ['click', 'left_double', 'right_single', 'drag', 'hotkey', 'type', 'scroll', 'wait', 'finished', 'call_user'] as const;

type PointerAction = 'click' | 'double_click' | 'right_click' | 'move';

const POINTER_ACTIONS: Readonly<Record<string, PointerAction>> = {
  click: 'click',
  left_single: 'click',
  left_click: 'click',
  left_double: 'double_click',
  double_click: 'double_click',
  right_single: 'right_click',
  right_click: 'right_click',
  hover: 'move',
};

/** Where an action's first and second points may be written (UI-TARS's parser reads `point=` as `start_box=`). */
const START_ARGUMENTS = ['start_box', 'point', 'start_point'] as const;
const END_ARGUMENTS = ['end_box', 'end_point'] as const;

const SCROLL_DIRECTIONS: Readonly<Record<string, { scroll_x: number; scroll_y: number }>> = {
  down: { scroll_x: 0, scroll_y: SCROLL_NOTCHES },
  up: { scroll_x: 0, scroll_y: -SCROLL_NOTCHES },
  right: { scroll_x: SCROLL_NOTCHES, scroll_y: 0 },
  left: { scroll_x: -SCROLL_NOTCHES, scroll_y: 0 },
};

export function stepsOfCall(call: WrittenCall): UiTarsStep[] {
  const pointer = POINTER_ACTIONS[call.name];
  if (pointer !== undefined) return pointerSteps(call, pointer);
  switch (call.name) {
    case 'drag':
    case 'select':
      return dragSteps(call);
    case 'scroll':
      return scrollSteps(call);
    case 'hotkey':
      return hotkeySteps(call);
    case 'type':
      return typeSteps(call);
    case 'wait':
      return [computerStep(call, { action: 'wait', seconds: WAIT_SECONDS })];
    case 'finished':
      return [{ kind: 'finished', content: call.arguments.get('content')?.trim() ?? '', written: call.text }];
    case 'call_user':
      return [{ kind: 'call_user', written: call.text }];
    default:
      return [unreadable(call, `${shortName(call.name)}() is not an action here; the actions are ${UI_TARS_ACTION_NAMES.join(', ')}`)];
  }
}

function pointerSteps(call: WrittenCall, action: PointerAction): UiTarsStep[] {
  const point = pointOf(call, START_ARGUMENTS);
  if (!point.ok) return [unreadable(call, point.error)];
  return [computerStep(call, { action, x: point.x, y: point.y })];
}

function dragSteps(call: WrittenCall): UiTarsStep[] {
  const start = pointOf(call, START_ARGUMENTS);
  if (!start.ok) return [unreadable(call, start.error)];
  const end = pointOf(call, END_ARGUMENTS);
  if (!end.ok) return [unreadable(call, end.error)];
  return [computerStep(call, { action: 'drag', x: start.x, y: start.y, to_x: end.x, to_y: end.y })];
}

function scrollSteps(call: WrittenCall): UiTarsStep[] {
  const point = pointOf(call, START_ARGUMENTS);
  if (!point.ok) return [unreadable(call, point.error)];
  const direction = (call.arguments.get('direction') ?? '').trim().toLowerCase();
  const notches = SCROLL_DIRECTIONS[direction];
  if (notches === undefined) {
    return [unreadable(call, `scroll needs direction='down', 'up', 'left' or 'right'${direction === '' ? '' : `, not '${direction.slice(0, 40)}'`}`)];
  }
  return [computerStep(call, { action: 'scroll', x: point.x, y: point.y, ...notches })];
}

function hotkeySteps(call: WrittenCall): UiTarsStep[] {
  const hotkey = readHotkey(call.arguments.get('key') ?? call.arguments.get('hotkey') ?? '');
  if (!hotkey.ok) return [unreadable(call, hotkey.error)];
  return [computerStep(call, { action: 'key', keys: hotkey.keys })];
}

function typeSteps(call: WrittenCall): UiTarsStep[] {
  const content = call.arguments.get('content') ?? call.arguments.get('text');
  if (content === undefined || content === '') return [unreadable(call, `type needs the text to type: type(content='...')`)];
  const text = withoutTrailingNewlines(content);
  const submits = text.length < content.length;
  if (text.length > MAX_TYPED_TEXT_LENGTH) {
    return [unreadable(call, `type(content=...) holds ${text.length} characters; at most ${MAX_TYPED_TEXT_LENGTH} can be typed in one action`)];
  }
  const steps: UiTarsStep[] = [];
  if (text !== '') steps.push(computerStep(call, { action: 'type', text }));
  if (submits) steps.push(computerStep(call, { action: 'key', keys: 'Return' }));
  return steps;
}

/**
 * The text without the newlines that end it: UI-TARS submits with a trailing "\n", and its own parser also
 * takes a doubly escaped "\\n" (a backslash and an n) as one. A loop, not a regular expression, so a
 * megabyte of newlines costs one pass.
 */
function withoutTrailingNewlines(content: string): string {
  let end = content.length;
  for (;;) {
    if (content[end - 1] === '\n') end -= 1;
    else if (content[end - 1] === 'n' && content[end - 2] === '\\') end -= 2;
    else return content.slice(0, end);
  }
}

/** The first of the arguments that is written, read as a point. */
function pointOf(call: WrittenCall, names: readonly string[]): PointRead {
  for (const name of names) {
    const written = call.arguments.get(name);
    if (written !== undefined) return readPoint(name, written);
  }
  return { ok: false, error: `${call.name} needs ${names[0]}='<|box_start|>(x,y)<|box_end|>'` };
}

/** A Sightline action, checked against the computer tool's own schema so every call it becomes is valid. */
function computerStep(call: WrittenCall, action: ComputerAction): UiTarsStep {
  const checked = ComputerActionSchema.safeParse(action);
  if (!checked.success) return unreadable(call, `${call.name}(...) cannot be done as written: ${checked.error.issues[0]?.message ?? 'invalid'}`);
  return { kind: 'computer', action: checked.data, written: call.text };
}

function unreadable(call: WrittenCall, error: string): UiTarsStep {
  return { kind: 'unreadable', error, written: call.text };
}

function shortName(name: string): string {
  return name.length > 40 ? `${name.slice(0, 40)}…` : name;
}
