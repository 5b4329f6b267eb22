/**
 * `get_history_image`: any earlier image of the session back, whole, by id. Folded screenshots appear in
 * the history as `[Visual_Placeholder: img_…] caption`; this brings their pixels back from blobs/ or cold
 * storage as a multimodal tool result, so the model is never blind to what it saw before.
 *
 * The result part holds the image id only (messages never store pixels); the request builder reads the
 * pixels when it renders the result.
 */
import { z } from 'zod';
import { GET_HISTORY_IMAGE_TOOL_NAME } from '../../../shared/images.js';
import type { ToolDefinition, ToolResult } from './tool-definition.js';
import { describeImage, recallImage } from './recalled-image.js';

export { GET_HISTORY_IMAGE_TOOL_NAME };

const GetHistoryImageArgumentsSchema = z
  .object({
    image_id: z
      .string()
      .describe('The id of an earlier image of this session, as in <img_3f9c0a12b7e4> or [Visual_Placeholder: img_3f9c0a12b7e4].'),
  })
  .strict();
export type GetHistoryImageArguments = z.infer<typeof GetHistoryImageArgumentsSchema>;

export function createGetHistoryImageTool(): ToolDefinition<GetHistoryImageArguments> {
  return {
    name: GET_HISTORY_IMAGE_TOOL_NAME,
    description:
      'Get an earlier image of this session back in full, by its id: a folded screenshot shown as ' +
      '[Visual_Placeholder: img_…], or any <img_…> seen before. Use it when you need to look again at an ' +
      'earlier screen; use crop_image to zoom into part of one.',
    arguments: GetHistoryImageArgumentsSchema,
    execute: async ({ image_id: typedId }, scope): Promise<ToolResult> => {
      const recalled = await recallImage(scope.storage, scope.sessionId, typedId);
      if (recalled.status === 'error') {
        return { parts: [{ type: 'text', text: recalled.message }], isError: true, record: { result: { ok: false, error: recalled.message } } };
      }
      const { imageId, record, location } = recalled;
      return {
        parts: [
          { type: 'text', text: `${imageId}: ${describeImage(scope.storage, record)}.` },
          { type: 'image', imageId },
        ],
        record: { result: { ok: true, imageId, location, width: record.width, height: record.height } },
      };
    },
  };
}
