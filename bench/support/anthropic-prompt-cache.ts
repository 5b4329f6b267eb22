/**
 * A simulator of Anthropic's prompt cache, to price requests as Anthropic bills them. It follows the
 * prompt-caching documentation (https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching):
 *
 * - A request is one sequence of blocks, tools → system → messages. A block marked `cache_control` is a
 *   breakpoint: the prefix that ends with it can be cached. At most four breakpoints a request; the API
 *   refuses more, and so does `send` (a RangeError).
 * - A hit needs exactly the same content up to the end of a cached prefix. "The system automatically checks
 *   for cache hits at all previous content block boundaries (up to approximately 20 blocks before your
 *   explicit breakpoint)": here each breakpoint's own boundary and the 20 before it are checked, and the
 *   longest prefix found that an earlier request wrote is read.
 * - Usage: `cache_read_input_tokens` are the tokens read, billed 0.1× the input price;
 *   `cache_creation_input_tokens` those from the read point to the last breakpoint, written at 1.25× (the
 *   5-minute cache); `input_tokens` those after the last breakpoint, at 1×.
 * - "Minimum cacheable prompt length": 1024 tokens for Claude Sonnet 4.5 (and Sonnet 4, Opus 4/4.1). A
 *   breakpoint whose prefix is shorter caches nothing, honoured here (the option `minimumCacheableTokens`).
 *
 * Simplifications, each harmless for a session whose requests follow each other seconds apart:
 * - No time to live: every request comes well within 5 minutes of the one before, and each hit refreshes the
 *   entry anyway.
 * - A request stores an entry at each of its breakpoints beyond its read point, none for a breakpoint inside
 *   what it read (those tokens are billed as read, not written).
 * - A block is a top-level block: one tool definition, one system text block, or one content block of a
 *   message (a `tool_result` with its images is one block). "Approximately 20" is taken as exactly 20.
 * - An entry is the blocks' content; the `cache_control` markers are no part of it, so a block marked in one
 *   request and not in the next still matches (the documentation's multi-turn conversations rely on it).
 * - Requests are sequential: an entry is there for every later request.
 */
import { createHash } from 'node:crypto';
import { cachedInputShare, type ModelPricing } from '../../src/shared/pricing.js';

/** Anthropic's limit of breakpoints per request. */
export const MAX_BREAKPOINTS = 4;
export const LOOKBACK_BLOCKS = 20;
/** Claude Sonnet 4.5's minimum cacheable prompt length. */
export const SONNET_MINIMUM_CACHEABLE_TOKENS = 1024;

export interface PromptBlock {
  /** What the block holds, exactly enough that two blocks are equal only when the API would see the same bytes. */
  content: string;
  tokens: number;
}

/** One request's blocks, with each prefix's key and token count worked out once. */
export class PromptPrefixes {
  /** keys[i]: the prefix of blocks 0…i. */
  readonly keys: readonly string[];
  /** tokensThrough[n]: the tokens of the first n blocks (so tokensThrough[0] is 0). */
  readonly tokensThrough: readonly number[];

  constructor(blocks: readonly PromptBlock[]) {
    const keys: string[] = [];
    const tokensThrough = [0];
    let key = '';
    for (const block of blocks) {
      key = createHash('sha1').update(key).update('\u0000').update(block.content).digest('hex');
      keys.push(key);
      tokensThrough.push(tokensThrough.at(-1)! + block.tokens);
    }
    this.keys = keys;
    this.tokensThrough = tokensThrough;
  }

  get blockCount(): number {
    return this.keys.length;
  }

  get tokens(): number {
    return this.tokensThrough.at(-1)!;
  }

  /** How many leading blocks this request shares with another. */
  sharedBlocks(other: PromptPrefixes): number {
    let shared = 0;
    while (shared < this.keys.length && shared < other.keys.length && this.keys[shared] === other.keys[shared]) shared += 1;
    return shared;
  }
}

export interface CacheUse {
  inputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  uncachedTokens: number;
}

/**
 * What a request's input costs, in tokens at the base input price, under a price table: writes at its write
 * multiplier (Anthropic's 5-minute cache: 1.25×), reads at its cached share (0.1×), the rest at 1×.
 */
export function inputTokenEquivalents(use: CacheUse, pricing: ModelPricing): number {
  return use.uncachedTokens + pricing.cacheWriteMultiplier * use.cacheWriteTokens + cachedInputShare(pricing) * use.cacheReadTokens;
}

export interface PromptCacheOptions {
  minimumCacheableTokens?: number;
  lookbackBlocks?: number;
}

export class AnthropicPromptCache {
  private readonly entries = new Set<string>();
  private readonly minimumCacheableTokens: number;
  private readonly lookbackBlocks: number;

  constructor(options: PromptCacheOptions = {}) {
    this.minimumCacheableTokens = options.minimumCacheableTokens ?? SONNET_MINIMUM_CACHEABLE_TOKENS;
    this.lookbackBlocks = options.lookbackBlocks ?? LOOKBACK_BLOCKS;
  }

  /**
   * Sends a request with breakpoints on the given blocks (indexes into its blocks): what it reads and
   * writes, and the entries it leaves for the requests after it.
   */
  send(prompt: PromptPrefixes, breakpoints: readonly number[]): CacheUse {
    const marks = [...new Set(breakpoints)].sort((first, second) => first - second);
    if (marks.length > MAX_BREAKPOINTS) {
      throw new RangeError(`A request may hold at most ${MAX_BREAKPOINTS} cache breakpoints; this one holds ${marks.length}.`);
    }
    for (const mark of marks) {
      if (!Number.isInteger(mark) || mark < 0 || mark >= prompt.blockCount) {
        throw new RangeError(`Breakpoint ${mark} is not a block of this request (it has ${prompt.blockCount}).`);
      }
    }
    const readBlocks = this.readPoint(prompt, marks);
    let writtenBlocks = readBlocks;
    for (const mark of marks) {
      const blocks = mark + 1;
      if (blocks <= readBlocks || prompt.tokensThrough[blocks]! < this.minimumCacheableTokens) continue;
      this.entries.add(prompt.keys[mark]!);
      writtenBlocks = blocks;
    }
    const cacheReadTokens = prompt.tokensThrough[readBlocks]!;
    const cacheWriteTokens = prompt.tokensThrough[writtenBlocks]! - cacheReadTokens;
    return {
      inputTokens: prompt.tokens,
      cacheReadTokens,
      cacheWriteTokens,
      uncachedTokens: prompt.tokens - cacheReadTokens - cacheWriteTokens,
    };
  }

  /** The longest prefix of this request that an earlier one wrote, wherever it ends (0 when none): what a breakpoint placed exactly there would read. */
  longestStoredPrefix(prompt: PromptPrefixes): number {
    for (let blocks = prompt.blockCount; blocks > 0; blocks -= 1) if (this.entries.has(prompt.keys[blocks - 1]!)) return blocks;
    return 0;
  }

  /** The blocks read: the longest stored prefix ending at a breakpoint or within the lookback before one. */
  private readPoint(prompt: PromptPrefixes, marks: readonly number[]): number {
    let readBlocks = 0;
    for (const mark of marks) {
      for (let index = mark; index >= Math.max(0, mark - this.lookbackBlocks); index -= 1) {
        if (this.entries.has(prompt.keys[index]!)) {
          readBlocks = Math.max(readBlocks, index + 1);
          break;
        }
      }
    }
    return readBlocks;
  }
}
