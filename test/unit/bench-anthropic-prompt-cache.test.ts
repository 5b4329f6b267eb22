/**
 * The bench's simulation of Anthropic's prompt cache (bench/support/anthropic-prompt-cache.ts), the best
 * breakpoints it gives a window policy, and the cutting of a real adapter body into priced blocks.
 */
import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/shared/messages.js';
import { resolveModelProfile } from '../../src/main/llm/model-profiles.js';
import { AnthropicPromptReader } from '../../bench/support/anthropic-prompt-blocks.js';
import { AnthropicPromptCache, inputTokenEquivalents, PromptPrefixes, type PromptBlock } from '../../bench/support/anthropic-prompt-cache.js';
import type { ModelPricing } from '../../src/shared/pricing.js';
import { bestWindowBreakpoints } from '../../bench/support/window-cache-breakpoints.js';

/** Blocks named by their content, 100 tokens each unless given as [content, tokens]. */
function prompt(...blocks: Array<string | [string, number]>): PromptPrefixes {
  return new PromptPrefixes(
    blocks.map((block): PromptBlock => (typeof block === 'string' ? { content: block, tokens: 100 } : { content: block[0], tokens: block[1] })),
  );
}

function names(prefix: string, count: number): string[] {
  return Array.from({ length: count }, (_unused, index) => `${prefix}${index}`);
}

/** Without the minimum cacheable length, so that small prompts cache. */
function cacheWithoutMinimum(): AnthropicPromptCache {
  return new AnthropicPromptCache({ minimumCacheableTokens: 0 });
}

describe("the bench's Anthropic prompt cache", () => {
  it('writes up to the last breakpoint and bills what follows it as uncached', () => {
    const cache = cacheWithoutMinimum();
    expect(cache.send(prompt('a', 'b', 'c', 'd'), [1])).toEqual({ inputTokens: 400, cacheReadTokens: 0, cacheWriteTokens: 200, uncachedTokens: 200 });
  });

  it('reads the longest written prefix a later request shares and writes from there to its last breakpoint', () => {
    const cache = cacheWithoutMinimum();
    cache.send(prompt('a', 'b', 'c'), [2]);
    expect(cache.send(prompt('a', 'b', 'c', 'd', 'e'), [4])).toEqual({ inputTokens: 500, cacheReadTokens: 300, cacheWriteTokens: 200, uncachedTokens: 0 });
    // Its own entry is there for the next request.
    expect(cache.send(prompt('a', 'b', 'c', 'd', 'e', 'f'), [5]).cacheReadTokens).toBe(500);
  });

  it('misses from the first block that differs: only a written prefix before it is read', () => {
    const cache = cacheWithoutMinimum();
    cache.send(prompt('a', 'b', 'c'), [0, 2]);
    expect(cache.send(prompt('a', 'changed', 'c', 'd'), [3])).toEqual({ inputTokens: 400, cacheReadTokens: 100, cacheWriteTokens: 300, uncachedTokens: 0 });
    expect(cache.send(prompt('other', 'b', 'c'), [2]).cacheReadTokens).toBe(0);
  });

  it('finds a written prefix 20 blocks before a breakpoint but not 21, unless a breakpoint sits on it', () => {
    const cache = cacheWithoutMinimum();
    cache.send(prompt('a'), [0]);
    expect(cache.send(prompt('a', ...names('near', 20)), [20]).cacheReadTokens).toBe(100);
    expect(cache.send(prompt('a', ...names('far', 21)), [21]).cacheReadTokens).toBe(0);
    expect(cache.send(prompt('a', ...names('marked', 21)), [0, 21]).cacheReadTokens).toBe(100);
  });

  it('leaves no entry for a breakpoint inside what the request read', () => {
    const cache = cacheWithoutMinimum();
    cache.send(prompt('a', 'b', 'c'), [2]);
    expect(cache.send(prompt('a', 'b', 'c', 'd'), [1, 3])).toEqual({ inputTokens: 400, cacheReadTokens: 300, cacheWriteTokens: 100, uncachedTokens: 0 });
    expect(cache.send(prompt('a', 'b', 'other'), [2]).cacheReadTokens).toBe(0);
  });

  it('caches nothing at a breakpoint whose prefix is under the minimum cacheable length (1024 tokens for Sonnet)', () => {
    const cache = new AnthropicPromptCache();
    expect(cache.send(prompt(['a', 600]), [0])).toEqual({ inputTokens: 600, cacheReadTokens: 0, cacheWriteTokens: 0, uncachedTokens: 600 });
    expect(cache.send(prompt(['a', 600]), [0]).cacheReadTokens).toBe(0);
    expect(cache.send(prompt(['a', 600], ['b', 600]), [0, 1]).cacheWriteTokens).toBe(1200);
    expect(cache.send(prompt(['a', 600], ['b', 600], ['c', 10]), [0, 2]).cacheReadTokens).toBe(1200);
  });

  it('refuses more than four breakpoints, and breakpoints outside the request', () => {
    const cache = cacheWithoutMinimum();
    const five = prompt('a', 'b', 'c', 'd', 'e');
    expect(() => cache.send(five, [0, 1, 2, 3, 4])).toThrow(/at most 4 cache breakpoints/);
    expect(cache.send(five, [0, 1, 2, 3]).cacheWriteTokens).toBe(400);
    expect(() => cache.send(five, [5])).toThrow(RangeError);
  });

  it('prices writes at 1.25× and reads at 0.1× the input price', () => {
    // A table at Anthropic's multiples, priced so that the read share is exactly a tenth.
    const pricing: ModelPricing = { inputPerMillion: 10, cachedInputPerMillion: 1, outputPerMillion: 50, cacheWriteMultiplier: 1.25, cache: 'breakpoints', minimumCacheableTokens: 1024 };
    expect(inputTokenEquivalents({ inputTokens: 1300, uncachedTokens: 100, cacheWriteTokens: 200, cacheReadTokens: 1000 }, pricing)).toBe(450);
  });
});

