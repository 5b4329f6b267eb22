/**
 * How the messages of an ended turn look once it is folded: every image becomes a captioned placeholder,
 * except the turn's anchors (kept whole while the turn is recent), pinned frames (whole in every later
 * request, read back from cold storage when compaction moved them) and pictures the user attached (which
 * the request builder names by content hash). Compaction stores this form; the request builder renders a
 * turn that is not compacted yet the same way, so the request does not depend on when compaction ran.
 */
import type { Message, MessagePart } from '../../shared/messages.js';
import type { Storage, TurnRecord } from '../storage/index.js';
import { placeholderImageId, placeholderText } from './captions.js';
import type { ImageDescriptions } from './image-descriptions.js';
import { chooseAnchors, type AnchorReason, type TurnContent } from './turn-anchors.js';

export interface TurnView {
  turn: TurnRecord;
  content: TurnContent;
  anchors: Map<string, AnchorReason[]>;
}

/** A turn's rows and anchors; `messages` may be passed when the caller has read them already. */
export function loadTurnView(
  storage: Storage,
  descriptions: ImageDescriptions,
  turn: TurnRecord,
  messages: readonly Message[] = storage.messages.listByTurn(turn.id).map((record) => record.message),
): TurnView {
  const images = storage.images.listByTurn(turn.id);
  descriptions.remember(images);
  const content: TurnContent = { images, steps: descriptions.steps(turn.id), messages };
  return { turn, content, anchors: chooseAnchors(content) };
}

export interface FoldOptions {
  anchors: ReadonlyMap<string, readonly AnchorReason[]>;
  /** Whether the anchors stay whole (a recent turn) or fold too (an older one). */
  anchorsWhole: boolean;
  descriptions: ImageDescriptions;
  /** Screens shown as reduced views instead of placeholders, folded or not (see zone-rendering.ts, the handover). */
  reducedViews?: ReadonlySet<string>;
  /** Frames a person pinned: whole in every turn, recent or not, folded or not (issue 16). */
  pinned?: ReadonlySet<string>;
}

export function foldedParts(message: Message, options: FoldOptions): MessagePart[] {
  return message.parts.map((part): MessagePart => {
    const storedId = part.type === 'image' ? part.imageId : part.type === 'text' ? placeholderImageId(part.text) : undefined;
    // The same part whether compaction has run (a placeholder) or not (the image): the bytes must not depend on it.
    if (storedId !== undefined && options.pinned?.has(storedId) === true) return { type: 'image', imageId: storedId };
    if (storedId !== undefined && options.reducedViews?.has(storedId) === true) return { type: 'image', imageId: storedId, resolution: 'reduced' };
    if (part.type !== 'image' || part.imageId === undefined) return part;
    const record = options.descriptions.record(part.imageId);
    if (message.role === 'user' && record?.source === 'user') return part;
    const reasons = options.anchors.get(part.imageId);
    if (reasons !== undefined && options.anchorsWhole) return part;
    return { type: 'text', text: placeholderFor(part.imageId, reasons, options.descriptions) };
  });
}

/** The placeholder of one image; an error frame says it is one (the model may want to look at it again). */
export function placeholderFor(
  imageId: string,
  reasons: readonly AnchorReason[] | undefined,
  descriptions: ImageDescriptions,
): string {
  const caption = descriptions.caption(imageId);
  return placeholderText(imageId, reasons?.includes('error') === true ? `${caption} · error frame` : caption);
}
