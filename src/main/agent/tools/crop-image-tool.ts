/**
 * `crop_image`: zoom into earlier images. Each entry names an image (by any name it was given, see
 * image-names.ts) and a box [left, top, right, bottom] (right and bottom exclusive) in the image as the
 * model was shown it: the pixels of the downscaled copy it saw, or 0–1000 when it names points that way, and
 * for an image it has not been shown whole, the size get_history_image shows it at (ShownImages). The box is
 * mapped to the stored original and cut there at full resolution, optionally enlarged, stored as a new image
 * (source 'crop', with its own id) and returned as an image.
 *
 * Crops run one at a time, each read, cut and stored before the next is read, so at most one source
 * image is in memory however many crops are asked for. A crop that cannot be made (bad id, unknown
 * image, a box outside the image or inverted) is an error line for that crop alone; the others are made.
 */
import { z } from 'zod';
import type { MessagePart } from '../../../shared/messages.js';
import { screenshotViewOf, type CoordinateSpace, type ModelView } from '../../../shared/model-view.js';
import { cropImageRegion, type CropBox } from '../../perception/image-crop.js';
import { frameBox } from './frame-box.js';
import { IMAGE_NAMES_DESCRIPTION } from './image-names.js';
import { storeCrop } from './stored-crop.js';
import type { ToolCallScope, ToolDefinition, ToolResult } from './tool-definition.js';
import { coordinateExtentOf } from './tracked-pointer.js';
import { describeImage, recallImage } from './recalled-image.js';

export const CROP_IMAGE_TOOL_NAME = 'crop_image';
export const MAX_CROPS_PER_CALL = 8;
export const MAX_CROP_SCALE = 4;
/** Longest edge of a stored crop: enlarging further would only be shrunk again before the model sees it. */
export const MAX_CROP_OUTPUT_EDGE = 4096;

const BoxSchema = z.tuple([z.number(), z.number(), z.number(), z.number()]);

const CropImageArgumentsSchema = z
  .object({
    crops: z
      .record(z.string(), BoxSchema)
      .refine((crops) => Object.keys(crops).length >= 1, 'name at least one image and its box')
      .refine((crops) => Object.keys(crops).length <= MAX_CROPS_PER_CALL, `at most ${MAX_CROPS_PER_CALL} crops per call`),
    scale: z.number().min(1).max(MAX_CROP_SCALE).optional(),
  })
  .strict();
export type CropImageArguments = z.infer<typeof CropImageArgumentsSchema>;

/** How a box is read, in the model's terms: the coordinate space of the images as it was shown them. */
function boxSpaceDescription(space: CoordinateSpace): string {
  return space === 'normalized-1000'
    ? '0–1000 coordinates on both axes of the image (0, 0 its top left, 1000, 1000 its bottom right)'
    : 'the pixels of the image as you were shown it (a large screen is shown to you scaled down: the box is in ' +
        'that smaller image; an image you have not been shown whole, in the size get_history_image shows it at)';
}

function cropImageParameters(space: CoordinateSpace): Record<string, unknown> {
  return {
    type: 'object',
    properties: {
      crops: {
        type: 'object',
        description:
          `Image name → box [left, top, right, bottom] in ${boxSpaceDescription(space)}, right and bottom exclusive, ` +
          'e.g. {"img_3f9c0a12b7e4": [100, 40, 420, 200]}. ' +
          `1 to ${MAX_CROPS_PER_CALL} images. An image is named by ${IMAGE_NAMES_DESCRIPTION}.`,
        additionalProperties: { type: 'array', items: { type: 'number' }, minItems: 4, maxItems: 4 },
        minProperties: 1,
        maxProperties: MAX_CROPS_PER_CALL,
      },
      scale: { type: 'number', minimum: 1, maximum: MAX_CROP_SCALE, description: 'Enlarge each crop this many times (default 1).' },
    },
    required: ['crops'],
    additionalProperties: false,
  };
}

/** Cuts a box out of encoded image bytes; replaceable so tests can watch how many images are alive. */
export type CropRegion = typeof cropImageRegion;

export interface CropImageToolOptions {
  cropRegion?: CropRegion;
  /** How the model names points (the model profile's): what its boxes are said to be in. Pixels unless given. */
  coordinateSpace?: CoordinateSpace;
}

interface CropOutcome {
  parts: MessagePart[];
  record: Record<string, unknown>;
  ok: boolean;
}

