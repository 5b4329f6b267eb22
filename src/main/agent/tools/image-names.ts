/**
 * The names an earlier image goes by, read from what the model typed. The recall tools take any of them,
 * since a model copies whatever it was shown:
 *
 *   img_3f9c0a12b7e4, 3f9c0a12b7e4, <img_3f9c0a12b7e4>        the image id, with or without its prefix
 *   [Visual_Placeholder: img_3f9c0a12b7e4] step 4 · click …   a folded screenshot's placeholder, caption and all
 *   history_3f9c0a12b7e4d5a6, [Picture:history_3f9c0a12…]     a picture the user attached, by its content hash
 *   3f9c0a12b7e4d5a6                                          that hash alone (8 hex digits or more)
 *
 * Brackets, spacing and case do not matter. Twelve hex digits alone may be an image id or the start of a hash:
 * both are tried, the id first.
 */
import { ID_PREFIXES, parseId } from '../../../shared/ids.js';
import { historyPictureHash } from '../../context/index.js';

/** The names an image may be given, as the recall tools' descriptions list them. */
export const IMAGE_NAMES_DESCRIPTION =
  'an image id (img_3f9c0a12b7e4, or <img_…> as it precedes an image), a folded screenshot\'s ' +
  '[Visual_Placeholder: img_…] (an older turn names its folded images in one [Visual_Placeholders: img_… img_…] line: ' +
  'pass one of its ids), or a picture the user attached by its name history_<hash> ' +
  '([Picture:history_…]) or that hash alone (8 hex digits or more)';

export type ImageName =
  /** An image id; `hashPrefix` when the same digits could also start a picture's hash. */
  | { kind: 'image-id'; imageId: string; hashPrefix?: string }
  /** The start of a user picture's content hash (lower-case hex, 8 digits or more). */
  | { kind: 'picture-hash'; hashPrefix: string };

// The placeholder as compaction writes it, optionally without its brackets; anything after `]` is its caption.
const PLACEHOLDER_PATTERN = /^\[?\s*visual_placeholder\s*:\s*([^\s\]]+)\s*(?:\].*)?$/is;
// An id token as a request shows it, possibly followed by what was written after it ("(reduced view; …)").
const TOKEN_PATTERN = /^<\s*([^\s>]+)\s*>(?:\s.*)?$/s;
const BRACKETED_PATTERN = /^\[\s*([^\s\]]+)\s*\]$/;
const BARE_HASH_PATTERN = /^[0-9a-f]{8,64}$/i;

/** What the typed text names, or undefined when it is no name of an image (too short, malformed). */
export function readImageName(typed: string): ImageName | undefined {
  const text = typed.trim();
  const inner = PLACEHOLDER_PATTERN.exec(text)?.[1] ?? TOKEN_PATTERN.exec(text)?.[1] ?? BRACKETED_PATTERN.exec(text)?.[1] ?? text;
  const imageId = parseId('image', inner);
  if (imageId !== undefined) {
    const typedPrefix = inner.toLowerCase().startsWith(ID_PREFIXES.image);
    return typedPrefix ? { kind: 'image-id', imageId } : { kind: 'image-id', imageId, hashPrefix: inner.toLowerCase() };
  }
  const pictureHash = historyPictureHash(text) ?? historyPictureHash(inner);
  if (pictureHash !== undefined) return { kind: 'picture-hash', hashPrefix: pictureHash };
  return BARE_HASH_PATTERN.test(inner) ? { kind: 'picture-hash', hashPrefix: inner.toLowerCase() } : undefined;
}
