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
const HISTORY_PICTURE_PATTERN = /^\[Picture:history_([0-9a-f]{16})\]$/;

export function historyPictureText(sha256: string): string {
  return `[Picture:history_${sha256.slice(0, HASH_LENGTH)}]`;
}

/** The hash named by a history picture reference (`[Picture:history_…]` or `history_…`), if it is one. */
export function historyPictureHash(reference: string): string | undefined {
  const text = reference.trim();
  const bracketed = HISTORY_PICTURE_PATTERN.exec(text)?.[1];
  if (bracketed !== undefined) return bracketed;
  return /^history_([0-9a-f]{16})$/.exec(text)?.[1];
}

/** The stored picture a history reference names in a session: for the recall tools. */
export function findHistoryPicture(storage: Storage, sessionId: string, reference: string): ImageRecord | undefined {
  const hash = historyPictureHash(reference);
  if (hash === undefined) return undefined;
  return storage.images
    .listBySession(sessionId)
    .find((image) => image.source === 'user' && image.sha256.startsWith(hash) && image.purgedAt === null);
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
