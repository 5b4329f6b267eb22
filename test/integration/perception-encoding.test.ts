/** Image encoding with sharp: lossless blobs, scaled copies for the model with both sizes, decoding files. */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RawImage } from '../../src/main/perception/frame.js';
import {
  decodeImageBytes,
  decodeImageFile,
  encodeForModel,
  encodeLossless,
  ImageFileError,
  modelPointToFramePoint,
} from '../../src/main/perception/image-encoding.js';

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'sightline-encoding-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A frame with a distinct colour in every pixel's red/green, so any loss shows. */
function gradientFrame(width: number, height: number): RawImage {
  const rgba = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) rgba.set([x % 256, y % 256, (x + y) % 256, 255], (y * width + x) * 4);
  }
  return { rgba, width, height };
}

describe('encodeLossless', () => {
  it('round-trips every pixel exactly', async () => {
    const frame = gradientFrame(300, 200);
    const decoded = await decodeImageBytes(await encodeLossless(frame));
    expect(decoded.width).toBe(300);
    expect(decoded.rgba.equals(frame.rgba)).toBe(true);
  });
});

describe('encodeForModel', () => {
  it('scales the longest edge to maxEdge and records both sizes', async () => {
    const image = await encodeForModel(gradientFrame(1920, 1080), 1280);
    expect(image).toMatchObject({ mimeType: 'image/png', width: 1280, height: 720, originalWidth: 1920, originalHeight: 1080 });
    const metadata = await sharp(image.bytes).metadata();
    expect({ width: metadata.width, height: metadata.height, format: metadata.format }).toEqual({ width: 1280, height: 720, format: 'png' });
  });

  it('never enlarges, and encodes JPEG on request', async () => {
    const image = await encodeForModel(gradientFrame(640, 400), 1280, 'jpeg');
    expect(image).toMatchObject({ mimeType: 'image/jpeg', width: 640, height: 400 });
    expect((await sharp(image.bytes).metadata()).format).toBe('jpeg');
  });

  it('maps a point of the model image back to the frame exactly', async () => {
    const image = await encodeForModel(gradientFrame(2560, 1600), 1000);
    expect({ width: image.width, height: image.height }).toEqual({ width: 1000, height: 625 });
    expect(modelPointToFramePoint({ x: 500, y: 312.5 }, image)).toEqual({ x: 1280, y: 800 });
    expect(modelPointToFramePoint({ x: 1000, y: 625 }, image)).toEqual({ x: 2560, y: 1600 });
  });
});

describe('decodeImageFile', () => {
  it('reads PNG and JPEG as RGBA', async () => {
    const png = join(folder, 'frame.png');
    const jpeg = join(folder, 'frame.jpg');
    await sharp({ create: { width: 32, height: 16, channels: 3, background: '#ff0000' } }).png().toFile(png);
    await sharp({ create: { width: 32, height: 16, channels: 3, background: '#ff0000' } }).jpeg().toFile(jpeg);
    for (const path of [png, jpeg]) {
      const image = await decodeImageFile(path);
      expect({ width: image.width, height: image.height, bytes: image.rgba.length }).toEqual({ width: 32, height: 16, bytes: 32 * 16 * 4 });
      expect(image.rgba[3]).toBe(255);
    }
  });

  it('says clearly when the file is missing, a folder, or not an image', async () => {
    const missing = join(folder, 'missing.png');
    await expect(decodeImageFile(missing)).rejects.toThrow(new ImageFileError(`no such file: ${missing}`, missing));
    const directory = join(folder, 'a-folder');
    mkdirSync(directory);
    await expect(decodeImageFile(directory)).rejects.toThrow(`is a folder, not an image file: ${directory}`);
    const text = join(folder, 'text.png');
    writeFileSync(text, 'hello');
    await expect(decodeImageFile(text)).rejects.toThrow(`not an image (expected PNG, JPEG or WebP): ${text}`);
  });
});
