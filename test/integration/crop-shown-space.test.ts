/**
 * crop_image reads its boxes in the image as the model was shown it, not in the stored original's pixels:
 * a HiDPI-sized frame (2560×1600) shown scaled down (1280×800), or named in 0–1000, or shown as a reduced
 * view. A box the model draws around a button comes back as that button's region of the original, at full
 * resolution, and the step records the box where it really was, which is where the timeline draws it.
 */
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MessagePart, TextPart } from '../../src/shared/messages.js';
import { shownScreenshot, type CoordinateSpace } from '../../src/shared/model-view.js';
import { dispatchToolCall } from '../../src/main/agent/tool-dispatch.js';
import { createCropImageTool } from '../../src/main/agent/tools/crop-image-tool.js';
import { createGetHistoryImageTool } from '../../src/main/agent/tools/get-history-image-tool.js';
import { createToolRegistry } from '../../src/main/agent/tools/registry.js';
import type { ToolDefinition } from '../../src/main/agent/tools/tool-definition.js';
import { ShownImages } from '../../src/main/context/index.js';
import { FIT_EDGE } from '../../src/main/llm/model-profiles.js';
import type { ImageRecord, Storage } from '../../src/main/storage/index.js';
import { cropBoxesOf } from '../../src/renderer/src/timeline/crop-boxes.js';
import { createTemporaryStorage, type TemporaryStorage } from '../helpers/temporary-storage.js';

const FRAME = { width: 2560, height: 1600 };
/** The button drawn on the frame, in the original's pixels: right and bottom exclusive. */
const BUTTON = { left: 1000, top: 600, right: 1400, bottom: 700 };
const BUTTON_PIXELS = (BUTTON.right - BUTTON.left) * (BUTTON.bottom - BUTTON.top);
const BUTTON_COLOUR = [200, 30, 40] as const;

let temporary: TemporaryStorage;
let storage: Storage;
let sessionId: string;
let turnId: string;
let screen: ImageRecord;

/** A grey 2560×1600 screen with one red button on it. */
async function screenWithButton(): Promise<Buffer> {
  const rgba = Buffer.alloc(FRAME.width * FRAME.height * 4, 225);
  for (let y = BUTTON.top; y < BUTTON.bottom; y += 1) {
    for (let x = BUTTON.left; x < BUTTON.right; x += 1) rgba.set(BUTTON_COLOUR, (y * FRAME.width + x) * 4);
  }
  return sharp(rgba, { raw: { width: FRAME.width, height: FRAME.height, channels: 4 } }).png().toBuffer();
}

beforeEach(async () => {
  temporary = createTemporaryStorage('sightline-crop-space');
  storage = temporary.storage;
  const session = storage.sessions.create({ title: 'Crops' });
  sessionId = session.id;
  turnId = storage.turns.start({ sessionId, userRequest: 'Zoom into the button' }).id;
  screen = await storage.images.put({ sessionId, turnId, bytes: await screenWithButton(), mime: 'image/png', ...FRAME, source: 'screen' });
});

afterEach(() => temporary.remove());

/** How a model is shown images: at most 1280 pixels on the long edge, naming points as `space` says. */
function showing(space: CoordinateSpace = 'pixels') {
  return { maxImageEdge: 1280, imageSizing: FIT_EDGE, coordinateSpace: space };
}

/** The screen as a request showed it, at `width`×`height`. */
function shownAt(width: number, height: number, space: CoordinateSpace = 'pixels'): ShownImages {
  return ShownImages.of(showing(space), [shownScreenshot(screen.id, { width, height, frameWidth: FRAME.width, frameHeight: FRAME.height }, space)]);
}

let callNumber = 0;
async function call(tool: ToolDefinition<never>, argumentsValue: unknown, shownImages: ShownImages) {
  callNumber += 1;
  const registry = createToolRegistry([tool as ToolDefinition]);
  return dispatchToolCall(
    registry,
    { id: `call_${callNumber}`, name: tool.name, argumentsText: JSON.stringify(argumentsValue) },
    { sessionId, turnId, signal: new AbortController().signal, storage, emit: () => undefined, shown: undefined, shownImages },
  );
}

const cropImage = (space?: CoordinateSpace) => createCropImageTool(space === undefined ? {} : { coordinateSpace: space }) as unknown as ToolDefinition<never>;

function texts(parts: readonly MessagePart[]): string[] {
  return parts.filter((part): part is TextPart => part.type === 'text').map((part) => part.text);
}

