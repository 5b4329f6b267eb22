/**
 * Media a model generated (an image, or audio) as Sightline keeps it: its bytes in the blob store, named
 * by their sha256, and the assistant message that produced it holding only the id `med_<sha256>`. The id
 * is the content address itself: the message is the record of where the media came from, and the bytes are
 * found by the id and the mime the part carries. Storage indexes the parts (its generated_media table) so a
 * lookup need not read every message.
 */
import { z } from 'zod';

export const GENERATED_MEDIA_KINDS = ['image', 'audio'] as const;
export type GeneratedMediaKind = (typeof GENERATED_MEDIA_KINDS)[number];

const MEDIA_ID_PREFIX = 'med_';
const MEDIA_ID_PATTERN = /^med_[0-9a-f]{64}$/;

export const GeneratedMediaIdSchema = z.string().regex(MEDIA_ID_PATTERN, 'a generated media id (med_ and a sha256)');

/** The id of generated media whose bytes hash to `sha256`. */
export function generatedMediaId(sha256: string): string {
  return MEDIA_ID_PREFIX + sha256;
}

/** The sha256 a generated media id names, or undefined when the text is not one. */
export function sha256OfGeneratedMedia(mediaId: string): string | undefined {
  return MEDIA_ID_PATTERN.test(mediaId) ? mediaId.slice(MEDIA_ID_PREFIX.length) : undefined;
}

/** One generated media item as the timeline lists it: no bytes (getMedia fetches them). */
export const GeneratedMediaSchema = z
  .object({
    mediaId: GeneratedMediaIdSchema,
    turnId: z.string(),
    kind: z.enum(GENERATED_MEDIA_KINDS),
    mime: z.string(),
    width: z.number().int().positive().optional(),
    height: z.number().int().positive().optional(),
  })
  .strict();
export type GeneratedMedia = z.infer<typeof GeneratedMediaSchema>;
