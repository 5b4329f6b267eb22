/**
 * The context bench's pieces: the simulation of OpenAI's automatic prompt cache
 * (bench/support/automatic-prompt-cache.ts), the pricing of its uses under a price table
 * (bench/support/price-tables.ts), and the count of the latest screens a request shows
 * (bench/support/policy-figures.ts).
 */
import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/shared/messages.js';
import type { ModelPricing } from '../../src/shared/pricing.js';
import { PromptPrefixes, type PromptBlock } from '../../bench/support/anthropic-prompt-cache.js';
import { AutomaticPromptCache, AutomaticPromptReader, automaticCachedTokens } from '../../bench/support/automatic-prompt-cache.js';
import { isReducedView, latestScreensShown, showsLatestScreens } from '../../bench/support/policy-figures.js';
import { automaticEquivalents, type PriceTable } from '../../bench/support/price-tables.js';

function prompt(...blocks: Array<[string, number]>): PromptPrefixes {
  return new PromptPrefixes(blocks.map(([content, tokens]): PromptBlock => ({ content, tokens })));
}

const OPENAI_25: ModelPricing = { inputPerMillion: 2, cachedInputPerMillion: 0.5, outputPerMillion: 8, cacheWriteMultiplier: 1, cache: 'automatic', minimumCacheableTokens: 1024 };

describe("the bench's automatic prompt cache", () => {
  it('reads nothing below the minimum, then the minimum and whole 128-token increments of the shared prefix', () => {
    expect(automaticCachedTokens({ inputTokens: 5000, sharedPrefixTokens: 1023 }, 1024)).toBe(0);
    expect(automaticCachedTokens({ inputTokens: 5000, sharedPrefixTokens: 1024 }, 1024)).toBe(1024);
    expect(automaticCachedTokens({ inputTokens: 5000, sharedPrefixTokens: 1151 }, 1024)).toBe(1024);
    expect(automaticCachedTokens({ inputTokens: 5000, sharedPrefixTokens: 1152 }, 1024)).toBe(1152);
    expect(automaticCachedTokens({ inputTokens: 5000, sharedPrefixTokens: 4000 }, 1024)).toBe(1024 + 23 * 128);
    expect(automaticCachedTokens({ inputTokens: 1000, sharedPrefixTokens: 1000 }, 1024)).toBe(0);
  });

  it('finds the longest prefix shared with any earlier request, not only the one before', () => {
    const cache = new AutomaticPromptCache();
    expect(cache.send(prompt(['system', 1000], ['a', 500], ['b', 500])).sharedPrefixTokens).toBe(0);
    expect(cache.send(prompt(['system', 1000], ['c', 500])).sharedPrefixTokens).toBe(1000);
    // The third request shares system + a + b with the first, more than with the second.
    const third = cache.send(prompt(['system', 1000], ['a', 500], ['b', 500], ['d', 200]));
    expect(third).toEqual({ inputTokens: 2200, sharedPrefixTokens: 2000 });
  });

  it('cuts a request into message headers and parts, so a prefix can end inside a message', () => {
    const reader = new AutomaticPromptReader(() => 1000);
    const image = { type: 'image' as const, imageId: 'img_000000000001', mime: 'image/png', data: 'AAAA', width: 1280, height: 800 };
    const first: Message[] = [{ role: 'user', parts: [{ type: 'text', text: 'x'.repeat(4000) }, image, { type: 'text', text: 'first' }] }];
    const second: Message[] = [{ role: 'user', parts: [{ type: 'text', text: 'x'.repeat(4000) }, image, { type: 'text', text: 'second' }] }];
    const cache = new AutomaticPromptCache();
    cache.send(reader.read(first));
    expect(cache.send(reader.read(second)).sharedPrefixTokens).toBe(1000 + 1000);
  });

  it('bills cached tokens at the table\'s share, and everything at full price without a cache', () => {
    const uses = [{ inputTokens: 3000, sharedPrefixTokens: 2100 }];
    const automatic: PriceTable = { model: 'gpt-4.1', pricing: OPENAI_25 };
    // 2048 cached (1024 + 8 × 128) at 25%, 952 at 100%.
    expect(automaticEquivalents(uses, automatic)).toBe(952 + 2048 * 0.25);
    expect(automaticEquivalents(uses, { model: 'local', pricing: undefined })).toBe(3000);
  });
});

describe('the latest screens a request shows', () => {
  const fullDetail = { width: 1280, height: 800 };
  const screen = (id: string, width = 1280, height = 800) => ({ type: 'image' as const, imageId: id, mime: 'image/png', data: `data-${id}`, width, height });

  it('counts back from the newest until a screen is not shown, full detail and reduced views apart', () => {
    const messages: Message[] = [
      { role: 'user', parts: [screen('img_a')] },
      { role: 'user', parts: [{ type: 'text', text: '[Visual_Placeholder: img_b] a caption' }] },
      { role: 'user', parts: [screen('img_c', 640, 400), screen('img_d', 640, 400), screen('img_e')] },
    ];
    const latest = latestScreensShown(messages, ['img_a', 'img_b', 'img_c', 'img_d', 'img_e'], fullDetail);
    expect(latest).toEqual({ full: 1, reduced: 2, newestAtFullDetail: true, taken: 5 });
    expect(showsLatestScreens(latest, 3)).toBe(true);
    expect(showsLatestScreens(latest, 4)).toBe(false);
  });

  it('wants only the screens taken so far, and the newest at full detail', () => {
    expect(showsLatestScreens({ full: 1, reduced: 0, newestAtFullDetail: true, taken: 1 }, 3)).toBe(true);
    expect(showsLatestScreens({ full: 0, reduced: 3, newestAtFullDetail: false, taken: 3 }, 3)).toBe(false);
  });

  it('takes an image sent smaller than its full-detail rendering for a reduced view', () => {
    expect(isReducedView(screen('img_a'), fullDetail)).toBe(false);
    expect(isReducedView(screen('img_a', 512, 320), fullDetail)).toBe(true);
  });
});
