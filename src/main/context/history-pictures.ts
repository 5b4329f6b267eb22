/**
 * Pictures a user attached in earlier turns (chat input) are not sent again: each becomes
 * `[Picture:history_<hash>]`, named by the first 16 hex digits of its content's sha256. The same picture
 * attached twice is one entry (one name, one stored image); the picture is kept as an image row with
 * source 'user', so it can be recalled by that name.
 *
 * Left alone: http(s) URLs (the provider fetches them; nothing is stored here), text that is already a
 * placeholder, every picture of the active turn (the latest user message keeps its images), and a picture
 * that cannot be stored (it stays in the request as it was rather than being lost).
 */
import type { ImagePart, Message, MessagePart } from '../../shared/messages.js';
import { decodeImageBytes } from '../perception/image-encoding.js';
import { sha256Of, type ImageRecord, type Storage } from '../storage/index.js';
import type { ImageDescriptions } from './image-descriptions.js';
import type { PlannedMessage } from './planned-messages.js';

const HASH_LENGTH = 16;
/** The shortest hash prefix a picture may be named by: shorter ones would soon name several. */
export const MIN_HASH_PREFIX_LENGTH = 8;
// As the model may copy the name: with or without the brackets and the `Picture:` label, any spacing, any case.
const HISTORY_PICTURE_PATTERN = /^\[?\s*(?:picture\s*:\s*)?history_([0-9a-f]{8,64})\s*\]?$/i;

export function historyPictureText(sha256: string): string {
  return `[Picture:history_${sha256.slice(0, HASH_LENGTH)}]`;
}

/**
 * The hash (or the start of it, 8 hex digits or more) named by a history picture reference:
 * `[Picture:history_…]`, `Picture: history_…` or `history_…`. Lower case; undefined when it is not one.
 */
export function historyPictureHash(reference: string): string | undefined {
  return HISTORY_PICTURE_PATTERN.exec(reference.trim())?.[1]?.toLowerCase();
}

/** The pictures a person attached to each turn of a session, by turn id, in the order they were stored. */
export function picturesByTurn(storage: Storage, sessionId: string): Map<string, ImageRecord[]> {
  const byTurn = new Map<string, ImageRecord[]>();
  for (const image of storage.images.listBySession(sessionId)) {
    if (image.source !== 'user' || image.turnId === null) continue;
    byTurn.set(image.turnId, [...(byTurn.get(image.turnId) ?? []), image]);
  }
  return byTurn;
}

/** What a hash prefix names among a session's pictures: one picture, several (a longer prefix tells them apart), or none. */
export type HistoryPictureLookup =
  | { status: 'found'; image: ImageRecord }
  | { status: 'ambiguous'; hashes: string[] }
  | { status: 'none' };

/**
 * The session's picture whose content hash starts with `hashPrefix` (lower-case hex). Purged pictures are
 * gone; the same picture stored twice is one picture (one hash), not an ambiguity.
 */
export function lookUpHistoryPicture(storage: Storage, sessionId: string, hashPrefix: string): HistoryPictureLookup {
  const matching = storage.images
    .listBySession(sessionId)
    .filter((image) => image.source === 'user' && image.purgedAt === null && image.sha256.startsWith(hashPrefix));
  const hashes = [...new Set(matching.map((image) => image.sha256))].sort();
  if (hashes.length > 1) return { status: 'ambiguous', hashes };
  const image = matching[0];
  return image === undefined ? { status: 'none' } : { status: 'found', image };
}

/** The stored picture a history reference names in a session, when it names exactly one. */
export function findHistoryPicture(storage: Storage, sessionId: string, reference: string): ImageRecord | undefined {
  const hash = historyPictureHash(reference);
  if (hash === undefined) return undefined;
  const lookup = lookUpHistoryPicture(storage, sessionId, hash);
  return lookup.status === 'found' ? lookup.image : undefined;
}

export interface HistoryPictureOptions {
  storage: Storage;
  sessionId: string;
  descriptions: ImageDescriptions;
}

export async function nameHistoryPictures(messages: readonly PlannedMessage[], options: HistoryPictureOptions): Promise<PlannedMessage[]> {
  const pictures = new SessionPictures(options);
  const named: PlannedMessage[] = [];
  for (const planned of messages) {
    if (planned.zone === 'active' || planned.zone === 'system' || planned.message.role !== 'user') {
      named.push(planned);
      continue;
    }
    const parts: MessagePart[] = [];
    for (const part of planned.message.parts) parts.push(part.type === 'image' ? await pictures.name(part, planned.turnId) : part);
    named.push({ ...planned, message: { ...planned.message, parts } as Message });
  }
  return named;
}

/** The session's stored user pictures by sha256, so a picture met twice is stored once. */
class SessionPictures {
  private bySha256: Map<string, ImageRecord> | undefined;

  constructor(private readonly options: HistoryPictureOptions) {}

  async name(part: ImagePart, turnId: string | null): Promise<MessagePart> {
    if (part.imageId !== undefined) {
      const record = this.options.descriptions.record(part.imageId);
      return record?.source === 'user' ? { type: 'text', text: historyPictureText(record.sha256) } : part;
    }
    const inline = inlinePixels(part);
    if (inline === undefined) return part;
    try {
      const record = await this.store(inline, turnId);
      return { type: 'text', text: historyPictureText(record.sha256) };
    } catch {
      // Not storable (undecodable bytes, a full disk): better sent again than lost.
      return part;
    }
  }

  private async store(inline: { bytes: Buffer; mime: string }, turnId: string | null): Promise<ImageRecord> {
    const known = this.known();
    const sha256 = sha256Of(inline.bytes);
    const existing = known.get(sha256);
    if (existing !== undefined) return existing;
    const size = await decodeImageBytes(inline.bytes);
    const record = await this.options.storage.images.put({
      sessionId: this.options.sessionId,
      turnId,
      bytes: inline.bytes,
      mime: inline.mime,
      width: size.width,
      height: size.height,
      source: 'user',
    });
    known.set(sha256, record);
    this.options.descriptions.remember([record]);
    return record;
  }

  private known(): Map<string, ImageRecord> {
    if (this.bySha256 === undefined) {
      const user = this.options.storage.images.listBySession(this.options.sessionId).filter((image) => image.source === 'user');
      this.bySha256 = new Map(user.map((image) => [image.sha256, image]));
    }
    return this.bySha256;
  }
}

/** The bytes of a picture carried in the message itself (base64 data or a data: URL); undefined for http(s) URLs. */
function inlinePixels(part: ImagePart): { bytes: Buffer; mime: string } | undefined {
  if (part.data !== undefined && part.mime !== undefined) return { bytes: Buffer.from(part.data, 'base64'), mime: part.mime };
  const match = part.url === undefined ? null : /^data:([a-z]+\/[a-z0-9.+-]+);base64,(.+)$/i.exec(part.url);
  if (match === null) return undefined;
  return { bytes: Buffer.from(match[2] ?? '', 'base64'), mime: (match[1] ?? '').toLowerCase() };
}
