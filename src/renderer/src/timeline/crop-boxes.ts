/**
 * The boxes of `crop_image` calls, to draw on the images they zoomed into, where they really were in the
 * stored original. The model draws a box in the image as it was shown (a downscaled copy's pixels, or
 * 0–1000), so its arguments are not the original's pixels; the step's result records each crop made with
 * its box mapped to the original (src/main/agent/tools/crop-image-tool.ts), and that is what is drawn.
 * A step whose result records no crops (older steps) is drawn from its arguments, which were then in the
 * original's pixels; ids with or without their `img_` prefix. Anything else is ignored rather than guessed at.
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
const Box = z.tuple([coordinate, coordinate, coordinate, coordinate]);
const CropArguments = z.object({ crops: z.record(z.string(), Box) });
/** A crop the tool made: the image it was cut from and the box there, in that image's own pixels. */
const MadeCrop = z.object({ image: z.string(), box: Box, cropImageId: z.string() });
const CropResult = z.object({ crops: z.array(z.unknown()) });

type CropStep = Pick<Step, 'id' | 'tool' | 'toolArguments'> & Partial<Pick<Step, 'result'>>;

/** Every readable box of one step, when it was a crop_image call; a malformed one is left out. */
export function cropBoxesOf(step: CropStep): CropBox[] {
  if (step.tool !== CROP_IMAGE_TOOL) return [];
  const made = madeCrops(step.result);
  if (made !== undefined) return made.flatMap(([image, box]) => boxOf(step.id, image, box));
  const parsed = CropArguments.safeParse(step.toolArguments);
  if (!parsed.success) return [];
  return Object.entries(parsed.data.crops).flatMap(([written, box]) => boxOf(step.id, written, box));
}

/** The crops a result records as made, with their boxes in the original; undefined when it records no crops. */
function madeCrops(result: unknown): Array<[string, readonly [number, number, number, number]]> | undefined {
  const parsed = CropResult.safeParse(result);
  if (!parsed.success) return undefined;
  return parsed.data.crops.flatMap((entry) => {
    const crop = MadeCrop.safeParse(entry);
    return crop.success ? [[crop.data.image, crop.data.box] as [string, readonly [number, number, number, number]]] : [];
  });
}

function boxOf(stepId: string, written: string, [left, top, right, bottom]: readonly [number, number, number, number]): CropBox[] {
  const imageId = parseId('image', written);
  if (imageId === undefined || right <= left || bottom <= top) return [];
  return [{ stepId, imageId, x: left, y: top, width: right - left, height: bottom - top }];
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
