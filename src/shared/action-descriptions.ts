/**
 * A step's action in words, one line, the same wherever one is printed: `sightline run`'s progress lines
 * and confirmation questions, `sightline sessions show`, the captions of folded images (stored text that
 * later requests carry) and the timeline's step labels.
 *
 *   click (640, 412) · click (1, 2) with shift held · double click (1, 2) · drag (1, 2) to (3, 4)
 *   scroll (5, 6) by 0, -3 · scroll (5, 6) by 0, -3 with ctrl held · mouse down (1, 2) · mouse up
 *   type "hello" · key ctrl+s · hold key shift for 2s · wait 2s · screenshot · finish
 */
import { isComputerAction, type ComputerAction, type StepAction } from './actions.js';

/** Typed text longer than this is cut, so one step stays one short line. */
const TYPED_TEXT_SHOWN = 40;
/** A tool call's arguments shown for approval: long enough to hold a path or a query whole. */
const APPROVAL_ARGUMENTS_SHOWN = 400;

/** A computer action as a person would say it; any other tool call by the tool's name. */
export function describeAction(action: StepAction): string {
  return isComputerAction(action) ? describeComputerAction(action) : oneLine(action.tool);
}

/**
 * What a person is asked to approve: a computer action as above; another tool's call with its arguments as
 * JSON (quoted, so a newline or an escape in them stays on the line as text), since the arguments are
 * what is decided on: the path a `delete_file` would delete.
 */
export function describeForApproval(action: StepAction): string {
  if (isComputerAction(action)) return describeComputerAction(action);
  const argumentsText = JSON.stringify(action.arguments);
  const shown = argumentsText.length <= APPROVAL_ARGUMENTS_SHOWN ? argumentsText : `${argumentsText.slice(0, APPROVAL_ARGUMENTS_SHOWN - 1)}…`;
  return `${oneLine(action.tool)} ${shown}`;
}

function describeComputerAction(action: ComputerAction): string {
  switch (action.action) {
    case 'click':
    case 'double_click':
    case 'triple_click':
    case 'right_click':
    case 'middle_click':
      return `${action.action.replace('_', ' ')} ${point(action.x, action.y)}${held(action.modifiers)}`;
    case 'move':
      return `move ${point(action.x, action.y)}`;
    case 'mouse_down':
    case 'mouse_up': {
      const words = action.action.replace('_', ' ');
      return action.x === undefined || action.y === undefined ? words : `${words} ${point(action.x, action.y)}`;
    }
    case 'drag': {
      const via = action.via === undefined || action.via.length === 0 ? '' : ` via ${action.via.length} point${action.via.length === 1 ? '' : 's'}`;
      return `drag ${point(action.x, action.y)} to ${point(action.to_x, action.to_y)}${via}`;
    }
    case 'scroll':
      return `scroll ${point(action.x, action.y)} by ${action.scroll_x}, ${action.scroll_y}${held(action.modifiers)}`;
    case 'type':
      // JSON quoting keeps a typed newline on the line, as \n.
      return `type ${JSON.stringify(shorten(action.text))}`;
    case 'key':
      // Never shortened: a person asked to allow a key combination must see all of it.
      return `key ${oneLine(action.keys)}`;
    case 'hold_key':
      // Never shortened either: a held combination is judged and shown as a key press.
      return `hold key ${oneLine(action.keys)} for ${action.seconds}s`;
    case 'wait':
      return `wait ${action.seconds}s`;
    case 'screenshot':
      return 'screenshot';
  }
}

/** The modifier keys held during a click or a scroll: a person approving it must see them. */
function held(modifiers: string | undefined): string {
  return modifiers === undefined ? '' : ` with ${oneLine(modifiers)} held`;
}

function point(x: number, y: number): string {
  return `(${Math.round(x)}, ${Math.round(y)})`;
}

function shorten(text: string): string {
  return text.length <= TYPED_TEXT_SHOWN ? text : `${text.slice(0, TYPED_TEXT_SHOWN - 1)}…`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
