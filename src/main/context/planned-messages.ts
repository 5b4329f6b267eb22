/**
 * A request before its pixels: the messages it will hold, each with the turn it came from, image parts
 * still naming stored images by id. Zones, history pictures, ephemeral injection and the token budget all
 * work on this form, where an image's cost is known from its row without decoding it; only what survives
 * is then read and encoded.
 */
import type { ImagePart, Message, TextPart, ToolMessage } from '../../shared/messages.js';
import { estimateImageTokens, type ImageTokenFormula } from '../llm/image-token-estimates.js';
import { FIT_EDGE, type ImageSizing } from '../llm/model-profiles.js';
import type { ImageDescriptions } from './image-descriptions.js';
import { imageLabel, reducedEdge } from './image-reference.js';
import { modelImageSize } from './model-image-size.js';
import { estimateMessageTextTokens } from './token-estimates.js';

/** Where a message sits: the turn being worked on, an earlier turn, the system prompt, or older data without a turn. */
export type MessageZone = 'system' | 'active' | 'earlier' | 'legacy';

export interface PlannedMessage {
  zone: MessageZone;
  turnId: string | null;
  message: Message;
  /** Where the running turn's stable part ends, as the active zone planned it (active-zone.ts). */
  activeZoneMark?: ActiveZoneMark;
}

/**
 * `present-screen`: the message that shows the present screen (the next request shows it reduced);
 * `folded-chunks-end`: the last message before the first screen a later fold may still change (the end of the
 * folded chunks; before the first fold, of the first screen's message).
 */
export type ActiveZoneMark = 'present-screen' | 'folded-chunks-end';

/**
 * Costs already estimated, by message (the same object), for one image formula and size. A message's cost
 * depends only on its parts and its images' sizes, which never change, so a turn's cache keeps them.
 */
export type MessageCostMemo = WeakMap<Message, number>;

/** What the parts of a request cost, estimated as the model will see them (images at the size sent). */
export class TokenEstimator {
  constructor(
    private readonly formula: ImageTokenFormula,
    private readonly maxImageEdge: number,
    private readonly descriptions: ImageDescriptions,
    private readonly memo?: MessageCostMemo,
    private readonly sizing: ImageSizing = FIT_EDGE,
    /** Longest edge of a reduced view (active-zone-shape.ts); reduced views are counted at that size. */
    private readonly reducedImageEdge: number = maxImageEdge,
  ) {}

  /**
   * The message as it will be sent: its text with the id token each stored image gets before it (counted
   * with the text, as the sent message counts it), plus its images.
   */
  message(message: Message): number {
    const known = this.memo?.get(message);
    if (known !== undefined) return known;
    const cost = this.estimate(message);
    this.memo?.set(message, cost);
    return cost;
  }

  total(messages: readonly PlannedMessage[]): number {
    return messages.reduce((total, planned) => total + this.message(planned.message), 0);
  }

  private estimate(message: Message): number {
    const tokens: TextPart[] = [];
    let imageTokens = 0;
    for (const part of message.parts) {
      if (part.type !== 'image') continue;
      if (part.imageId !== undefined) tokens.push({ type: 'text', text: imageLabel(part.imageId, part.resolution) });
      imageTokens += this.image(part);
    }
    return estimateMessageTextTokens({ ...message, parts: [...message.parts, ...tokens] } as Message) + imageTokens;
  }

  /**
   * An image's own cost at the size sent. An image of unknown size is counted at the largest size sent; a
   * reduced view at its copy's size and, where the formula has it, at low detail.
   */
  image(part: ImagePart): number {
    const record = part.imageId === undefined ? undefined : this.descriptions.record(part.imageId);
    const width = record?.width ?? part.width ?? this.maxImageEdge;
    const height = record?.height ?? part.height ?? this.maxImageEdge;
    if (part.resolution === 'reduced') {
      const size = modelImageSize(width, height, reducedEdge(this.maxImageEdge, this.reducedImageEdge), this.sizing);
      return estimateImageTokens(this.formula, { ...size, detail: 'low' });
    }
    return estimateImageTokens(this.formula, modelImageSize(width, height, this.maxImageEdge, this.sizing));
  }
}

export function countImages(messages: readonly PlannedMessage[]): number {
  return messages.reduce((total, planned) => total + planned.message.parts.filter((part) => part.type === 'image').length, 0);
}

/**
 * Every tool call must be answered before the conversation goes on (Chat Completions refuses a request
 * otherwise). The agent answers every call it makes; a process killed mid-step may not have, so a call
 * without an answer gets one here, deterministically, right after its assistant message's answers.
 */
export function answerUnansweredToolCalls(messages: readonly PlannedMessage[]): PlannedMessage[] {
  const result: PlannedMessage[] = [];
  let open: { from: PlannedMessage; ids: string[]; answered: Set<string>; names: Map<string, string> } | undefined;
  const close = () => {
    if (open === undefined) return;
    for (const id of open.ids) {
      if (open.answered.has(id)) continue;
      const answer: ToolMessage = {
        role: 'tool',
        toolCallId: id,
        name: open.names.get(id) ?? 'unknown',
        parts: [{ type: 'text', text: 'No result: the turn ended before this call ran.' }],
        isError: true,
      };
      result.push({ zone: open.from.zone, turnId: open.from.turnId, message: answer });
    }
    open = undefined;
  };
  for (const planned of messages) {
    const { message } = planned;
    if (message.role === 'tool') {
      open?.answered.add(message.toolCallId);
      result.push(planned);
      continue;
    }
    close();
    result.push(planned);
    if (message.role === 'assistant' && message.toolCalls.length > 0) {
      open = {
        from: planned,
        ids: message.toolCalls.map((call) => call.id),
        answered: new Set(),
        names: new Map(message.toolCalls.map((call) => [call.id, call.name])),
      };
    }
  }
  close();
  return result;
}