describe("a window's best breakpoints", () => {
  it('marks the longest written prefix and the last block the next request shares, and writes nothing for no next request', () => {
    const cache = cacheWithoutMinimum();
    const first = prompt('system', 'oldest image', 'text', 'newest image');
    const second = prompt('system', 'text', 'newest image', 'next image');
    const third = prompt('system', 'text', 'next image', 'third image');
    expect(bestWindowBreakpoints(cache, first, second)).toEqual([0]);
    cache.send(first, [0]);
    expect(bestWindowBreakpoints(cache, second, third)).toEqual([0, 1]);
    cache.send(second, [0, 1]);
    expect(bestWindowBreakpoints(cache, third, undefined)).toEqual([1]);
    expect(cache.send(third, [1])).toEqual({ inputTokens: 400, cacheReadTokens: 200, cacheWriteTokens: 0, uncachedTokens: 200 });
  });
});

describe("the adapter's body as priced blocks", () => {
  const profile = resolveModelProfile('claude-sonnet-4-5');
  const screenshot = (data: string) => ({ type: 'image' as const, imageId: `img_${data}`, mime: 'image/png', data, width: 1280, height: 800 });
  const firstStep: Message[] = [
    { role: 'system', parts: [{ type: 'text', text: 'You drive a browser.' }] },
    { role: 'user', parts: [{ type: 'text', text: 'Open the report' }, screenshot('AAAA')] },
  ];
  const secondStep: Message[] = [
    ...firstStep,
    { role: 'assistant', parts: [{ type: 'text', text: 'I click.' }], toolCalls: [{ id: 'call_1', name: 'computer', argumentsText: '{"action":"left_click"}' }] },
    { role: 'tool', toolCallId: 'call_1', name: 'computer', parts: [{ type: 'text', text: 'done' }, screenshot('BBBB')] },
  ];
  const tools = [{ name: 'finish', description: 'End the task.', parameters: { type: 'object' } }];

  it('cuts tools, system and message blocks in cache order, with the breakpoints the adapter placed', () => {
    const read = new AnthropicPromptReader(profile).read({ messages: secondStep, tools, cacheBoundaries: { earlierTurnsEnd: 0 } });
    // finish, system, "Open the report", image, "I click.", tool_use, tool_result
    expect(read.prefixes.blockCount).toBe(7);
    expect(read.adapterBreakpoints).toEqual([1, 6]);
    const blockTokens = read.prefixes.tokensThrough.slice(1).map((through, index) => through - read.prefixes.tokensThrough[index]!);
    // 1280×800 / 750 = 1366 tokens an image (anthropic-pixels); text at four characters a token.
    expect(blockTokens.slice(2)).toEqual([4, 1366, 2, Math.ceil('computer{"action":"left_click"}'.length / 4), 1 + 1366]);
  });

  it('matches a block marked in one request with the same block unmarked in the next', () => {
    const reader = new AnthropicPromptReader(profile);
    const earlier = reader.read({ messages: firstStep, cacheBoundaries: { earlierTurnsEnd: 0 } });
    const later = reader.read({ messages: secondStep, cacheBoundaries: { earlierTurnsEnd: 0 } });
    expect(earlier.adapterBreakpoints).toContain(2);
    expect(later.prefixes.sharedBlocks(earlier.prefixes)).toBe(earlier.prefixes.blockCount);
    const cache = new AnthropicPromptCache();
    cache.send(earlier.prefixes, earlier.adapterBreakpoints);
    expect(cache.send(later.prefixes, later.adapterBreakpoints).cacheReadTokens).toBe(earlier.prefixes.tokens);
  });
});
