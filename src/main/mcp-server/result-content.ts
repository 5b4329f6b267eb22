/**
 * A tool result's parts as MCP content. Text is redacted; an image by id becomes its pixels at the
 * configured size, named by its id (the client refers to images by id: recall tools, crops), with a note
 * when it was scaled down. When the result shows the screen now, its screenshot is what the client's next
 * coordinates refer to: the encoding returns it as a value, for the host to hand to the next call. Every
 * image it carries is returned with how it was shown, since the boxes a client draws on an image with
 * crop_image are in the image it was sent.
 */
import type { MessagePart } from '../../shared/messages.js';
import { shownScreenshot, type CoordinateSpace, type ShownScreenshot } from '../../shared/model-view.js';
import { EncodedImageCache } from '../context/index.js';
import type { ImagesRepository } from '../storage/index.js';

/** Content of an MCP tool result, as the protocol carries it. */
export type McpResultContent = { type: 'text'; text: string } | { type: 'image'; data: string; mimeType: string };

export interface EncodedResult {
  content: McpResultContent[];
  /** The last screenshot of the screen now that the content carries; undefined when it carries none. */
  shown: ShownScreenshot | undefined;
  /** Every image the content carries, with how it was shown. */
  images: ShownScreenshot[];
}

export interface ResultContentOptions {
  images: ImagesRepository;
  /** config.perception.maxImageEdge: the longest edge of an image as sent. */
  maxImageEdge: number;
  redact: (text: string) => string;
}

/** An MCP client names points in the pixels of the image it was sent. */
export const CLIENT_COORDINATE_SPACE: CoordinateSpace = 'pixels';

export class ResultContentEncoder {
  /** Per turn, as the agent keeps one: a long-lived server must not hold every screenshot it ever sent. */
  private cache: { turnId: string; images: EncodedImageCache } | undefined;

  constructor(private readonly options: ResultContentOptions) {}

  /** `showsScreen`: the result is the screen now (a screenshot, or the screen after a computer action). */
  async encode(parts: readonly MessagePart[], turnId: string, showsScreen: boolean): Promise<EncodedResult> {
    const { images, maxImageEdge, redact } = this.options;
    const content: McpResultContent[] = [];
    let shown: ShownScreenshot | undefined;
    const sent: ShownScreenshot[] = [];
    for (const part of parts) {
      if (part.type === 'text') content.push({ type: 'text', text: redact(part.text) });
      if (part.type !== 'image' || part.imageId === undefined) continue;
      const resolved = await this.cacheFor(turnId).resolve(images, part.imageId, maxImageEdge);
      if (resolved.status !== 'ok') {
        content.push({ type: 'text', text: `(image ${part.imageId} cannot be shown: ${resolved.reason})` });
        continue;
      }
      const { image } = resolved;
      const named = parts.some((other) => other.type === 'text' && other.text.includes(image.imageId));
      if (!named) content.push({ type: 'text', text: `${image.imageId}:` });
      content.push({ type: 'image', data: image.data, mimeType: image.mime });
      const scaled = image.width !== image.frameWidth || image.height !== image.frameHeight;
      if (scaled) {
        content.push({
          type: 'text',
          text:
            `(${image.imageId} is shown at ${image.width}×${image.height}, scaled down from ${image.frameWidth}×${image.frameHeight}; ` +
            `${showsScreen ? 'computer coordinates and ' : ''}crop_image boxes are in this image)`,
        });
      }
      const view = shownScreenshot(image.imageId, image, CLIENT_COORDINATE_SPACE);
      sent.push(view);
      if (showsScreen) shown = view;
    }
    return { content, shown, images: sent };
  }

  private cacheFor(turnId: string): EncodedImageCache {
    if (this.cache?.turnId !== turnId) this.cache = { turnId, images: new EncodedImageCache() };
    return this.cache.images;
  }
}
