/**
 * Claude's own computer tool: `computer` in Anthropic's beta versions (`computer_20241022`, `computer_20250124`,
 * `computer_20251124`), declared natively with the size of the image sent and called with Claude's action names
 * and argument shapes; or the stable toolset (`computer_toolset_20260801`), whose 17 members are tools of their
 * own here (claude-computer-toolset-tools.ts), named as Claude calls them. Either way the calls stay in the
 * history as written, and each is translated (claude-computer-translation.ts) into a computer action that goes
 * through the one pipeline every protocol shares (performComputerAction: the safety policy and confirmation
 * gate, the call's view, the operator, the screenshot after), or answered here: cursor_position from the pointer
 * the tool tracks, zoom as a crop of Sightline's own latest stored frame at full resolution.
 *
 * The pointer is kept in the model's coordinates after every action that ran and placed it (clicks without
 * a coordinate click there), with the size of the view it was named in, and rescaled if the screenshots the
 * model is shown change size.
 */
import { COMPUTER_TOOL_NAME } from '../../../shared/actions.js';
import { cropImageRegion } from '../../perception/image-crop.js';
import { frameBox } from './frame-box.js';
import { storeCrop } from './stored-crop.js';
import { coordinateExtentOf, TrackedPointer, type CoordinateExtent } from './tracked-pointer.js';
import { performComputerAction, withTypedArgumentPaths, type ComputerToolOptions } from './computer-tool.js';
import {
  CLAUDE_ACTIONS_BY_VERSION,
  ClaudeComputerArgumentsSchema,
  translateClaudeAction,
  type ClaudeComputerArguments,
  type ClaudeComputerToolType,
  type ClaudeRegion,
} from './claude-computer-translation.js';
import { recallImage } from './recalled-image.js';
import type { ToolCallScope, ToolDefinition, ToolResult } from './tool-definition.js';

export interface ClaudeComputerToolOptions extends ComputerToolOptions {
  toolType: ClaudeComputerToolType;
  /** The size of the screenshots as the model is shown them: the display the tool declares. */
  screenshotSize: { width: number; height: number };
}

export function createClaudeComputerTool(options: ClaudeComputerToolOptions): ToolDefinition<ClaudeComputerArguments> {
  const run = claudeComputerRunner(options);
  return {
    name: COMPUTER_TOOL_NAME,
    description:
      "Claude's computer tool: act on the screen with the mouse and keyboard. Coordinates are pixels of the latest " +
      'screenshot; every result is the screenshot after the action.',
    arguments: ClaudeComputerArgumentsSchema,
    // Anthropic declares the tool itself, so this is never sent as a declaration: it is what a malformed call's answer shows.
    parametersJsonSchema: {
      type: 'object',
      description: `Claude's ${options.toolType} computer tool: action (${CLAUDE_ACTIONS_BY_VERSION[options.toolType].join(', ')}), coordinate [x, y], text, start_coordinate, scroll_direction, scroll_amount, duration, region.`,
    },
    nativeDeclaration: {
      kind: 'anthropic-computer',
      toolType: options.toolType,
      displayWidth: options.screenshotSize.width,
      displayHeight: options.screenshotSize.height,
      ...(options.toolType === 'computer_20251124' ? { enableZoom: true } : {}),
    },
    execute: run,
  };
}

/**
 * What runs one call of Claude's computer tool, in Claude's own arguments (`action` naming the action): one per
 * tool, shared by the toolset's members, so the pointer they track is one.
 */
export function claudeComputerRunner(options: ClaudeComputerToolOptions): (call: ClaudeComputerArguments, scope: ToolCallScope) => Promise<ToolResult> {
  const pointer = new TrackedPointer();
  const fallbackExtent: CoordinateExtent = options.screenshotSize;
  return async (call, scope) => {
    const extent = scope.shown === undefined ? fallbackExtent : coordinateExtentOf(scope.shown.view);
    const step = translateClaudeAction(call, options.toolType, {
      pointer: pointer.at(extent),
      centre: { x: Math.round(extent.width / 2), y: Math.round(extent.height / 2) },
    });
    switch (step.kind) {
      case 'refuse':
        return { parts: [{ type: 'text', text: step.message }], isError: true, record: { result: { ok: false, error: step.message } } };
      case 'cursor-position': {
        const at = pointer.at(extent);
        const text =
          at === undefined
            ? 'The pointer has not been placed by any action yet, so its position is unknown; mouse_move places it.'
            : `X=${at.x},Y=${at.y}`;
        return { parts: [{ type: 'text', text }], record: { result: { ok: true, detail: text } } };
      }
      case 'zoom':
        return zoom(step.region, scope, options);
      case 'act': {
        // Claude writes what `type` and `key` type in `text`.
        const result = withTypedArgumentPaths(await performComputerAction(step.action, scope, options), [['text']]);
        if (result.isError === true) return result;
        pointer.movedBy(step.action, extent);
        return step.notice === undefined ? result : withNotice(result, step.notice);
      }
    }
  };
}

/** The result with what the model must know of how its call was done (a capped hold), after the action's own words. */
function withNotice(result: ToolResult, notice: string): ToolResult {
  const [first, ...rest] = result.parts;
  return { ...result, parts: first === undefined ? [{ type: 'text', text: notice }] : [first, { type: 'text', text: notice }, ...rest] };
}

/**
 * zoom: the region (pixels of the image the model was shown) cut out of Sightline's latest stored frame of the
 * screen (the screen as it was last recorded: after the batch's earlier actions, or the screenshot the model was
 * looking at), at the frame's own resolution, recalled by its id and stored as a crop with its own id. No new
 * capture: the crop is of a frame the session holds, which the timeline and the model can name.
 */
async function zoom(region: ClaudeRegion, scope: ToolCallScope, options: ClaudeComputerToolOptions): Promise<ToolResult> {
  const failed = (text: string): ToolResult => ({ parts: [{ type: 'text', text: `${text} Nothing was done.` }], isError: true, record: { result: { ok: false, error: text } } });
  if (scope.shown === undefined) return failed('There is no screenshot to zoom into yet; take a screenshot first.');
  const extent = coordinateExtentOf(scope.shown.view);
  if (region.left < 0 || region.top < 0 || region.right > extent.width || region.bottom > extent.height) {
    return failed(`The zoom region [${region.left}, ${region.top}, ${region.right}, ${region.bottom}] is outside the screenshot, which is ${extent.width}x${extent.height}.`);
  }
  const screenId = options.screen.latestStoredImageId() ?? scope.shown.imageId;
  const recalled = await recallImage(scope.storage, scope.sessionId, screenId);
  if (recalled.status === 'error') return failed(`The screen ${screenId} could not be read (${recalled.message}).`);
  const box = frameBox(region, extent, recalled.record);
  const cropped = await cropImageRegion(recalled.bytes, box, 1);
  const stored = await storeCrop(scope, cropped, `zoom of ${screenId} [${box.left}, ${box.top}, ${box.right}, ${box.bottom}]`);
  const text = `${stored.id}: zoom into [${region.left}, ${region.top}, ${region.right}, ${region.bottom}] of ${screenId}, the screen now, at full resolution (${stored.width}x${stored.height} pixels).`;
  return {
    parts: [{ type: 'text', text }, { type: 'image', imageId: stored.id }],
    record: {
      result: {
        ok: true,
        detail: text,
        zoom: { sourceImageId: screenId, region: [region.left, region.top, region.right, region.bottom], frameBox: [box.left, box.top, box.right, box.bottom], cropImageId: stored.id },
      },
    },
  };
}
