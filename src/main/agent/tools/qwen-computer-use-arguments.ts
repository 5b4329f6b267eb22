/**
 * The arguments of Qwen's `computer_use` function, in Qwen's own names: the JSON schema the model is shown
 * (the function its VL models were trained on, as QwenLM's cookbooks declare it in
 * cookbooks/utils/agent_function_call.py: Qwen2.5-VL's actions, plus triple_click, hscroll and answer from
 * Qwen3-VL's), and a zod schema of the same arguments that the registry checks before anything runs.
 *
 * The function's description states the screen's resolution, as Qwen's does: the size of the screenshots
 * the model is shown when it names pixels (Qwen2.5-VL), 1000x1000 when it names points 0–1000 (Qwen3-VL).
 */
import { z } from 'zod';
import { MAX_TYPED_TEXT_LENGTH, MAX_WAIT_SECONDS } from '../../../shared/actions.js';
import type { OperatorKind } from '../../../shared/config.js';
import type { CoordinateSpace } from '../../../shared/model-view.js';
import { withoutNullFields } from './computer-tool.js';

export const QWEN_COMPUTER_USE_ACTIONS = [
  'key',
  'type',
  'mouse_move',
  'left_click',
  'left_click_drag',
  'right_click',
  'middle_click',
  'double_click',
  'triple_click',
  'scroll',
  'hscroll',
  'wait',
  'terminate',
  'answer',
] as const;

/** Keys in one `key` action: a combination, not a sequence of them. */
export const MAX_QWEN_KEYS = 8;
/** Longest `answer` text: a summary for the person, not a document. */
export const MAX_QWEN_ANSWER_LENGTH = 10_000;

const coordinate = z.tuple([z.number().finite(), z.number().finite()]);
const keyName = z.string().min(1).max(50);

const QwenComputerUseActionSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('key'), keys: z.union([z.array(keyName).min(1).max(MAX_QWEN_KEYS), keyName]) }),
  z.object({ action: z.literal('type'), text: z.string().min(1).max(MAX_TYPED_TEXT_LENGTH) }),
  z.object({ action: z.literal('mouse_move'), coordinate }),
  z.object({ action: z.literal('left_click'), coordinate: coordinate.optional() }),
  z.object({ action: z.literal('left_click_drag'), coordinate }),
  z.object({ action: z.literal('right_click'), coordinate: coordinate.optional() }),
  z.object({ action: z.literal('middle_click'), coordinate: coordinate.optional() }),
  z.object({ action: z.literal('double_click'), coordinate: coordinate.optional() }),
  z.object({ action: z.literal('triple_click'), coordinate: coordinate.optional() }),
  z.object({ action: z.literal('scroll'), pixels: z.number().finite(), coordinate: coordinate.optional() }),
  z.object({ action: z.literal('hscroll'), pixels: z.number().finite(), coordinate: coordinate.optional() }),
  z.object({ action: z.literal('wait'), time: z.number().min(0).max(MAX_WAIT_SECONDS).optional() }),
  z.object({ action: z.literal('terminate'), status: z.enum(['success', 'failure']) }),
  z.object({ action: z.literal('answer'), text: z.string().min(1).max(MAX_QWEN_ANSWER_LENGTH) }),
]);
export type QwenComputerUseArguments = z.infer<typeof QwenComputerUseActionSchema>;

/**
 * Fields an action does not use are dropped rather than refused (the function has one flat schema, and
 * Qwen fills in what it likes); null fields are dropped before the check, as the computer tool does.
 */
export const QwenComputerUseArgumentsSchema = z.preprocess(withoutNullFields, QwenComputerUseActionSchema) as unknown as z.ZodType<QwenComputerUseArguments>;

const ACTION_DESCRIPTION = [
  'The action to perform. The available actions are:',
  '* `key`: Press the keys given in `keys` down in order, then release them in reverse order (a combination such as ["ctrl", "s"]).',
  '* `type`: Type a string of text on the keyboard.',
  '* `mouse_move`: Move the cursor to the (x, y) pixel coordinate on the screen.',
  '* `left_click`: Click the left mouse button at the (x, y) pixel coordinate on the screen.',
  '* `left_click_drag`: Click and drag the cursor from where it is to the (x, y) pixel coordinate on the screen.',
  '* `right_click`: Click the right mouse button at the (x, y) pixel coordinate on the screen.',
  '* `middle_click`: Click the middle mouse button at the (x, y) pixel coordinate on the screen.',
  '* `double_click`: Double-click the left mouse button at the (x, y) pixel coordinate on the screen.',
  '* `triple_click`: Triple-click the left mouse button at the (x, y) pixel coordinate on the screen.',
  '* `scroll`: Turn the mouse wheel vertically (at `coordinate` when given, else where the cursor is).',
  '* `hscroll`: Turn the mouse wheel horizontally.',
  '* `wait`: Wait the given seconds for the change to happen.',
  '* `terminate`: Terminate the current task and report its completion status.',
  '* `answer`: Answer the user\'s question with `text`; this ends the task.',
].join('\n');

/** Qwen's parameters: one flat object, each field saying which actions need it. */
export const QWEN_COMPUTER_USE_PARAMETERS: Record<string, unknown> = {
  properties: {
    action: { description: ACTION_DESCRIPTION, enum: [...QWEN_COMPUTER_USE_ACTIONS], type: 'string' },
    keys: { description: 'Required only by `action=key`.', type: 'array' },
    text: { description: 'Required only by `action=type` and `action=answer`.', type: 'string' },
    coordinate: {
      description: '(x, y): The x (pixels from the left edge) and y (pixels from the top edge) coordinates to move the mouse to.',
      type: 'array',
    },
    pixels: {
      description:
        'The amount of scrolling to perform. For `scroll`, positive values scroll up and negative values scroll down; ' +
        'for `hscroll`, positive values scroll right and negative values scroll left. Required only by `action=scroll` and `action=hscroll`.',
      type: 'number',
    },
    time: { description: 'The seconds to wait. Required only by `action=wait`.', type: 'number' },
    status: { description: 'The status of the task. Required only by `action=terminate`.', type: 'string', enum: ['success', 'failure'] },
  },
  required: ['action'],
  type: 'object',
};

/** The resolution Qwen is told: the screenshot's pixels, or its 0–1000 grid. */
export function qwenScreenResolution(screenshotSize: { width: number; height: number }, coordinateSpace: CoordinateSpace): { width: number; height: number } {
  return coordinateSpace === 'normalized-1000' ? { width: 1000, height: 1000 } : screenshotSize;
}

export function qwenComputerUseDescription(resolution: { width: number; height: number }, operatorKind: OperatorKind): string {
  const surface =
    operatorKind === 'browser'
      ? '* This is a web page in a browser, seen through screenshots of its viewport.'
      : '* This is an interface to a desktop GUI. Start applications from what is on the screen.';
  return [
    'Use a mouse and keyboard to interact with a computer, and take screenshots.',
    surface,
    '* Some applications take time to start or to respond, so you may need to wait and look at the next screenshot to see the results of your actions.',
    `* The screen's resolution is ${resolution.width}x${resolution.height}.`,
    '* Before you move the cursor to an element, find the element on the latest screenshot to determine its coordinates.',
    '* Click buttons, links, icons and fields with the cursor tip in the center of the element, not on its edges.',
  ].join('\n');
}
