import { writeFileSync } from 'node:fs';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MessagePart, TextPart } from '../../src/shared/messages.js';
import { dispatchToolCall } from '../../src/main/agent/tool-dispatch.js';
import { createCropImageTool, type CropRegion } from '../../src/main/agent/tools/crop-image-tool.js';
import { createGetHistoryImageTool } from '../../src/main/agent/tools/get-history-image-tool.js';
import { createToolRegistry } from '../../src/main/agent/tools/registry.js';
import type { ToolDefinition } from '../../src/main/agent/tools/tool-definition.js';
import { ShownImages } from '../../src/main/context/index.js';
import { FIT_EDGE } from '../../src/main/llm/model-profiles.js';
import { cropImageRegion } from '../../src/main/perception/image-crop.js';
import type { ImageRecord, Storage } from '../../src/main/storage/index.js';
import { seedStorage, type SeededSession } from '../helpers/seed.js';
import { createTemporaryStorage, type TemporaryStorage } from '../helpers/temporary-storage.js';

const WIDTH = 200;
const HEIGHT = 120;
/** The model was shown each image at its own size: boxes are in the original's pixels. */
const ORIGINAL_SIZE = ShownImages.of({ maxImageEdge: 1280, imageSizing: FIT_EDGE, coordinateSpace: 'pixels' });

let temporary: TemporaryStorage;
let storage: Storage;
let seeded: SeededSession[];
let sessionId: string;
let turnId: string;
let images: ImageRecord[];
let otherSessionImage: ImageRecord;

beforeEach(async () => {
  temporary = createTemporaryStorage('sightline-recall');
  storage = temporary.storage;
  seeded = await seedStorage(storage, { sessions: 2, turnsPerSession: 2, stepsPerTurn: 2, imageWidth: WIDTH, imageHeight: HEIGHT });
  const session = seeded[0]!;
  sessionId = session.session.id;
  turnId = session.turns[1]!.turn.id;
  images = session.turns.flatMap((turn) => turn.images);
  otherSessionImage = seeded[1]!.turns[0]!.images[0]!;
});

afterEach(() => temporary.remove());

let callNumber = 0;
async function call(tool: ToolDefinition<never>, argumentsValue: unknown) {
  callNumber += 1;
  const registry = createToolRegistry([tool as ToolDefinition]);
  const outcome = await dispatchToolCall(
    registry,
    { id: `call_${callNumber}`, name: tool.name, argumentsText: JSON.stringify(argumentsValue) },
    { sessionId, turnId, signal: new AbortController().signal, storage, emit: () => undefined, shown: undefined, shownImages: ORIGINAL_SIZE },
  );
  return outcome;
}

function texts(parts: readonly MessagePart[]): string[] {
  return parts.filter((part): part is TextPart => part.type === 'text').map((part) => part.text);
}

function imageIds(parts: readonly MessagePart[]): string[] {
  return parts.flatMap((part) => (part.type === 'image' && part.imageId !== undefined ? [part.imageId] : []));
}

