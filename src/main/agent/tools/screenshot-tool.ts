/**
 * `screenshot`: the screen now, captured with dedup against the last stored screenshot. A changed screen
 * is stored (it gets an id the recall tools take) and returned; an unchanged one is answered "unchanged:
 * same as img_…" without sending the pixels again. Served to another agent (see hosted-tools.ts); the
 * agent's own model needs none, since each of its requests already shows the screen.
 */
import { z } from 'zod';
import { unchangedNotice } from '../../perception/capture-with-dedup.js';
import type { ScreenRecorder } from '../screen-recorder.js';
import type { ToolDefinition, ToolResult } from './tool-definition.js';

export const SCREENSHOT_TOOL_NAME = 'screenshot';

const ScreenshotArgumentsSchema = z.object({}).strict();

export function createScreenshotTool(screen: ScreenRecorder): ToolDefinition<Record<string, never>> {
  return {
    name: SCREENSHOT_TOOL_NAME,
    description:
      'Take a screenshot of the screen Sightline sees. Returns the image and its id (img_…), or ' +
      '"unchanged: same as img_…" when nothing changed since the last one. computer coordinates are in the ' +
      'latest screenshot returned; get_history_image and crop_image take the ids.',
    arguments: ScreenshotArgumentsSchema as z.ZodType<Record<string, never>>,
    execute: async (): Promise<ToolResult> => {
      const capture = await screen.capture(false);
      const action = { action: 'screenshot' as const };
      if (capture.kind === 'unchanged') {
        return {
          parts: [{ type: 'text', text: unchangedNotice(capture.sameAs) }],
          record: { action, result: { ok: true, unchanged: true }, dedupOfImageId: capture.sameAs },
        };
      }
      return {
        parts: [
          { type: 'text', text: `${capture.imageId}: the screen, ${capture.width}×${capture.height} pixels.` },
          { type: 'image', imageId: capture.imageId },
        ],
        record: { action, result: { ok: true, screenshotImageId: capture.imageId } },
      };
    },
  };
}
