/**
 * Pictures a person attaches to a task (`sightline run --image FILE`, the app's New task form, the app API's
 * startRun). They travel as base64 with a file name, so one shape crosses IPC, HTTP and JSON alike. The
 * main process checks each one before the turn begins (src/main/perception/attached-pictures.ts): what the
 * bytes are decides, not the type a caller claims, and nothing is stored unless every picture passes.
 */
import { z } from 'zod';

/** The image types accepted (a GIF counts as its first frame). */
export const PICTURE_MIME_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;
export type PictureMimeType = (typeof PICTURE_MIME_TYPES)[number];

/** The file names a person might give each type, for pickers and messages. */
export const PICTURE_FORMAT_NAMES = 'PNG, JPEG, WebP or GIF';

/**
 * Largest picture accepted, in bytes of the file. The original is kept whole (the model gets a copy scaled
 * to its profile's image size), so this bounds the store, not the request.
 */
export const MAX_PICTURE_BYTES = 8 * 1024 * 1024;

/** Most pictures one task may carry. */
export const MAX_PICTURES_PER_TASK = 4;

/** Longest file name kept with a picture. */
export const MAX_PICTURE_NAME_LENGTH = 255;

/** Characters of base64 for `bytes` bytes (padded). */
export function base64Length(bytes: number): number {
  return Math.ceil(bytes / 3) * 4;
}

export const PictureAttachmentSchema = z
  .object({
    /** The file's name as the person knows it (no folder): for messages about the picture. */
    name: z.string().trim().min(1, 'a picture needs a file name').max(MAX_PICTURE_NAME_LENGTH),
    /** What the caller believes the picture is; the bytes are checked and their own type is what is stored. */
    mime: z.enum(PICTURE_MIME_TYPES, { error: `a picture must be ${PICTURE_FORMAT_NAMES}` }),
    /** The file's bytes, base64 (no `data:` prefix). */
    dataBase64: z
      .string()
      .min(1, 'a picture cannot be empty')
      .max(base64Length(MAX_PICTURE_BYTES), `a picture may be at most ${MAX_PICTURE_BYTES} bytes`)
      .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'a picture must be base64 (without a data: prefix)'),
  })
  .strict();
export type PictureAttachment = z.infer<typeof PictureAttachmentSchema>;

export const PictureAttachmentsSchema = z
  .array(PictureAttachmentSchema)
  .max(MAX_PICTURES_PER_TASK, `at most ${MAX_PICTURES_PER_TASK} pictures per task`);

/** Most pixels a picture may have (its first frame): decoding it must not take the machine's memory. */
export const MAX_PICTURE_PIXELS = 40_000_000;
