/**
 * A simulator of an automatic prompt cache, OpenAI's rule, to price requests on models that cache by
 * themselves (pricing.cache `automatic`). It follows OpenAI's prompt-caching guide
 * (https://platform.openai.com/docs/guides/prompt-caching, and the cookbook's "Prompt Caching 201"):
 *
 * - "Cache hits are only possible for exact prefix matches within a prompt": a request reads the longest
 *   prefix it shares with any earlier request of the session (every request's prompt is cached as it is sent;
 *   the session's requests come seconds apart, well within the 5–10 minutes an entry lives, so none expires).
 * - "Caching is enabled automatically for prompts that are 1024 tokens or longer", and "cache hits occur in
 *   increments of 128 tokens": the tokens read are 0 below the minimum (pricing.minimumCacheableTokens), else
 *   the minimum plus as many whole 128-token increments as the shared prefix holds beyond it.
 * - Nothing is billed for writing (cacheWriteMultiplier 1); read tokens cost the cached-input price.
 *
 * The prompt is cut into units in the order the API serializes it: per message, its header (role, tool
 * calls), then each of its parts. A prefix is shared up to the first unit that differs, so two requests whose
 * history differs inside a message still share what comes before the difference in that message. Tokens are
 * counted as the request builder counts them: text at four characters a token, images by the profile's formula
 * (a reduced view at low detail).
 */
import type { Message } from '../../src/shared/messages.js';
import { estimateMessageTextTokens, estimateTextTokens } from '../../src/main/context/token-estimates.js';
import { PromptPrefixes, type PromptBlock } from './anthropic-prompt-cache.js';
import { ImageDigests } from './image-digests.js';

/** OpenAI's granularity of cache hits. */
export const AUTOMATIC_CACHE_INCREMENT_TOKENS = 128;

export interface AutomaticCacheUse {
  inputTokens: number;
  /** The tokens of the longest prefix an earlier request held, before the minimum and the increments apply. */
  sharedPrefixTokens: number;
}

/** The tokens a request reads from an automatic cache, by the minimum and the 128-token increments. */
export function automaticCachedTokens(use: AutomaticCacheUse, minimumCacheableTokens: number): number {
  if (use.inputTokens < minimumCacheableTokens || use.sharedPrefixTokens < minimumCacheableTokens) return 0;
  const increments = Math.floor((use.sharedPrefixTokens - minimumCacheableTokens) / AUTOMATIC_CACHE_INCREMENT_TOKENS);
  return minimumCacheableTokens + increments * AUTOMATIC_CACHE_INCREMENT_TOKENS;
}

/** Cuts a rendered request into the units a prefix can end between, each with its tokens. */
export class AutomaticPromptReader {
  private readonly imageDigests = new ImageDigests();

  constructor(private readonly imageTokens: (width: number, height: number, reduced: boolean) => number) {}

  read(messages: readonly Message[]): PromptPrefixes {
    const blocks: PromptBlock[] = [];
    for (const message of messages) {
      const header = { ...message, parts: [] };
      blocks.push({ content: `header:${JSON.stringify(header)}`, tokens: estimateMessageTextTokens(header) });
      for (const part of message.parts) {
        if (part.type === 'text') {
          blocks.push({ content: `text:${part.text}`, tokens: estimateTextTokens(part.text) });
        } else if (part.type === 'image' && part.data !== undefined) {
          const { data: _data, ...shape } = part;
          blocks.push({ content: `image:${this.imageDigests.of(part.data)}:${JSON.stringify(shape)}`, tokens: this.imageTokens(part.width ?? 0, part.height ?? 0, part.resolution === 'reduced') });
        } else {
          blocks.push({ content: `${part.type}:${JSON.stringify(part)}`, tokens: 0 });
        }
      }
    }
    return new PromptPrefixes(blocks);
  }

  /** Drops the image digests (call when the images' strings are let go, at a turn's end). */
  forgetImages(): void {
    this.imageDigests.clear();
  }
}

/** One policy's cache: every prefix of every request sent so far. */
export class AutomaticPromptCache {
  private readonly prefixes = new Set<string>();

  /** Sends a request: how long a prefix it shares with an earlier one. Its own prefixes are cached for the next. */
  send(prompt: PromptPrefixes): AutomaticCacheUse {
    // Every request adds all its prefixes, so the set holds a prefix's prefixes too: walking forward finds the longest.
    let shared = 0;
    while (shared < prompt.blockCount && this.prefixes.has(prompt.keys[shared]!)) shared += 1;
    for (const key of prompt.keys.slice(shared)) this.prefixes.add(key);
    return { inputTokens: prompt.tokens, sharedPrefixTokens: prompt.tokensThrough[shared]! };
  }
}