async function rawPixels(bytes: Buffer): Promise<{ data: Buffer; width: number; height: number }> {
  const { data, info } = await sharp(bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

async function storedBytes(imageId: string): Promise<Buffer> {
  const read = await storage.images.read(imageId);
  if (read.status !== 'ok') throw new Error(`image ${imageId} is unavailable: ${read.message}`);
  return read.bytes;
}

const getHistoryImage = () => createGetHistoryImageTool() as unknown as ToolDefinition<never>;
const cropImage = (cropRegion?: CropRegion) =>
  createCropImageTool(cropRegion === undefined ? {} : { cropRegion }) as unknown as ToolDefinition<never>;

describe('get_history_image', () => {
  it('answers "invalid image id" for text that is not an image id', async () => {
    for (const bad of ['hello', 'img_123', 'ses_3f9c0a12b7e4x', '']) {
      const { result, malformed } = await call(getHistoryImage(), { image_id: bad });
      expect(malformed).toBe(false);
      expect(result.isError).toBe(true);
      expect(texts(result.parts)).toEqual(['invalid image id']);
    }
  });

  it('answers "image not found or expired" for an unknown id, another session\'s image and a purged one', async () => {
    const purged = images[0]!;
    await storage.images.archive(purged.id);
    await storage.images.sweepRetention({ olderThanDays: 0, now: new Date(Date.now() + 60_000) });
    expect(storage.images.get(purged.id)?.purgedAt).not.toBeNull();
    for (const id of ['img_000000000000', otherSessionImage.id, purged.id]) {
      const { result } = await call(getHistoryImage(), { image_id: id });
      expect(result.isError).toBe(true);
      expect(texts(result.parts)).toEqual(['image not found or expired']);
    }
  });

  it('says the file is damaged or missing instead of sending it', async () => {
    const [corrupt, missing] = [images[0]!, images[1]!];
    writeFileSync(storage.blobs.pathFor('blobs', corrupt.sha256, corrupt.mime), 'not the same bytes');
    const corruptResult = (await call(getHistoryImage(), { image_id: corrupt.id })).result;
    expect(corruptResult.isError).toBe(true);
    expect(texts(corruptResult.parts)).toEqual([`image ${corrupt.id} unavailable: its file is damaged`]);
    expect(imageIds(corruptResult.parts)).toEqual([]);

    const { rmSync } = await import('node:fs');
    rmSync(storage.blobs.pathFor('blobs', missing.sha256, missing.mime));
    const missingResult = (await call(getHistoryImage(), { image_id: missing.id })).result;
    expect(texts(missingResult.parts)).toEqual([`image ${missing.id} unavailable: its file is missing`]);
  });

  it('returns the image from blobs, with or without its prefix, as an image part with its id', async () => {
    const image = images[1]!;
    for (const typed of [image.id, image.id.slice('img_'.length), `<${image.id.toUpperCase()}>`]) {
      const { result } = await call(getHistoryImage(), { image_id: typed });
      expect(result.isError).toBeUndefined();
      expect(imageIds(result.parts)).toEqual([image.id]);
      expect(texts(result.parts)[0]).toContain(`${image.id}: a screenshot from turn 1, ${WIDTH}×${HEIGHT} pixels`);
      expect(result.record?.result).toMatchObject({ ok: true, imageId: image.id, location: 'blobs' });
    }
  });

  it('returns a folded image from cold storage', async () => {
    const image = images[0]!;
    const archived = await storage.images.archive(image.id);
    expect(archived.file).toBe('moved');
    const { result } = await call(getHistoryImage(), { image_id: image.id });
    expect(result.isError).toBeUndefined();
    expect(imageIds(result.parts)).toEqual([image.id]);
    expect(result.record?.result).toMatchObject({ ok: true, location: 'cold-storage' });
  });
});

describe('crop_image', () => {
  it('stores each crop as a new image (source crop) with the pixels of the box, and returns it', async () => {
    const source = images[0]!;
    const { result } = await call(cropImage(), { crops: { [source.id]: [10, 20, 110, 70] } });
    expect(result.isError).toBeUndefined();
    const [cropId] = imageIds(result.parts);
    expect(cropId).toMatch(/^img_[0-9a-f]{12}$/);
    expect(cropId).not.toBe(source.id);
    const row = storage.images.get(cropId!)!;
    expect(row).toMatchObject({ source: 'crop', sessionId, turnId, width: 100, height: 50, mime: 'image/png' });
    expect(texts(result.parts)[0]).toBe(
      `${cropId}: crop of ${source.id} (a screenshot from turn 1, ${WIDTH}×${HEIGHT} pixels) box [10, 20, 110, 70], 100×50 pixels.`,
    );
    const expected = await sharp(await storedBytes(source.id)).extract({ left: 10, top: 20, width: 100, height: 50 }).png().toBuffer();
    expect((await rawPixels(await storedBytes(cropId!))).data.equals((await rawPixels(expected)).data)).toBe(true);
  });

  it('enlarges crops by scale, and refuses a scale outside 1–4 before doing anything', async () => {
    const source = images[1]!;
    const { result } = await call(cropImage(), { crops: { [source.id]: [0, 0, 40, 30] }, scale: 3 });
    const [cropId] = imageIds(result.parts);
    expect(storage.images.get(cropId!)).toMatchObject({ width: 120, height: 90, source: 'crop' });
    expect(await rawPixels(await storedBytes(cropId!))).toMatchObject({ width: 120, height: 90 });
    expect(texts(result.parts)[0]).toContain('enlarged 3×, 120×90 pixels');

    const before = storage.images.listBySession(sessionId).length;
    for (const scale of [0.5, 5]) {
      const refused = await call(cropImage(), { crops: { [source.id]: [0, 0, 40, 30] }, scale });
      expect(refused.malformed).toBe(true);
      expect(refused.result.isError).toBe(true);
      expect(texts(refused.result.parts).join('\n')).toContain('scale');
    }
    expect(storage.images.listBySession(sessionId)).toHaveLength(before);
  });

  it('crops from cold storage', async () => {
    const source = images[0]!;
    await storage.images.archive(source.id);
    const { result } = await call(cropImage(), { crops: { [source.id]: [0, 0, 50, 50] } });
    expect(result.isError).toBeUndefined();
    expect(imageIds(result.parts)).toHaveLength(1);
  });

  it('gives an error for each bad crop alone and makes the others', async () => {
    const [first, second, third] = [images[0]!, images[1]!, images[2]!];
    const before = storage.images.listBySession(sessionId).length;
    const { result } = await call(cropImage(), {
      crops: {
        [first.id]: [0, 0, WIDTH + 1, 50],
        [second.id]: [60, 10, 20, 40],
        img_000000000000: [0, 0, 10, 10],
        nonsense: [0, 0, 10, 10],
        [otherSessionImage.id]: [0, 0, 10, 10],
        [third.id]: [5, 5, 25, 15],
      },
    });
    expect(result.isError).toBeUndefined();
    const lines = texts(result.parts);
    expect(lines[0]).toBe(`${first.id} box [0, 0, 201, 50]: the box is outside the image, which is ${WIDTH}×${HEIGHT} pixels`);
    expect(lines[1]).toBe(
      `${second.id} box [60, 10, 20, 40]: the box is empty or inverted (right must be greater than left, and bottom greater than top)`,
    );
    expect(lines[2]).toBe('img_000000000000 box [0, 0, 10, 10]: image not found or expired');
    expect(lines[3]).toBe('nonsense box [0, 0, 10, 10]: invalid image id');
    expect(lines[4]).toBe(`${otherSessionImage.id} box [0, 0, 10, 10]: image not found or expired`);
    expect(lines[5]).toContain(`crop of ${third.id}`);
    const made = imageIds(result.parts);
    expect(made).toHaveLength(1);
    expect(storage.images.listBySession(sessionId)).toHaveLength(before + 1);
    expect(storage.images.get(made[0]!)).toMatchObject({ source: 'crop', width: 20, height: 10 });
  });

  it('is an error when no crop could be made, and refuses an empty crop list', async () => {
    const { result } = await call(cropImage(), { crops: { [images[0]!.id]: [-1, 0, 10, 10] } });
    expect(result.isError).toBe(true);
    expect(texts(result.parts)[0]).toContain('the box is outside the image');
    const empty = await call(cropImage(), { crops: {} });
    expect(empty.malformed).toBe(true);
  });

  it('says the source file is damaged for that crop', async () => {
    const corrupt = images[0]!;
    writeFileSync(storage.blobs.pathFor('blobs', corrupt.sha256, corrupt.mime), 'garbage');
    const { result } = await call(cropImage(), { crops: { [corrupt.id]: [0, 0, 10, 10] } });
    expect(result.isError).toBe(true);
    expect(texts(result.parts)).toEqual([`${corrupt.id} box [0, 0, 10, 10]: image ${corrupt.id} unavailable: its file is damaged`]);
  });

  it('holds at most one source image at a time, however many crops are asked for', async () => {
    // Every read of a source image is one image alive until its crop has been cut and stored.
    let alive = 0;
    let mostAlive = 0;
    const retrieve = storage.images.retrieve.bind(storage.images);
    storage.images.retrieve = async (id: string) => {
      const read = await retrieve(id);
      alive += 1;
      mostAlive = Math.max(mostAlive, alive);
      return read;
    };
    const put = storage.images.put.bind(storage.images);
    storage.images.put = async (image) => {
      const stored = await put(image);
      alive -= 1;
      return stored;
    };
    let croppingAtOnce = 0;
    let mostCroppingAtOnce = 0;
    const instrumentedCrop: CropRegion = async (bytes, box, scale) => {
      croppingAtOnce += 1;
      mostCroppingAtOnce = Math.max(mostCroppingAtOnce, croppingAtOnce);
      try {
        return await cropImageRegion(bytes, box, scale);
      } finally {
        croppingAtOnce -= 1;
      }
    };
    const crops = Object.fromEntries(images.map((image, index) => [image.id, [index, index, 40 + index, 30 + index]]));
    const { result } = await call(cropImage(instrumentedCrop), { crops, scale: 2 });
    expect(imageIds(result.parts)).toHaveLength(images.length);
    expect(mostAlive).toBe(1);
    expect(mostCroppingAtOnce).toBe(1);
    expect(alive).toBe(0);
  });
});
