/**
 * `computer_use`: Qwen's own computer function as a tool of the registry. The model calls it with Qwen's
 * names and argument shapes, and those stay in the history as written; each call is translated
 * (qwen-computer-use-translation.ts) into a computer action that goes through the one pipeline every
 * protocol shares (performComputerAction: the safety policy and confirmation gate, the call's view, the
 * operator, the screenshot after), or ends the turn (`terminate`, `answer`).
 *
 * The tool keeps where the pointer is, in the model's coordinates, because Qwen clicks, drags and scrolls
 * "where the cursor is". Only an action that ran moves it. The point is kept with the size of the view it
 * was named in, and rescaled if the screenshots the model is shown change size.
 */
import type { CoordinateSpace } from '../../../shared/model-view.js';
import type { OperatorKind } from '../../../shared/config.js';
import { QWEN_COMPUTER_USE_TOOL_NAME } from '../../llm/dialects/qwen-tool-call-text.js';
import { performComputerAction, withTypedArgumentPaths, type ComputerToolOptions } from './computer-tool.js';
import {
  QWEN_COMPUTER_USE_PARAMETERS,
  QwenComputerUseArgumentsSchema,
  qwenComputerUseDescription,
  qwenScreenResolution,
  type QwenComputerUseArguments,
} from './qwen-computer-use-arguments.js';
import { translateQwenAction } from './qwen-computer-use-translation.js';
import { coordinateExtentOf, TrackedPointer } from './tracked-pointer.js';
import type { ToolDefinition } from './tool-definition.js';

export { QWEN_COMPUTER_USE_TOOL_NAME };

export interface QwenComputerUseToolOptions extends ComputerToolOptions {
  /** The size of the screenshots as the model is shown them. */
  screenshotSize: { width: number; height: number };
  coordinateSpace: CoordinateSpace;
  operatorKind: OperatorKind;
}

export function createQwenComputerUseTool(options: QwenComputerUseToolOptions): ToolDefinition<QwenComputerUseArguments> {
  const pointer = new TrackedPointer();
  const fallbackExtent = qwenScreenResolution(options.screenshotSize, options.coordinateSpace);
  return {
    name: QWEN_COMPUTER_USE_TOOL_NAME,
    description: qwenComputerUseDescription(fallbackExtent, options.operatorKind),
    arguments: QwenComputerUseArgumentsSchema,
    parametersJsonSchema: QWEN_COMPUTER_USE_PARAMETERS,
    execute: async (call, scope) => {
      const extent = scope.shown === undefined ? fallbackExtent : coordinateExtentOf(scope.shown.view);
      const step = translateQwenAction(call, {
        pointer: pointer.at(extent),
        centre: { x: Math.round(extent.width / 2), y: Math.round(extent.height / 2) },
      });
      if (step.kind === 'refuse') return { parts: [{ type: 'text', text: step.message }], isError: true };
      if (step.kind === 'end') {
        return { parts: [{ type: 'text', text: step.status === 'finished' ? 'Finished.' : 'Finished without success.' }], endTurn: { status: step.status, summary: step.summary } };
      }
      // Qwen writes what `type` types in `text`, and the keys of `key` in `keys` (a list or one name).
      const result = withTypedArgumentPaths(await performComputerAction(step.action, scope, options), [[call.action === 'type' ? 'text' : 'keys']]);
      if (result.isError !== true) pointer.movedBy(step.action, extent);
      return result;
    },
  };
}

