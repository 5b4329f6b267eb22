/**
 * The boxes of `crop_image` calls, to draw on the images they zoomed into. The tool's arguments are
 * stored as the model wrote them: `{crops: {<image id>: [left, top, right, bottom], …}, scale?}`, boxes in
 * that image's own pixels, ids with or without their `img_` prefix (src/main/agent/tools/crop-image-tool.ts).
 * Anything else is ignored rather than guessed at.
 */
import { z } from 'zod';
import type { Step } from '../../../shared/app-api.js';
import { parseId } from '../../../shared/ids.js';

export const CROP_IMAGE_TOOL = 'crop_image';

export interface CropBox {
  stepId: string;
  imageId: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

const coordinate = z.number().finite();
const CropArguments = z.object({ crops: z.record(z.string(), z.tuple([coordinate, coordinate, coordinate, coordinate])) });

/** Every readable box of one step, when it was a crop_image call; a malformed one is left out. */
export function cropBoxesOf(step: Pick<Step, 'id' | 'tool' | 'toolArguments'>): CropBox[] {
  if (step.tool !== CROP_IMAGE_TOOL) return [];
  const parsed = CropArguments.safeParse(step.toolArguments);
  if (!parsed.success) return [];
  const boxes: CropBox[] = [];
  for (const [written, [left, top, right, bottom]] of Object.entries(parsed.data.crops)) {
    const imageId = parseId('image', written);
    if (imageId === undefined || right <= left || bottom <= top) continue;
    boxes.push({ stepId: step.id, imageId, x: left, y: top, width: right - left, height: bottom - top });
  }
  return boxes;
}

/** Every crop box drawn on one image, among the steps loaded so far. */
export function cropBoxesFor(imageId: string, steps: Iterable<Step | undefined>): CropBox[] {
  const boxes: CropBox[] = [];
  for (const step of steps) {
    if (step === undefined) continue;
    for (const box of cropBoxesOf(step)) if (box.imageId === imageId) boxes.push(box);
  }
  return boxes;
}