/** The one crop a call made: its stored row and its pixels. */
async function madeCrop(parts: readonly MessagePart[]) {
  const ids = parts.flatMap((part) => (part.type === 'image' && part.imageId !== undefined ? [part.imageId] : []));
  expect(ids).toHaveLength(1);
  const row = storage.images.get(ids[0]!)!;
  const read = await storage.images.read(row.id);
  if (read.status !== 'ok') throw new Error(`crop ${row.id} is unavailable`);
  const { data, info } = await sharp(read.bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let buttonPixels = 0;
  for (let offset = 0; offset < data.length; offset += 3) {
    if (data[offset] === BUTTON_COLOUR[0] && data[offset + 1] === BUTTON_COLOUR[1] && data[offset + 2] === BUTTON_COLOUR[2]) buttonPixels += 1;
  }
  return { row, width: info.width, height: info.height, buttonPixels };
}

/** The step as the timeline reads it: the call's arguments and its recorded result. */
function timelineBoxes(argumentsValue: unknown, result: unknown) {
  return cropBoxesOf({ id: 'step_1', tool: 'crop_image', toolArguments: argumentsValue as never, result: result as never });
}

describe('crop boxes in the space the model was shown', () => {
  it('reads a box on a 2560×1600 frame shown as 1280×800 in the smaller image, and returns the button at full resolution', async () => {
    // Around the button as the model saw it: (500, 300)–(700, 350) in the 1280×800 copy, with a margin.
    const argumentsValue = { crops: { [screen.id]: [490, 290, 710, 360] } };
    const { result } = await call(cropImage(), argumentsValue, shownAt(1280, 800));
    expect(result.isError).toBeUndefined();
    const crop = await madeCrop(result.parts);
    expect([crop.width, crop.height]).toEqual([440, 140]);
    expect(crop.buttonPixels).toBe(BUTTON_PIXELS);
    expect(crop.row.caption).toBe(`crop of ${screen.id} [980, 580, 1420, 720]`);
    expect(texts(result.parts)[0]).toBe(
      `${crop.row.id}: crop of ${screen.id} (a screenshot from turn 1, 2560×1600 pixels) box [490, 290, 710, 360] in the 1280×800 image you were shown, ` +
        '[980, 580, 1420, 720] in its full-resolution pixels, 440×140 pixels.',
    );
    const recorded = result.record?.result;
    expect(recorded).toMatchObject({
      crops: [{ image: screen.id, box: [980, 580, 1420, 720], drawnBox: [490, 290, 710, 360], view: { imageWidth: 1280, imageHeight: 800, coordinateSpace: 'pixels' } }],
    });
    // The timeline draws it on the original where it really was, not where the arguments' numbers would put it.
    expect(timelineBoxes(argumentsValue, recorded)).toEqual([{ stepId: 'step_1', imageId: screen.id, x: 980, y: 580, width: 440, height: 140 }]);
  });

  it('reads a box in 0–1000 coordinates for a model that names points that way', async () => {
    // The button spans 390.6–546.9 across and 375–437.5 down in thousandths of the screen.
    const { result } = await call(cropImage('normalized-1000'), { crops: { [screen.id]: [385, 368, 552, 444] } }, shownAt(1000, 625, 'normalized-1000'));
    expect(result.isError).toBeUndefined();
    const crop = await madeCrop(result.parts);
    expect(crop.buttonPixels).toBe(BUTTON_PIXELS);
    expect(crop.row.caption).toBe(`crop of ${screen.id} [985, 588, 1414, 711]`);
    expect(texts(result.parts)[0]).toContain('box [385, 368, 552, 444] in 0–1000 coordinates, [985, 588, 1414, 711] in its full-resolution pixels');
    // Past 1000 is off the image, whatever size it was shown at.
    const outside = await call(cropImage('normalized-1000'), { crops: { [screen.id]: [900, 0, 1001, 10] } }, shownAt(1000, 625, 'normalized-1000'));
    expect(texts(outside.result.parts)).toEqual([`${screen.id} box [900, 0, 1001, 10]: the box is outside the image: boxes are in 0–1000 coordinates on both axes`]);
  });

  it('reads a box on a reduced view in the reduced view, the last showing of an image being the one that counts', async () => {
    const reducedThenWhole = ShownImages.of(showing(), [
      shownScreenshot(screen.id, { width: 1280, height: 800, frameWidth: FRAME.width, frameHeight: FRAME.height }, 'pixels'),
      shownScreenshot(screen.id, { width: 640, height: 400, frameWidth: FRAME.width, frameHeight: FRAME.height }, 'pixels'),
    ]);
    const { result } = await call(cropImage(), { crops: { [screen.id]: [245, 145, 355, 180] } }, reducedThenWhole);
    const crop = await madeCrop(result.parts);
    expect(crop.row.caption).toBe(`crop of ${screen.id} [980, 580, 1420, 720]`);
    expect(crop.buttonPixels).toBe(BUTTON_PIXELS);
  });

  it('reads a box on an image the request did not show in the size get_history_image shows it at, and says that size', async () => {
    const notShown = ShownImages.of(showing());
    const recalled = await call(createGetHistoryImageTool() as unknown as ToolDefinition<never>, { image_id: screen.id }, notShown);
    expect(texts(recalled.result.parts)[0]).toBe(
      `${screen.id}: a screenshot from turn 1, 2560×1600 pixels, shown to you at 1280×800 (crop_image boxes are in that size).`,
    );
    const { result } = await call(cropImage(), { crops: { [screen.id]: [490, 290, 710, 360] } }, notShown);
    const crop = await madeCrop(result.parts);
    expect(crop.row.caption).toBe(`crop of ${screen.id} [980, 580, 1420, 720]`);
    expect(crop.buttonPixels).toBe(BUTTON_PIXELS);
  });

  it('refuses a box outside the image as it was shown, naming that size, though it lies inside the original', async () => {
    const { result } = await call(cropImage(), { crops: { [screen.id]: [1200, 700, 1400, 900] } }, shownAt(1280, 800));
    expect(result.isError).toBe(true);
    expect(texts(result.parts)).toEqual([
      `${screen.id} box [1200, 700, 1400, 900]: the box is outside the image as you were shown it, which is 1280×800 pixels (boxes are in that image)`,
    ]);
    expect(storage.images.listBySession(sessionId).filter((image) => image.source === 'crop')).toEqual([]);
  });

  it('names the space in its description: pixels of the image as shown, or 0–1000', () => {
    expect(createCropImageTool().description).toContain('in the pixels of the image as you were shown it');
    expect(createCropImageTool({ coordinateSpace: 'normalized-1000' }).description).toContain('in 0–1000 coordinates on both axes of the image');
    for (const tool of [createCropImageTool(), createGetHistoryImageTool()]) {
      expect(tool.description).toContain('history_<hash>');
      expect(tool.description).toContain('[Visual_Placeholder: img_…]');
    }
  });
});
