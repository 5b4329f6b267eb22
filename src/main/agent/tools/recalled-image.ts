/**
 * Finding an earlier image for the recall tools (`get_history_image`, `crop_image`): the model types any
 * name the image was given (image-names.ts: its id, a placeholder, a user picture's `history_` name or
 * hash) and gets the stored bytes, wherever they are (blobs/ or cold storage, hash-checked), or one of a
 * few plain answers it can act on. Images of other sessions are not found: a session's model sees only its
 * own history.
 */
import { historyPictureText, lookUpHistoryPicture } from '../../context/index.js';
import type { ImageRecord, Storage } from '../../storage/index.js';
import { readImageName, type ImageName } from './image-names.js';

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
  const name = readImageName(typedId);
  if (name === undefined) return { status: 'error', message: INVALID_IMAGE_ID_TEXT };
  const found = findNamedImage(storage, sessionId, name);
  if (found.status === 'error') return found;
  const { imageId } = found;
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

type NamedImage = { status: 'ok'; imageId: string } | { status: 'error'; message: string };

/** The session's image a name stands for: an image id first, then a user picture by the start of its hash. */
function findNamedImage(storage: Storage, sessionId: string, name: ImageName): NamedImage {
  if (name.kind === 'image-id') {
    const known = storage.images.get(name.imageId);
    if (known !== undefined && known.sessionId === sessionId) return { status: 'ok', imageId: known.id };
  }
  const { hashPrefix } = name;
  if (hashPrefix === undefined) return { status: 'error', message: IMAGE_NOT_FOUND_TEXT };
  const lookup = lookUpHistoryPicture(storage, sessionId, hashPrefix);
  if (lookup.status === 'found') return { status: 'ok', imageId: lookup.image.id };
  if (lookup.status === 'none') return { status: 'error', message: IMAGE_NOT_FOUND_TEXT };
  const names = lookup.hashes.map((hash) => historyPictureText(hash)).join(', ');
  return {
    status: 'error',
    message: `${hashPrefix} is ambiguous: it starts the hashes of ${lookup.hashes.length} pictures (${names}); give more of the hash`,
  };
}

/** Where an image came from, in words for the model: "a screenshot from turn 3, 1280×800 pixels". */
export function describeImage(storage: Storage, record: ImageRecord): string {
  const kind = record.source === 'crop' ? 'a crop' : record.source === 'user' ? 'an image from the user' : 'a screenshot';
  const turn = record.turnId === null ? undefined : storage.turns.get(record.turnId);
  const when = turn === undefined ? '' : ` from turn ${turn.sequence}`;
  const caption = record.caption === null || record.caption === '' ? '' : ` (${record.caption})`;
  return `${kind}${when}, ${record.width}×${record.height} pixels${caption}`;
}
