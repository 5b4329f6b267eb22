/**
 * The check every picture a person attaches passes before a turn begins, whichever way it came (a file
 * named by `sightline run --image`, base64 from the app API): it must be a PNG, JPEG, WebP or GIF as its
 * bytes say, no larger than the documented limits, and decodable to the end (a file cut short is refused
 * here rather than failing the turn). A GIF is taken as its first frame. The bytes are kept as they came:
 * the stored original is lossless, and the model gets a copy at its own image size when a request is built.
 */
import sharp from 'sharp';
import type { ImagePart, UserMessage } from '../../shared/messages.js';
import {
  MAX_PICTURE_BYTES,
  MAX_PICTURE_PIXELS,
  PICTURE_FORMAT_NAMES,
  type PictureAttachment,
  type PictureMimeType,
} from '../../shared/pictures.js';

/** A picture that passed the check: its bytes as given, the type they really are, the first frame's size. */
export interface CheckedPicture {
  name: string;
  mime: PictureMimeType;
  bytes: Buffer;
  width: number;
  height: number;
}

/** A picture refused, with its name and the reason in words fit to show a person. */
export class PictureRefusedError extends Error {
  override name = 'PictureRefusedError';
  constructor(
    readonly pictureName: string,
    readonly reason: string,
  ) {
    super(`${pictureName}: ${reason}`);
  }
}

const MIME_OF_FORMAT: Readonly<Record<string, PictureMimeType>> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
};

/** The smallest decode that still reads every byte of the first frame: a damaged file fails here. */
const PROBE_EDGE = 16;

export async function checkPicture(name: string, bytes: Buffer): Promise<CheckedPicture> {
  if (bytes.byteLength === 0) throw new PictureRefusedError(name, 'is empty');
  if (bytes.byteLength > MAX_PICTURE_BYTES) {
    throw new PictureRefusedError(name, `is too large (${bytes.byteLength} bytes; at most ${MAX_PICTURE_BYTES})`);
  }
  const { format, width, height } = await formatOf(name, bytes);
  const mime = MIME_OF_FORMAT[format];
  if (mime === undefined) throw new PictureRefusedError(name, `is ${format.toUpperCase()}, not ${PICTURE_FORMAT_NAMES}`);
  if (width * height > MAX_PICTURE_PIXELS) {
    throw new PictureRefusedError(name, `is too large (${width}×${height} pixels; at most ${MAX_PICTURE_PIXELS} pixels)`);
  }
  try {
    await sharp(bytes).resize(PROBE_EDGE, PROBE_EDGE, { fit: 'inside' }).raw().toBuffer();
  } catch (error) {
    throw new PictureRefusedError(name, `cannot be read: it is damaged or cut short (${error instanceof Error ? error.message : String(error)})`);
  }
  return { name, mime, bytes, width, height };
}

/** The pictures of an app API call, checked in order; the first refusal stops the lot. */
export async function checkAttachedPictures(attachments: readonly PictureAttachment[]): Promise<CheckedPicture[]> {
  const checked: CheckedPicture[] = [];
  for (const attachment of attachments) checked.push(await checkPicture(attachment.name, Buffer.from(attachment.dataBase64, 'base64')));
  return checked;
}

/** The turn's request: the task's text, then each picture with its pixels (the agent stores them when the turn begins). */
export function requestWithPictures(task: string, pictures: readonly CheckedPicture[]): UserMessage {
  return { role: 'user', parts: [{ type: 'text', text: task }, ...pictures.map(picturePart)] };
}

function picturePart(picture: CheckedPicture): ImagePart {
  return { type: 'image', mime: picture.mime, data: picture.bytes.toString('base64'), width: picture.width, height: picture.height };
}

async function formatOf(name: string, bytes: Buffer): Promise<{ format: string; width: number; height: number }> {
  try {
    const metadata = await sharp(bytes).metadata();
    // A GIF's height is its first frame's (sharp reads one page unless asked for more).
    if (metadata.width > 0 && metadata.height > 0) return { format: metadata.format, width: metadata.width, height: metadata.height };
  } catch {
    // Not an image sharp knows: refused below in the person's words.
  }
  throw new PictureRefusedError(name, `is not a picture (expected ${PICTURE_FORMAT_NAMES})`);
}
