/**
 * Stored messages → the messages of a request. A pure function of the rows and the image store: the same
 * rows always render to the same messages, byte for byte, which keeps the prefix of consecutive requests
 * identical within a turn (prompt caches hold).
 */
import type { ImagePart, Message, MessagePart, ToolMessage } from '../../shared/messages.js';
import type { ImagesRepository, MessageRecord } from '../storage/index.js';
import type { EncodedImage, EncodedImageCache } from './encoded-image-cache.js';
import { imageToken, unavailableImageText } from './image-reference.js';

export interface RenderedHistory {
  messages: Message[];
  /** Every image sent, in order. */
  images: EncodedImage[];
}

export interface RenderOptions {
  images: ImagesRepository;
  cache: EncodedImageCache;
  maxImageEdge: number;
}

export async function renderHistory(records: readonly MessageRecord[], options: RenderOptions): Promise<RenderedHistory> {
  const images: EncodedImage[] = [];
  const messages: Message[] = [];
  for (const record of records) {
    const parts = await renderParts(record.message.parts, options, images);
    messages.push({ ...record.message, parts } as Message);
  }
  return { messages: answerUnansweredToolCalls(messages), images };
}

async function renderParts(parts: readonly MessagePart[], options: RenderOptions, sent: EncodedImage[]): Promise<MessagePart[]> {
  const rendered: MessagePart[] = [];
  for (const part of parts) {
    if (part.type !== 'image' || part.imageId === undefined) {
      rendered.push(part);
      continue;
    }
    const resolved = await options.cache.resolve(options.images, part.imageId, options.maxImageEdge);
    if (resolved.status === 'unavailable') {
      rendered.push({ type: 'text', text: unavailableImageText(part.imageId, resolved.reason) });
      continue;
    }
    const { image } = resolved;
    sent.push(image);
    const withPixels: ImagePart = {
      type: 'image',
      imageId: image.imageId,
      mime: image.mime,
      data: image.data,
      width: image.width,
      height: image.height,
    };
    rendered.push({ type: 'text', text: imageToken(image.imageId) }, withPixels);
  }
  return rendered;
}

/**
 * Every tool call must be answered before the conversation goes on (Chat Completions refuses a request
 * otherwise). The agent answers every call it makes; a process killed mid-step may not have, so a call
 * without an answer gets one here, deterministically, right after its assistant message's answers.
 */
function answerUnansweredToolCalls(messages: readonly Message[]): Message[] {
  const result: Message[] = [];
  let open: { ids: string[]; answered: Set<string>; names: Map<string, string> } | undefined;
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
      result.push(answer);
    }
    open = undefined;
  };
  for (const message of messages) {
    if (message.role === 'tool') {
      open?.answered.add(message.toolCallId);
      result.push(message);
      continue;
    }
    close();
    result.push(message);
    if (message.role === 'assistant' && message.toolCalls.length > 0) {
      open = {
        ids: message.toolCalls.map((call) => call.id),
        answered: new Set(),
        names: new Map(message.toolCalls.map((call) => [call.id, call.name])),
      };
    }
  }
  close();
  return result;
}
