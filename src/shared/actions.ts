/**
 * The actions of the `computer` tool, as the model writes them. One schema serves the agent (validating a
 * tool call), the operators (executing it), the MCP server (its input schema) and the timeline (drawing it).
 *
 * Coordinates are in the space of the screenshot the model was shown (see the model profile's coordinate
 * space); operators map them to screen coordinates. Field names follow the tool's public contract
 * (snake_case), since models are prompted with them.
 */
import { z } from 'zod';
import type { ScreenshotView } from './model-view.js';

/** The tool that carries these actions; its results carry the screen as it is now. */
export const COMPUTER_TOOL_NAME = 'computer';

/**
 * The actions Sightline's own `computer` tool declares to the model. The schema below also takes the
 * actions that only some native tools have (Claude's left_mouse_down / left_mouse_up and hold_key become
 * mouse_down, mouse_up and hold_key), so they run through the same pipeline, policy and step rows.
 */
export const COMPUTER_ACTION_TYPES = [
  'click',
  'double_click',
  'triple_click',
  'right_click',
  'middle_click',
  'move',
  'drag',
  'scroll',
  'type',
  'key',
  'wait',
  'screenshot',
] as const;
export type ComputerActionType = (typeof COMPUTER_ACTION_TYPES)[number];

const coordinate = z.number().finite();
const point = { x: coordinate, y: coordinate };
/**
 * Modifier keys held down during a click (`shift`, `ctrl`, `ctrl+shift`): a shift-click or ctrl-click.
 * Modifiers only (ctrl, shift, alt, cmd and their spellings); the operators refuse any other key.
 */
const heldModifiers = { modifiers: z.string().min(1).max(50).optional() };
/** A point that may be left out (the action then happens where the pointer is); x and y come together. */
const optionalPoint = { x: coordinate.optional(), y: coordinate.optional() };
const bothOrNeither = (point: { x?: number | undefined; y?: number | undefined }) => (point.x === undefined) === (point.y === undefined);
const BOTH_OR_NEITHER = { message: 'x and y go together: give both, or neither to press where the pointer is' };

/** Longest text one `type` action may carry; a model that emits more is almost certainly looping. */
export const MAX_TYPED_TEXT_LENGTH = 10_000;
/** Most points a drag may pass through between its start and its end (OpenAI's computer tool drags along a path). */
export const MAX_DRAG_WAYPOINTS = 100;
/** Longest pause one `wait` action may ask for. */
export const MAX_WAIT_SECONDS = 60;
/**
 * Longest time one `hold_key` may hold its keys. While they are down the person's own keyboard acts as if
 * they were held too (on the desktop a held ctrl turns their typing into shortcuts) and the turn can do
 * nothing else, while what a hold is for (a long press, a key held to repeat or to move in a game, a
 * modifier held over a screenshot) takes a few seconds; a longer hold is far more likely a mistake.
 */
export const MAX_HOLD_SECONDS = 10;

