/**
 * What the turn loop keeps of a model's reply: its text, and each image or audio the model generated,
 * stored content-addressed (storage.media) and kept in the assistant message as its id. Each stored item
 * is announced with a `media` event, so the live timeline shows it as it arrives.
 *
 * Media that cannot be kept (an image the decoder refuses, a URL the provider would have to be asked for
 * again) is reported as a warning and left out, as before: the turn goes on. A disk that refuses the write
 * is a storage failure and ends the turn like any other.
 */
import type { AudioPart, ImagePart, MessagePart } from '../../shared/messages.js';
import { decodeImageBytes } from '../perception/image-encoding.js';
import type { Storage } from '../storage/index.js';
import type { Emit } from './event-emitter.js';
import { isStorageFailure } from './storage-failure.js';
import { pcmFormatOf, wavFromPcm } from './wav-container.js';

export interface MediaOwner {
  sessionId: string;
  turnId: string;
}

/** The reply's parts as the assistant message stores them: text as it is, generated media as ids. */
export async function keepReplyParts(storage: Storage, emit: Emit, owner: MediaOwner, parts: readonly MessagePart[]): Promise<MessagePart[]> {
  const kept: MessagePart[] = [];
  for (const part of parts) {
    if (part.type === 'text') kept.push(part);
    else if (part.type === 'image' || part.type === 'audio') {
      const stored = await storeOne(storage, emit, owner, part);
      if (stored !== undefined) kept.push(stored);
    }
  }
  return kept;
}

async function storeOne(storage: Storage, emit: Emit, owner: MediaOwner, part: ImagePart | AudioPart): Promise<MessagePart | undefined> {
  try {
    return part.type === 'image' ? await storeImage(storage, emit, owner, part) : await storeAudio(storage, emit, owner, part);
  } catch (error) {
    if (isStorageFailure(error)) throw error;
    warn(emit, owner, `The ${part.type} the model generated could not be kept: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}

async function storeImage(storage: Storage, emit: Emit, owner: MediaOwner, part: ImagePart): Promise<ImagePart | undefined> {
  if (part.data === undefined) {
    warn(emit, owner, 'The model generated an image given only as a link; Sightline keeps generated images only when their bytes come with the reply.');
    return undefined;
  }
  const mime = (part.mime ?? 'image/png').toLowerCase();
  const bytes = Buffer.from(part.data, 'base64');
  // Decoding proves the bytes are an image before anything is written, and gives the size the timeline draws.
  const { width, height } = await decodeImageBytes(bytes);
  const stored = await storage.media.put(bytes, mime);
  emit({ type: 'media', ...owner, at: Date.now(), mediaId: stored.mediaId, kind: 'image', mime, width, height, byteSize: stored.byteSize });
  return { type: 'image', mediaId: stored.mediaId, mime, width, height };
}

async function storeAudio(storage: Storage, emit: Emit, owner: MediaOwner, part: AudioPart): Promise<AudioPart | undefined> {
  if (part.data === undefined) return undefined;
  const samples = Buffer.from(part.data, 'base64');
  const pcm = pcmFormatOf(part.mime);
  const bytes = pcm === undefined ? samples : wavFromPcm(samples, pcm);
  const mime = pcm === undefined ? part.mime.toLowerCase() : 'audio/wav';
  const stored = await storage.media.put(bytes, mime);
  emit({ type: 'media', ...owner, at: Date.now(), mediaId: stored.mediaId, kind: 'audio', mime, byteSize: stored.byteSize });
  return { type: 'audio', mediaId: stored.mediaId, mime };
}

function warn(emit: Emit, owner: MediaOwner, message: string): void {
  emit({ type: 'warning', ...owner, at: Date.now(), message });
}
