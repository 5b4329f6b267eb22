/**
 * getMedia: the bytes of an image or audio a model generated, by id, hash-checked by storage, with a size
 * limit. Like getImage, anything that keeps the media from being shown is an `unavailable` result with
 * the reason, never a throw: the timeline draws a placeholder instead of a player.
 */
import type { MediaResult } from '../../shared/app-api.js';
import type { Storage } from '../storage/index.js';

export async function loadMedia(storage: Storage, request: { mediaId: string; maxBytes: number }): Promise<MediaResult> {
  const { mediaId, maxBytes } = request;
  const found = storage.media.find(mediaId);
  if (found === undefined) {
    return { status: 'unavailable', mediaId, reason: 'not-found', message: `No message of any session holds generated media ${mediaId}.` };
  }
  const read = await storage.media.read(found.media);
  if (read.status === 'unavailable') return { status: 'unavailable', mediaId, reason: read.reason, message: read.message };
  if (read.bytes.byteLength > maxBytes) {
    return {
      status: 'unavailable',
      mediaId,
      reason: 'too-large',
      message: `Generated media ${mediaId} is ${read.bytes.byteLength} bytes, more than the ${maxBytes} asked for.`,
    };
  }
  return {
    status: 'ok',
    mediaId,
    kind: found.media.kind,
    mime: found.media.mime,
    dataBase64: read.bytes.toString('base64'),
    byteSize: read.bytes.byteLength,
  };
}
