/**
 * Turning frames into files and files into pixels, with sharp. The blob store keeps a lossless PNG of the
 * full frame; the model gets a copy scaled to its profile's size. Both sizes are recorded, so a point the
 * model names in its image maps back exactly to a frame pixel (and from there to the screen).
 */
import { readFile } from 'node:fs/promises';
import sharp, { type Sharp } from 'sharp';
import { BYTES_PER_PIXEL, assertRawImage, type RawImage } from './frame.js';

export type ModelImageFormat = 'png' | 'jpeg';

export interface ModelImage {
  bytes: Buffer;
  mimeType: 'image/png' | 'image/jpeg';
  /** Size of the image sent to the model. */
  width: number;
  height: number;
  /** Size of the frame it was made from. */
  originalWidth: number;
  originalHeight: number;
}

const JPEG_QUALITY = 85;

/** Lossless PNG of the whole frame, for the blob store. */
export async function encodeLossless(image: RawImage): Promise<Buffer> {
  return rawToSharp(image).png().toBuffer();
}

/**
 * The frame scaled so that its longest edge is at most `maxEdge` (never enlarged), as PNG (default) or JPEG.
 * The output size is chosen here and forced on sharp, so the recorded size is the real one.
 */
export async function encodeForModel(image: RawImage, maxEdge: number, format: ModelImageFormat = 'png'): Promise<ModelImage> {
  if (!Number.isInteger(maxEdge) || maxEdge <= 0) throw new Error(`maxEdge must be a positive integer, got ${maxEdge}`);
  const scale = Math.min(1, maxEdge / Math.max(image.width, image.height));
  const width = Math.max(1, Math.round(image.width * scale));
  const height = Math.max(1, Math.round(image.height * scale));
  return encodeForModelAtSize(image, { width, height }, format);
}

/**
 * The frame scaled to exactly `size` (each axis on its own, so a size a model's own resize chose, with both
 * sides multiples of 28, is met exactly), as PNG (default) or JPEG.
 */
export async function encodeForModelAtSize(
  image: RawImage,
  size: { width: number; height: number },
  format: ModelImageFormat = 'png',
): Promise<ModelImage> {
  const { width, height } = size;
  for (const [name, value] of Object.entries(size)) {
    if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer, got ${value}`);
  }
  let pipeline = rawToSharp(image);
  if (width !== image.width || height !== image.height) pipeline = pipeline.resize(width, height, { fit: 'fill', kernel: 'lanczos3' });
  const bytes =
    format === 'png' ? await pipeline.png().toBuffer() : await pipeline.flatten().jpeg({ quality: JPEG_QUALITY }).toBuffer();
  return {
    bytes,
    mimeType: format === 'png' ? 'image/png' : 'image/jpeg',
    width,
    height,
    originalWidth: image.width,
    originalHeight: image.height,
  };
}

/** A point in the model's image (its pixels) as a point in the frame's pixels. */
export function modelPointToFramePoint(point: { x: number; y: number }, image: ModelImage): { x: number; y: number } {
  return {
    x: (point.x * image.originalWidth) / image.width,
    y: (point.y * image.originalHeight) / image.height,
  };
}

/** A file that could not be read as an image; its message is fit to show a user as is. */
export class ImageFileError extends Error {
  constructor(
    message: string,
    readonly path: string,
  ) {
    super(message);
    this.name = 'ImageFileError';
  }
}

/** Reads an image file (PNG, JPEG, WebP, and whatever else sharp reads) as raw RGBA. */
export async function decodeImageFile(path: string): Promise<RawImage> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    throw new ImageFileError(readFailureMessage(error, path), path);
  }
  try {
    return await decodeImageBytes(bytes);
  } catch {
    throw new ImageFileError(`not an image (expected PNG, JPEG or WebP): ${path}`, path);
  }
}

/** Decodes encoded image bytes (PNG, JPEG, WebP…) to raw RGBA. */
export async function decodeImageBytes(bytes: Buffer): Promise<RawImage> {
  const { data, info } = await sharp(bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  if (info.channels !== BYTES_PER_PIXEL) throw new Error(`expected RGBA pixels, got ${info.channels} channels`);
  return { rgba: data, width: info.width, height: info.height };
}

function rawToSharp(image: RawImage): Sharp {
  assertRawImage(image);
  return sharp(image.rgba, { raw: { width: image.width, height: image.height, channels: BYTES_PER_PIXEL } });
}

function readFailureMessage(error: unknown, path: string): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return `no such file: ${path}`;
  if (code === 'EISDIR') return `is a folder, not an image file: ${path}`;
  if (code === 'EACCES' || code === 'EPERM') return `cannot read (permission denied): ${path}`;
  return `cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`;
}
