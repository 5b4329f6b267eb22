/**
 * The planned messages of a request → the messages sent: every image part that names a stored image gets
 * its pixels at the model's size (a reduced view: its smaller copy, marked so), preceded by its id token. A
 * pure function of the messages and the image store: the same messages always render to the same bytes, which
 * keeps the prefix of consecutive requests identical within a turn (prompt caches hold).
 */
import type { ImagePart, Message, MessagePart } from '../../shared/messages.js';
import type { ImageSizing } from '../llm/model-profiles.js';
import type { ImagesRepository } from '../storage/index.js';
import type { EncodedImage, EncodedImageCache } from './encoded-image-cache.js';
import { imageLabel, reducedEdge, unavailableImageText } from './image-reference.js';

/** A stored image as sent, with the message that carried it (a user message, or which tool's result). */
export interface SentImage extends EncodedImage {
  carrier: { role: Message['role']; toolName?: string };
}

export interface RenderedHistory {
  messages: Message[];
  /** Every stored image sent, in order (parts that carried their own pixels or URL are not listed). */
  images: SentImage[];
}

/**
 * Messages already rendered, by the planned message they came from (the same object), at one image size.
 * Rendering is a pure function of the message and the stored images, so a message planned once per turn
 * (an earlier turn's) need not be walked again at every step. Only messages whose every image could be
 * shown are kept: an unavailable image is tried again next time, as it would be without the memo.
 */
export type RenderedMessageMemo = WeakMap<Message, { message: Message; images: SentImage[] }>;

export interface RenderOptions {
  images: ImagesRepository;
  cache: EncodedImageCache;
  maxImageEdge: number;
  /** The model profile's image sizing, after the edge is fitted; `fit-edge` when absent. */
  imageSizing?: ImageSizing;
  /** Longest edge of a reduced view's copy (active-zone-shape.ts); `maxImageEdge` when absent. */
  reducedImageEdge?: number;
  memo?: RenderedMessageMemo;
}

export async function renderHistory(planned: readonly Message[], options: RenderOptions): Promise<RenderedHistory> {
  const images: SentImage[] = [];
  const messages: Message[] = [];
  for (const message of planned) {
    const rendered = options.memo?.get(message) ?? (await renderMessage(message, options));
    images.push(...rendered.images);
    messages.push(rendered.message);
  }
  return { messages, images };
}

async function renderMessage(message: Message, options: RenderOptions): Promise<{ message: Message; images: SentImage[] }> {
  const carrier = message.role === 'tool' ? { role: message.role, toolName: message.name } : { role: message.role };
  const sent: EncodedImage[] = [];
  const parts = await renderParts(message.parts, options, sent);
  const rendered = { message: { ...message, parts } as Message, images: sent.map((image) => ({ ...image, carrier })) };
  if (options.memo !== undefined && sent.length === message.parts.filter((part) => part.type === 'image' && part.imageId !== undefined).length) {
    options.memo.set(message, rendered);
  }
  return rendered;
}

async function renderParts(parts: readonly MessagePart[], options: RenderOptions, sent: EncodedImage[]): Promise<MessagePart[]> {
  const rendered: MessagePart[] = [];
  for (const part of parts) {
    if (part.type !== 'image' || part.imageId === undefined) {
      rendered.push(part);
      continue;
    }
    const reduced = part.resolution === 'reduced';
    const edge = reduced ? reducedEdge(options.maxImageEdge, options.reducedImageEdge ?? options.maxImageEdge) : options.maxImageEdge;
    const resolved = await options.cache.resolve(options.images, part.imageId, edge, options.imageSizing);
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
      // The provider-neutral marker each adapter turns into its own (OpenAI's low detail).
      ...(reduced ? { resolution: 'reduced' as const } : {}),
    };
    rendered.push({ type: 'text', text: imageLabel(image.imageId, part.resolution) }, withPixels);
  }
  return rendered;
}
