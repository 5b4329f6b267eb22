/**
 * Finding an earlier image for the recall tools (`get_history_image`, `crop_image`): the model types an
 * id, with or without its prefix, and gets the stored bytes, wherever they are (blobs/ or cold storage,
 * hash-checked), or one of a few plain answers it can act on. Images of other sessions are not found:
 * a session's model sees only its own history.
 */
import { parseId } from '../../../shared/ids.js';
import type { ImageRecord, Storage } from '../../storage/index.js';

export const INVALID_IMAGE_ID_TEXT = 'invalid image id';
export const IMAGE_NOT_FOUND_TEXT = 'image not found or expired';

export type RecalledImage =
  | { status: 'ok'; imageId: string; bytes: Buffer; record: ImageRecord; location: 'blobs' | 'cold-storage' }
  | { status: 'error'; message: string };

const FILE_PROBLEMS = {
  missing: 'its file is missing',
  corrupt: 'its file is damaged',
} as const;

export async function recallImage(storage: Storage, sessionId: string, typedId: string): Promise<RecalledImage> {
  const imageId = parseId('image', typedId);
  if (imageId === undefined) return { status: 'error', message: INVALID_IMAGE_ID_TEXT };
  const known = storage.images.get(imageId);
  if (known === undefined || known.sessionId !== sessionId) return { status: 'error', message: IMAGE_NOT_FOUND_TEXT };
  const read = await storage.images.retrieve(imageId);
  if (read.status === 'ok') {
    return {
      status: 'ok',
      imageId,
      bytes: read.bytes,
      record: read.record,
      location: read.location === 'cold' ? 'cold-storage' : 'blobs',
    };
  }
  if (read.reason === 'not-found' || read.reason === 'purged') return { status: 'error', message: IMAGE_NOT_FOUND_TEXT };
  return { status: 'error', message: `image ${imageId} unavailable: ${FILE_PROBLEMS[read.reason]}` };
}

/** Where an image came from, in words for the model: "a screenshot from turn 3, 1280×800 pixels". */
export function describeImage(storage: Storage, record: ImageRecord): string {
  const kind = record.source === 'crop' ? 'a crop' : record.source === 'user' ? 'an image from the user' : 'a screenshot';
  const turn = record.turnId === null ? undefined : storage.turns.get(record.turnId);
  const when = turn === undefined ? '' : ` from turn ${turn.sequence}`;
  const caption = record.caption === null || record.caption === '' ? '' : ` (${record.caption})`;
  return `${kind}${when}, ${record.width}×${record.height} pixels${caption}`;
}