export function createCropImageTool(options: CropImageToolOptions = {}): ToolDefinition<CropImageArguments> {
  const cropRegion = options.cropRegion ?? cropImageRegion;
  const space = options.coordinateSpace ?? 'pixels';
  return {
    name: CROP_IMAGE_TOOL_NAME,
    description:
      `Zoom into earlier images of this session, at full resolution: for each image, a box [left, top, right, bottom] ` +
      `in ${boxSpaceDescription(space)}, optionally enlarged with scale (1–4). The box is cut from the full-resolution ` +
      `original, and each crop is returned as a new image with its own id. Works on folded screenshots too. ` +
      `An image is named by ${IMAGE_NAMES_DESCRIPTION}.`,
    arguments: CropImageArgumentsSchema,
    parametersJsonSchema: cropImageParameters(space),
    execute: async ({ crops, scale = 1 }, scope): Promise<ToolResult> => {
      const outcomes: CropOutcome[] = [];
      for (const [typedId, box] of Object.entries(crops)) {
        scope.signal.throwIfAborted();
        outcomes.push(await cropOne(typedId, box, scale, scope, cropRegion));
      }
      return {
        parts: outcomes.flatMap((outcome) => outcome.parts),
        ...(outcomes.every((outcome) => !outcome.ok) ? { isError: true } : {}),
        record: { result: { ok: outcomes.some((outcome) => outcome.ok), crops: outcomes.map((outcome) => outcome.record) } },
      };
    },
  };
}

async function cropOne(
  typedId: string,
  numbers: readonly [number, number, number, number],
  requestedScale: number,
  scope: ToolCallScope,
  cropRegion: CropRegion,
): Promise<CropOutcome> {
  const drawn = roundedBox(numbers);
  const named = `${typedId} box ${formatBox(drawn)}`;
  const failed = (message: string): CropOutcome => ({
    parts: [{ type: 'text', text: `${named}: ${message}` }],
    record: { image: typedId, box: numbers, error: message },
    ok: false,
  });
  if (drawn.right <= drawn.left || drawn.bottom <= drawn.top) {
    return failed('the box is empty or inverted (right must be greater than left, and bottom greater than top)');
  }
  const recalled = await recallImage(scope.storage, scope.sessionId, typedId);
  if (recalled.status === 'error') return failed(recalled.message);
  const { imageId, record } = recalled;
  const view = scope.shownImages.viewOf(record);
  const extent = coordinateExtentOf(view);
  if (drawn.left < 0 || drawn.top < 0 || drawn.right > extent.width || drawn.bottom > extent.height) {
    return failed(outsideMessage(view));
  }
  const box = frameBox(drawn, extent, record);
  const width = box.right - box.left;
  const height = box.bottom - box.top;
  const scale = Math.min(requestedScale, MAX_CROP_OUTPUT_EDGE / Math.max(width, height));
  const cropped = await cropRegion(recalled.bytes, box, Math.max(1, scale));
  const stored = await storeCrop(scope, cropped, `crop of ${imageId} ${formatBox(box)}`);
  const scaleText = scale === 1 ? '' : ` enlarged ${formatScale(scale)}×${scale < requestedScale ? ` (capped at ${MAX_CROP_OUTPUT_EDGE} pixels)` : ''}`;
  const space = boxSpaceText(view);
  const boxText = space === undefined ? formatBox(box) : `${formatBox(drawn)} ${space}, ${formatBox(box)} in its full-resolution pixels`;
  return {
    parts: [
      {
        type: 'text',
        text:
          `${stored.id}: crop of ${imageId} (${describeImage(scope.storage, record)}) box ${boxText}` +
          `${scaleText}, ${stored.width}×${stored.height} pixels.`,
      },
      { type: 'image', imageId: stored.id },
    ],
    // `box` is where the crop really was, in the original's pixels (the timeline draws it there); `drawnBox` as the model drew it, in `view`.
    record: { image: imageId, box: boxNumbers(box), drawnBox: boxNumbers(drawn), view: screenshotViewOf(view), scale, cropImageId: stored.id },
    ok: true,
  };
}

/** Whether the model was shown the original itself: then its boxes are the original's pixels, and nothing needs saying. */
function showsOriginal(view: ModelView): boolean {
  return view.coordinateSpace === 'pixels' && view.imageWidth === view.frameWidth && view.imageHeight === view.frameHeight;
}

/** The space the model's box was read in, in its terms; undefined when that is the original's own pixels. */
function boxSpaceText(view: ModelView): string | undefined {
  if (showsOriginal(view)) return undefined;
  return view.coordinateSpace === 'normalized-1000' ? 'in 0–1000 coordinates' : `in the ${view.imageWidth}×${view.imageHeight} image you were shown`;
}

function outsideMessage(view: ModelView): string {
  if (showsOriginal(view)) return `the box is outside the image, which is ${view.frameWidth}×${view.frameHeight} pixels`;
  if (view.coordinateSpace === 'normalized-1000') return 'the box is outside the image: boxes are in 0–1000 coordinates on both axes';
  return `the box is outside the image as you were shown it, which is ${view.imageWidth}×${view.imageHeight} pixels (boxes are in that image)`;
}

function boxNumbers(box: CropBox): [number, number, number, number] {
  return [box.left, box.top, box.right, box.bottom];
}

/** Boxes are whole pixels; a model may write 10.5. */
function roundedBox([left, top, right, bottom]: readonly [number, number, number, number]): CropBox {
  return { left: Math.round(left), top: Math.round(top), right: Math.round(right), bottom: Math.round(bottom) };
}

function formatBox(box: CropBox): string {
  return `[${box.left}, ${box.top}, ${box.right}, ${box.bottom}]`;
}

function formatScale(scale: number): string {
  return Number.isInteger(scale) ? String(scale) : scale.toFixed(2);
}
