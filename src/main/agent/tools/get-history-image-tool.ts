/**
 * `get_history_image`: any earlier image of the session back, whole, by any name it was given (its id, a
 * placeholder, a user picture's `history_` name or hash: image-names.ts). Folded screenshots appear in the
 * history as `[Visual_Placeholder: img_…] caption`, earlier pictures of the user as `[Picture:history_…]`;
 * this brings their pixels back from blobs/ or cold storage as a multimodal tool result, so the model is
 * never blind to what it saw before. The result says at what size the image is shown when that is not its
 * own: crop_image boxes are read in that size.
 *
 * The result part holds the image id only (messages never store pixels); the request builder reads the
 * pixels when it renders the result.
 */
import { z } from 'zod';
import { GET_HISTORY_IMAGE_TOOL_NAME } from '../../../shared/images.js';
import type { ModelView } from '../../../shared/model-view.js';
import { historyPictureText } from '../../context/index.js';
import type { ImageRecord } from '../../storage/index.js';
import { IMAGE_NAMES_DESCRIPTION } from './image-names.js';
import type { ToolDefinition, ToolResult } from './tool-definition.js';
import { describeImage, recallImage } from './recalled-image.js';

export { GET_HISTORY_IMAGE_TOOL_NAME };

const GetHistoryImageArgumentsSchema = z
  .object({
    image_id: z
      .string()
      .describe(`An earlier image of this session, by any name it was given: ${IMAGE_NAMES_DESCRIPTION}.`),
  })
  .strict();
export type GetHistoryImageArguments = z.infer<typeof GetHistoryImageArgumentsSchema>;

export function createGetHistoryImageTool(): ToolDefinition<GetHistoryImageArguments> {
  return {
    name: GET_HISTORY_IMAGE_TOOL_NAME,
    description:
      'Get an earlier image of this session back in full: a folded screenshot shown as [Visual_Placeholder: img_…], ' +
      'a picture the user attached shown as [Picture:history_…], or any <img_…> seen before. Use it when you need ' +
      'to look again at an earlier screen; use crop_image to zoom into part of one. ' +
      `An image is named by ${IMAGE_NAMES_DESCRIPTION}.`,
    arguments: GetHistoryImageArgumentsSchema,
    execute: async ({ image_id: typedId }, scope): Promise<ToolResult> => {
      const recalled = await recallImage(scope.storage, scope.sessionId, typedId);
      if (recalled.status === 'error') {
        return { parts: [{ type: 'text', text: recalled.message }], isError: true, record: { result: { ok: false, error: recalled.message } } };
      }
      const { imageId, record, location } = recalled;
      const view = scope.shownImages.recalledViewOf(record);
      return {
        parts: [
          { type: 'text', text: `${imageId}${pictureName(record)}: ${describeImage(scope.storage, record)}${shownSize(view)}.` },
          { type: 'image', imageId },
        ],
        record: { result: { ok: true, imageId, location, width: record.width, height: record.height } },
      };
    },
  };
}

/** A user picture's history name beside its id, so the model can tie the two together. */
function pictureName(record: ImageRecord): string {
  return record.source === 'user' ? ` ${historyPictureText(record.sha256)}` : '';
}

/** When the model is shown a scaled copy, its size, since crop_image boxes are read in it. */
function shownSize(view: ModelView): string {
  if (view.imageWidth === view.frameWidth && view.imageHeight === view.frameHeight) return '';
  const boxes = view.coordinateSpace === 'normalized-1000' ? 'crop_image boxes are in 0–1000 coordinates' : 'crop_image boxes are in that size';
  return `, shown to you at ${view.imageWidth}×${view.imageHeight} (${boxes})`;
}
