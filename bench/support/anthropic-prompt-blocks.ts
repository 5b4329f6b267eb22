/**
 * A request as Anthropic's prompt cache sees it: the body the adapter really sends (anthropicMessagesBody,
 * with the breakpoints cacheBreakpoints places), cut into its top-level blocks in cache order (tools →
 * system → messages), each with what it holds and its tokens.
 *
 * Tokens are estimated as the request builder estimates them: text at four characters a token (a tool call
 * as its name and arguments, a tool definition as its JSON), each image by the profile's formula
 * (`anthropic-pixels` for Claude) at the size it was encoded to. Rounding is per block rather than per
 * message, a token or so apart. Anthropic's own tool-use system prompt is not counted: it is the same in
 * every request of every policy and sits in the cached prefix.
 */
import type { Message } from '../../src/shared/messages.js';
import { estimateTextTokens } from '../../src/main/context/token-estimates.js';
import { anthropicMessagesBody } from '../../src/main/llm/anthropic-messages-adapter.js';
import { estimateImageTokens, type ImageSize } from '../../src/main/llm/image-token-estimates.js';
import type { ModelRequest } from '../../src/main/llm/model-adapter.js';
import type { ModelProfile } from '../../src/main/llm/model-profiles.js';
import { PromptPrefixes, type PromptBlock } from './anthropic-prompt-cache.js';
import { ImageDigests } from './image-digests.js';

type AnthropicBody = ReturnType<typeof anthropicMessagesBody>;
type ContentBlock = NonNullable<Exclude<AnthropicBody['messages'][number]['content'], string>>[number];
type ToolResultContent = Extract<ContentBlock, { type: 'tool_result' }>['content'];

export interface AnthropicPrompt {
  prefixes: PromptPrefixes;
  /** The blocks the adapter marked with `cache_control`. */
  adapterBreakpoints: number[];
}

export class AnthropicPromptReader {
  private readonly imageDigests = new ImageDigests();

  constructor(private readonly profile: ModelProfile) {}

  read(request: ModelRequest): AnthropicPrompt {
    const body = anthropicMessagesBody(request, this.profile);
    const sizes = imageSizesOf(request.messages);
    const blocks: PromptBlock[] = [];
    const adapterBreakpoints: number[] = [];
    const add = (kind: string, block: object, tokens: number) => {
      if ('cache_control' in block && block.cache_control !== undefined) adapterBreakpoints.push(blocks.length);
      blocks.push({ content: `${kind}:${this.contentOf(block)}`, tokens });
    };
    for (const tool of body.tools ?? []) add('tool', tool, estimateTextTokens(this.contentOf(tool)));
    const system = typeof body.system === 'string' ? [{ type: 'text' as const, text: body.system }] : (body.system ?? []);
    for (const block of system) add('system', block, estimateTextTokens(block.text));
    for (const message of body.messages) {
      const content = typeof message.content === 'string' ? [{ type: 'text' as const, text: message.content }] : (message.content ?? []);
      for (const block of content) add(message.role, block, this.blockTokens(block, sizes));
    }
    return { prefixes: new PromptPrefixes(blocks), adapterBreakpoints };
  }

  /** Drops the image digests (call when the images' strings are let go, at a turn's end). */
  forgetImages(): void {
    this.imageDigests.clear();
  }

  private contentOf(block: object): string {
    return JSON.stringify(block, (key, value: unknown) => {
      if (key === 'cache_control') return undefined;
      if (key === 'data' && typeof value === 'string') return this.imageDigests.of(value);
      return value;
    });
  }

  private blockTokens(block: ContentBlock, sizes: ReadonlyMap<string, ImageSize>): number {
    switch (block.type) {
      case 'text':
        return estimateTextTokens(block.text);
      case 'image':
        return this.imageTokens(block.source, sizes);
      case 'tool_use':
        return estimateTextTokens(block.name + JSON.stringify(block.input));
      case 'tool_result':
        return this.toolResultTokens(block.content, sizes);
      default:
        throw new Error(`The bench does not price ${block.type} blocks.`);
    }
  }

  private toolResultTokens(content: ToolResultContent, sizes: ReadonlyMap<string, ImageSize>): number {
    if (content === undefined) return 0;
    if (typeof content === 'string') return estimateTextTokens(content);
    let text = '';
    let images = 0;
    for (const part of content) {
      if (part.type === 'text') text += part.text;
      else if (part.type === 'image') images += this.imageTokens(part.source, sizes);
      else throw new Error(`The bench does not price ${part.type} blocks in a tool result.`);
    }
    return estimateTextTokens(text) + images;
  }

  private imageTokens(source: { type: string; data?: string }, sizes: ReadonlyMap<string, ImageSize>): number {
    const size = source.data === undefined ? undefined : sizes.get(source.data);
    if (size === undefined) throw new Error(`An image of the request (${source.type}) has no known size.`);
    return estimateImageTokens(this.profile.imageTokens, size);
  }
}

/** Each inline image's size as encoded, by its base64. */
function imageSizesOf(messages: readonly Message[]): Map<string, ImageSize> {
  const sizes = new Map<string, ImageSize>();
  for (const message of messages) {
    for (const part of message.parts) {
      if (part.type === 'image' && part.data !== undefined && part.width !== undefined && part.height !== undefined) {
        sizes.set(part.data, { width: part.width, height: part.height });
      }
    }
  }
  return sizes;
}
