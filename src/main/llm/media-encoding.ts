/**
 * Turning media parts into the forms the OpenAI-style APIs accept: data URLs for images and files,
 * a format name for audio.
 */
import type { AudioPart, FilePart, ImagePart } from '../../shared/messages.js';
import { ModelRequestError } from './model-errors.js';

export function dataUrl(mime: string, base64: string): string {
  return `data:${mime};base64,${base64}`;
}

/** The URL an image part is sent as: its own URL, or its pixels inlined as a data URL. */
export function imagePartUrl(part: ImagePart): string {
  if (part.url !== undefined) return part.url;
  if (part.data !== undefined && part.mime !== undefined) return dataUrl(part.mime, part.data);
  throw new ModelRequestError(
    `Image ${part.imageId ?? '(no id)'} has no pixels: resolve stored images before sending a request.`,
  );
}

export function fileDataUrl(part: FilePart): string {
  return dataUrl(part.mime, part.data);
}

/** An audio part's base64 bytes; stored audio (only an id) must have been resolved or replaced before. */
export function audioPartData(part: AudioPart): string {
  if (part.data !== undefined) return part.data;
  throw new ModelRequestError(`Audio ${part.mediaId ?? '(no id)'} has no bytes: resolve stored media before sending a request.`);
}

/** The two audio formats the OpenAI APIs take as input. */
export function audioInputFormat(part: AudioPart): 'wav' | 'mp3' {
  const mime = part.mime.toLowerCase().split(';')[0]?.trim();
  if (mime === 'audio/wav' || mime === 'audio/x-wav' || mime === 'audio/wave') return 'wav';
  if (mime === 'audio/mpeg' || mime === 'audio/mp3') return 'mp3';
  throw new ModelRequestError(`Audio of type ${part.mime} cannot be sent to the model: use WAV or MP3.`);
}

/** An image's pixels as base64 with their type, or the http(s) URL the provider fetches itself. */
export type ImageSource = { kind: 'base64'; mime: string; data: string } | { kind: 'url'; url: string };

/** For APIs that take base64 apart from its type (Anthropic): a data URL is unpacked, never sent as a URL. */
export function imagePartSource(part: ImagePart): ImageSource {
  if (part.data !== undefined && part.mime !== undefined) return { kind: 'base64', mime: part.mime, data: part.data };
  const url = imagePartUrl(part);
  const inline = /^data:([^;,]+);base64,(.+)$/s.exec(url);
  if (inline !== null) return { kind: 'base64', mime: inline[1]!, data: inline[2]! };
  return { kind: 'url', url };
}
