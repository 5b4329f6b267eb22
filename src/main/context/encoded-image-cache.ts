/**
 * Stored images turned into what a request carries: base64 pixels at the model's size (modelImageSize: the
 * longest edge, then the profile's image sizing). A step rebuilds the whole request, so without a cache every
 * earlier screenshot of the turn would be read, decoded and re-encoded at every step. Entries are keyed by
 * image id, longest edge and sizing; a turn keeps one cache.
 *
 * Encoding is deterministic (same stored bytes, same edge → same base64), so a cached entry and a fresh
 * one are byte-identical: the cache saves time, it never changes what is sent.
 */
import type { ImageSource } from '../../shared/images.js';
import type { ImagesRepository } from '../storage/index.js';
import { FIT_EDGE, type ImageSizing } from '../llm/model-profiles.js';
import { decodeImageBytes, encodeForModelAtSize } from '../perception/image-encoding.js';
import { imageSizingKey, modelImageSize } from './model-image-size.js';

export interface EncodedImage {
  imageId: string;
  mime: string;
  /** Base64, without a `data:` prefix. */
  data: string;
  /** Size of the image the model is shown. */
  width: number;
  height: number;
  /** Size of the stored frame it was made from. */
  frameWidth: number;
  frameHeight: number;
  source: ImageSource;
}

export type ResolvedImage = { status: 'ok'; image: EncodedImage } | { status: 'unavailable'; reason: string };

const UNAVAILABLE_REASONS = {
  'not-found': 'not in the image index',
  missing: 'its file is missing',
  corrupt: 'its file is damaged',
  purged: 'deleted by the retention sweep',
} as const;

export class EncodedImageCache {
  private readonly entries = new Map<string, Promise<EncodedImage>>();

  /** The image at the model's size, or why it cannot be shown. Failures are not cached: a later step may succeed. */
  async resolve(images: ImagesRepository, imageId: string, maxEdge: number, sizing: ImageSizing = FIT_EDGE): Promise<ResolvedImage> {
    const key = `${imageId}@${maxEdge}/${imageSizingKey(sizing)}`;
    const cached = this.entries.get(key);
    if (cached !== undefined) return { status: 'ok', image: await cached };
    const read = await images.read(imageId);
    if (read.status !== 'ok') return { status: 'unavailable', reason: UNAVAILABLE_REASONS[read.reason] };
    const encoding = encodeStoredImage(imageId, read.bytes, read.record, (width, height) => modelImageSize(width, height, maxEdge, sizing));
    this.entries.set(key, encoding);
    try {
      return { status: 'ok', image: await encoding };
    } catch (error) {
      this.entries.delete(key);
      return { status: 'unavailable', reason: `it cannot be decoded (${error instanceof Error ? error.message : String(error)})` };
    }
  }

  get size(): number {
    return this.entries.size;
  }
}

async function encodeStoredImage(
  imageId: string,
  bytes: Buffer,
  record: { width: number; height: number; mime: string; source: ImageSource },
  sizeSent: (width: number, height: number) => { width: number; height: number },
): Promise<EncodedImage> {
  const base = { imageId, frameWidth: record.width, frameHeight: record.height, source: record.source };
  // A stored PNG already at the size sent goes as it is: no decode, no re-encode.
  const recorded = sizeSent(record.width, record.height);
  if (record.mime === 'image/png' && recorded.width === record.width && recorded.height === record.height) {
    return { ...base, mime: 'image/png', data: bytes.toString('base64'), width: record.width, height: record.height };
  }
  const raw = await decodeImageBytes(bytes);
  const encoded = await encodeForModelAtSize(raw, sizeSent(raw.width, raw.height));
  return {
    ...base,
    frameWidth: raw.width,
    frameHeight: raw.height,
    mime: encoded.mimeType,
    data: encoded.bytes.toString('base64'),
    width: encoded.width,
    height: encoded.height,
  };
}