export const ComputerActionSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('click'), ...point, ...heldModifiers }).strict(),
  z.object({ action: z.literal('double_click'), ...point, ...heldModifiers }).strict(),
  z.object({ action: z.literal('triple_click'), ...point, ...heldModifiers }).strict(),
  z.object({ action: z.literal('right_click'), ...point, ...heldModifiers }).strict(),
  z.object({ action: z.literal('middle_click'), ...point, ...heldModifiers }).strict(),
  z.object({ action: z.literal('move'), ...point }).strict(),
  z
    .object({
      action: z.literal('drag'),
      ...point,
      to_x: coordinate,
      to_y: coordinate,
      /** Points the pointer passes through, in order, between the start and the end (a path, not a jump). */
      via: z.array(z.object(point).strict()).max(MAX_DRAG_WAYPOINTS).optional(),
    })
    .strict(),
  z
    .object({
      action: z.literal('scroll'),
      ...point,
      scroll_x: z.number().int().min(-100).max(100).default(0),
      scroll_y: z.number().int().min(-100).max(100).default(0),
      ...heldModifiers,
    })
    .strict(),
  /** The left button pressed and left down (moving there first when a point is given), until mouse_up. */
  z.object({ action: z.literal('mouse_down'), ...optionalPoint }).strict().refine(bothOrNeither, BOTH_OR_NEITHER),
  /** The left button released (moving there first when a point is given): the end of a mouse_down. */
  z.object({ action: z.literal('mouse_up'), ...optionalPoint }).strict().refine(bothOrNeither, BOTH_OR_NEITHER),
  z.object({ action: z.literal('type'), text: z.string().min(1).max(MAX_TYPED_TEXT_LENGTH) }).strict(),
  z
    .object({
      action: z.literal('key'),
      /** A combination such as `ctrl+s`, `alt+F4`, `Return`; several combos separated by spaces run in order. */
      keys: z.string().min(1).max(200),
    })
    .strict(),
  z
    .object({
      action: z.literal('hold_key'),
      /** One combination (`shift`, `ctrl+a`), held down together for `seconds`, then released in reverse. */
      keys: z.string().min(1).max(200),
      seconds: z.number().min(0).max(MAX_HOLD_SECONDS),
    })
    .strict(),
  z.object({ action: z.literal('wait'), seconds: z.number().min(0).max(MAX_WAIT_SECONDS).default(1) }).strict(),
  z.object({ action: z.literal('screenshot') }).strict(),
]);

export type ComputerAction = z.infer<typeof ComputerActionSchema>;

/** A tool's arguments as a step keeps them: JSON, since they were parsed from the model's JSON text. */
export const ToolArgumentsSchema = z.json();
export type ToolArguments = z.infer<typeof ToolArgumentsSchema>;

/**
 * A call of any tool but `computer` (finish, ask_user, web_search, an MCP tool…) as a step records it: the
 * validated arguments, or the raw text the model wrote when they were malformed (a string).
 */
export const ToolCallActionSchema = z.object({ tool: z.string().min(1), arguments: ToolArgumentsSchema }).strict();
export type ToolCallAction = z.infer<typeof ToolCallActionSchema>;

/**
 * What a step did, as its action column holds it: a computer action as itself (what the timeline draws),
 * any other tool call as a ToolCallAction. A computer call too malformed to be an action is a
 * ToolCallAction of the `computer` tool with its raw text.
 */
export const StepActionSchema = z.union([ComputerActionSchema, ToolCallActionSchema]);
export type StepAction = z.infer<typeof StepActionSchema>;

export function isComputerAction(action: StepAction): action is ComputerAction {
  return 'action' in action;
}

/** Actions that carry a point on the screen (drawn on the screenshot in the timeline). */
export function actionPoints(action: ComputerAction): { x: number; y: number }[] {
  switch (action.action) {
    case 'click':
    case 'double_click':
    case 'triple_click':
    case 'right_click':
    case 'middle_click':
    case 'move':
    case 'scroll':
      return [{ x: action.x, y: action.y }];
    case 'drag':
      return [{ x: action.x, y: action.y }, ...(action.via ?? []), { x: action.to_x, y: action.to_y }];
    case 'mouse_down':
    case 'mouse_up':
      return action.x === undefined || action.y === undefined ? [] : [{ x: action.x, y: action.y }];
    default:
      return [];
  }
}

/**
 * The action's points in the pixels of a stored screenshot of `width` × `height`, for drawing them where
 * they landed. (The operators map to the screen the same way, through the frame; see operators/coordinates.)
 */
export function actionPointsOnScreenshot(
  action: ComputerAction,
  view: ScreenshotView,
  size: { width: number; height: number },
): { x: number; y: number }[] {
  const scaleX = size.width / (view.coordinateSpace === 'pixels' ? view.imageWidth : 1000);
  const scaleY = size.height / (view.coordinateSpace === 'pixels' ? view.imageHeight : 1000);
  return actionPoints(action).map((point) => ({ x: point.x * scaleX, y: point.y * scaleY }));
}
