/**
 * getImage: an image's bytes by id, from blobs/ or cold storage, hash-checked by storage, with a size
 * limit, and optionally scaled down to a thumbnail (sharp, PNG). Anything that keeps an image from being
 * shown is an `unavailable` result with the reason, never a throw: the timeline draws a placeholder.
 */
import sharp from 'sharp';
import type { ImageResult } from '../../shared/app-api.js';
import type { TimelineImageZone } from '../../shared/images.js';
import type { ImageRecord, Storage } from '../storage/index.js';

export interface ImageRequest {
  imageId: string;
  maxBytes: number;
  thumbnailWidth?: number | undefined;
}

export function timelineZone(record: Pick<ImageRecord, 'zone' | 'purgedAt'>): TimelineImageZone {
  return record.purgedAt !== null ? 'purged' : record.zone;
}

export async function loadImage(storage: Storage, request: ImageRequest): Promise<ImageResult> {
  const { imageId, maxBytes } = request;
  const known = storage.images.get(imageId);
  // Refuse a too-large original before reading it; a thumbnail is measured after it is made.
  if (known !== undefined && known.purgedAt === null && request.thumbnailWidth === undefined && known.byteSize > maxBytes) {
    return tooLarge(imageId, known.byteSize, maxBytes);
  }
  const read = await storage.images.read(imageId);
  if (read.status === 'unavailable') return { status: 'unavailable', imageId, reason: read.reason, message: read.message };
  const { record } = read;
  let bytes = read.bytes;
  let mime = record.mime;
  let width = record.width;
  let height = record.height;
  if (request.thumbnailWidth !== undefined) {
    const thumbnail = await sharp(bytes)
      .resize({ width: request.thumbnailWidth, withoutEnlargement: true })
      .png()
      .toBuffer({ resolveWithObject: true });
    bytes = thumbnail.data;
    mime = 'image/png';
    width = thumbnail.info.width;
    height = thumbnail.info.height;
  }
  if (bytes.byteLength > maxBytes) return tooLarge(imageId, bytes.byteLength, maxBytes);
  return {
    status: 'ok',
    imageId,
    mime,
    dataBase64: bytes.toString('base64'),
    width,
    height,
    byteSize: bytes.byteLength,
    zone: timelineZone(record),
    thumbnail: request.thumbnailWidth !== undefined,
  };
}

function tooLarge(imageId: string, size: number, maxBytes: number): ImageResult {
  return {
    status: 'unavailable',
    imageId,
    reason: 'too-large',
    message: `Image ${imageId} is ${size} bytes, more than the ${maxBytes} asked for; ask for a thumbnail.`,
  };
}
