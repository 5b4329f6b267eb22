/**
 * The boxes of `crop_image` calls, to draw on the image they zoomed into. The tool's arguments are stored
 * as the model wrote them; this reads the shapes the tool accepts (a box as x, y, width, height, or as
 * corner coordinates) and ignores anything else rather than guessing.
 */
import { z } from 'zod';
import type { Step } from '../../../shared/app-api.js';

export const CROP_IMAGE_TOOL = 'crop_image';

export interface CropBox {
  stepId: string;
  imageId: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

const number = z.number().finite();
const ImageReference = z.object({ image_id: z.string() }).or(z.object({ imageId: z.string() }));
const SizedBox = z.object({ x: number, y: number, width: number.positive(), height: number.positive() });
const CornerBox = z.object({ x1: number, y1: number, x2: number, y2: number });
const ArrayBox = z.object({ box: z.tuple([number, number, number, number]) });

/** The box of one step, when it was a crop_image call with a box we can read. */
export function cropBoxOf(step: Pick<Step, 'id' | 'tool' | 'toolArguments'>): CropBox | null {
  if (step.tool !== CROP_IMAGE_TOOL) return null;
  const reference = ImageReference.safeParse(step.toolArguments);
  if (!reference.success) return null;
  const imageId = 'image_id' in reference.data ? reference.data.image_id : reference.data.imageId;
  const sized = SizedBox.safeParse(step.toolArguments);
  if (sized.success) return { stepId: step.id, imageId, ...sized.data };
  const corners = CornerBox.safeParse(step.toolArguments);
  if (corners.success) return fromCorners(step.id, imageId, corners.data.x1, corners.data.y1, corners.data.x2, corners.data.y2);
  const array = ArrayBox.safeParse(step.toolArguments);
  if (array.success) return fromCorners(step.id, imageId, ...array.data.box);
  return null;
}

function fromCorners(stepId: string, imageId: string, x1: number, y1: number, x2: number, y2: number): CropBox | null {
  const width = Math.abs(x2 - x1);
  const height = Math.abs(y2 - y1);
  if (width === 0 || height === 0) return null;
  return { stepId, imageId, x: Math.min(x1, x2), y: Math.min(y1, y2), width, height };
}

/** Every crop box drawn on one image, among the steps loaded so far. */
export function cropBoxesFor(imageId: string, steps: Iterable<Step | undefined>): CropBox[] {
  const boxes: CropBox[] = [];
  for (const step of steps) {
    if (step === undefined) continue;
    const box = cropBoxOf(step);
    if (box !== null && box.imageId === imageId) boxes.push(box);
  }
  return boxes;
}
