/**
 * `crop_image`: zoom into earlier images. Each entry names an image and a box in that image's own pixels
 * ([left, top, right, bottom], right and bottom exclusive); each crop is cut out, optionally enlarged,
 * stored as a new image (source 'crop', with its own id) and returned as an image.
 *
 * Crops run one at a time, each read, cut and stored before the next is read, so at most one source
 * image is in memory however many crops are asked for. A crop that cannot be made (bad id, unknown
 * image, a box outside the image or inverted) is an error line for that crop alone; the others are made.
 */
import { z } from 'zod';
import type { MessagePart } from '../../../shared/messages.js';
import { cropImageRegion, type CropBox } from '../../perception/image-crop.js';
import { storeCrop } from './stored-crop.js';
import type { ToolCallScope, ToolDefinition, ToolResult } from './tool-definition.js';
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

const CROP_IMAGE_PARAMETERS: Record<string, unknown> = {
  type: 'object',
  properties: {
    crops: {
      type: 'object',
      description:
        'Image id → box [left, top, right, bottom] in that image\'s own pixels (right and bottom exclusive), ' +
        `e.g. {"img_3f9c0a12b7e4": [100, 40, 420, 200]}. 1 to ${MAX_CROPS_PER_CALL} images.`,
      additionalProperties: { type: 'array', items: { type: 'number' }, minItems: 4, maxItems: 4 },
      minProperties: 1,
      maxProperties: MAX_CROPS_PER_CALL,
    },
    scale: { type: 'number', minimum: 1, maximum: MAX_CROP_SCALE, description: 'Enlarge each crop this many times (default 1).' },
  },
  required: ['crops'],
  additionalProperties: false,
};

/** Cuts a box out of encoded image bytes; replaceable so tests can watch how many images are alive. */
export type CropRegion = typeof cropImageRegion;

export interface CropImageToolOptions {
  cropRegion?: CropRegion;
}

interface CropOutcome {
  parts: MessagePart[];
  record: Record<string, unknown>;
  ok: boolean;
}

export function createCropImageTool(options: CropImageToolOptions = {}): ToolDefinition<CropImageArguments> {
  const cropRegion = options.cropRegion ?? cropImageRegion;
  return {
    name: CROP_IMAGE_TOOL_NAME,
    description:
      'Zoom into earlier images of this session: for each image id, a box [left, top, right, bottom] in ' +
      'that image\'s own pixels, optionally enlarged with scale (1–4). Each crop is returned as a new image ' +
      'with its own id. Works on folded screenshots too.',
    arguments: CropImageArgumentsSchema,
    parametersJsonSchema: CROP_IMAGE_PARAMETERS,
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
  const box = roundedBox(numbers);
  const named = `${typedId} box ${formatBox(box)}`;
  const failed = (message: string): CropOutcome => ({
    parts: [{ type: 'text', text: `${named}: ${message}` }],
    record: { image: typedId, box: numbers, error: message },
    ok: false,
  });
  if (box.right <= box.left || box.bottom <= box.top) {
    return failed('the box is empty or inverted (right must be greater than left, and bottom greater than top)');
  }
  const recalled = await recallImage(scope.storage, scope.sessionId, typedId);
  if (recalled.status === 'error') return failed(recalled.message);
  const { imageId, record } = recalled;
  if (box.left < 0 || box.top < 0 || box.right > record.width || box.bottom > record.height) {
    return failed(`the box is outside the image, which is ${record.width}×${record.height} pixels`);
  }
  const width = box.right - box.left;
  const height = box.bottom - box.top;
  const scale = Math.min(requestedScale, MAX_CROP_OUTPUT_EDGE / Math.max(width, height));
  const cropped = await cropRegion(recalled.bytes, box, Math.max(1, scale));
  const stored = await storeCrop(scope, cropped, `crop of ${imageId} ${formatBox(box)}`);
  const scaleText = scale === 1 ? '' : ` enlarged ${formatScale(scale)}×${scale < requestedScale ? ` (capped at ${MAX_CROP_OUTPUT_EDGE} pixels)` : ''}`;
  return {
    parts: [
      {
        type: 'text',
        text:
          `${stored.id}: crop of ${imageId} (${describeImage(scope.storage, record)}) box ${formatBox(box)}` +
          `${scaleText}, ${stored.width}×${stored.height} pixels.`,
      },
      { type: 'image', imageId: stored.id },
    ],
    record: { image: imageId, box: [box.left, box.top, box.right, box.bottom], scale, cropImageId: stored.id },
    ok: true,
  };
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
