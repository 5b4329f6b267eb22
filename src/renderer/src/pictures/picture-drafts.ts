/**
 * Pictures on their way into a new task, in the New task form: each file (picked, dropped or pasted) is
 * checked against what the main process accepts (src/shared/pictures.ts) before it is read, so a person
 * hears at once why one is refused; the main process checks the bytes again when the task starts.
 */
import {
  MAX_PICTURE_BYTES,
  MAX_PICTURES_PER_TASK,
  PICTURE_FORMAT_NAMES,
  PICTURE_MIME_TYPES,
  type PictureAttachment,
  type PictureMimeType,
} from '../../../shared/pictures.js';

export interface PictureDraft {
  /** Unique within the form, for React lists and removal. */
  key: string;
  name: string;
  mime: PictureMimeType;
  dataBase64: string;
  byteSize: number;
}

/** What a picker or clipboard hands over: a File is one. */
export interface PictureFile {
  name: string;
  type: string;
  size: number;
  arrayBuffer(): Promise<ArrayBuffer>;
}

/** The input's `accept` list. */
export const PICTURE_ACCEPT = PICTURE_MIME_TYPES.join(',');

/** Why a file cannot be attached, in a sentence naming it; undefined when it may be. */
export function pictureRefusal(file: Pick<PictureFile, 'name' | 'type' | 'size'>, alreadyAttached: number): string | undefined {
  const name = nameOf(file);
  if (alreadyAttached >= MAX_PICTURES_PER_TASK) return `${name}: a task takes at most ${MAX_PICTURES_PER_TASK} pictures.`;
  if (mimeOf(file.type) === undefined) return `${name}: not a picture Sightline accepts (${PICTURE_FORMAT_NAMES}).`;
  if (file.size === 0) return `${name}: the file is empty.`;
  if (file.size > MAX_PICTURE_BYTES) return `${name}: too large (${megabytes(file.size)}; at most ${megabytes(MAX_PICTURE_BYTES)}).`;
  return undefined;
}

let drafted = 0;

/** The file read into a draft; call only after pictureRefusal said nothing. */
export async function readPictureDraft(file: PictureFile): Promise<PictureDraft> {
  const mime = mimeOf(file.type);
  if (mime === undefined) throw new Error(`${nameOf(file)} is not a picture.`);
  const bytes = new Uint8Array(await file.arrayBuffer());
  drafted += 1;
  return { key: `picture-${drafted}`, name: nameOf(file), mime, dataBase64: base64Of(bytes), byteSize: bytes.byteLength };
}

/** The drafts as startRun takes them. */
export function attachmentsOf(drafts: readonly PictureDraft[]): PictureAttachment[] {
  return drafts.map(({ name, mime, dataBase64 }) => ({ name, mime, dataBase64 }));
}

export function previewUrl(draft: Pick<PictureDraft, 'mime' | 'dataBase64'>): string {
  return `data:${draft.mime};base64,${draft.dataBase64}`;
}

function mimeOf(type: string): PictureMimeType | undefined {
  return PICTURE_MIME_TYPES.find((accepted) => accepted === type.trim().toLowerCase());
}

/** A pasted screenshot may come without a name. */
function nameOf(file: Pick<PictureFile, 'name' | 'type'>): string {
  return file.name.trim() !== '' ? file.name : `pasted ${file.type || 'file'}`;
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** Chunks keep String.fromCharCode's argument list short enough for any engine. */
const BASE64_CHUNK = 0x8000;

function base64Of(bytes: Uint8Array): string {
  let binary = '';
  for (let offset = 0; offset < bytes.length; offset += BASE64_CHUNK) {
    binary += String.fromCharCode(...bytes.subarray(offset, offset + BASE64_CHUNK));
  }
  return btoa(binary);
}
