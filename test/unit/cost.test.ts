/**
 * What a call costs (issue 15): the pure cost function over TokenUsage's meaning (input counts its cached and
 * written parts), the wording shared by the CLI and the timeline, and the ceiling's one unambiguous form.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { homeAt } from '../../src/main/config/home.js';
import { loadConfig } from '../../src/main/config/load.js';
import { parseCostCeiling } from '../../src/shared/cost-ceiling.js';
import { addCallCost, callCost, costText, dollarText, NO_COST, shownCost } from '../../src/shared/cost.js';
import type { ModelPricing } from '../../src/shared/pricing.js';
import { ConfigSchema } from '../../src/shared/config.js';

const GPT_41: ModelPricing = { inputPerMillion: 2, cachedInputPerMillion: 0.5, outputPerMillion: 8, cacheWriteMultiplier: 1, cache: 'automatic', minimumCacheableTokens: 1024 };
const SONNET: ModelPricing = { inputPerMillion: 3, cachedInputPerMillion: 0.3, outputPerMillion: 15, cacheWriteMultiplier: 1.25, cache: 'breakpoints', minimumCacheableTokens: 1024 };
const count = (value: number) => value.toLocaleString('en-US');

describe('the cost of one call', () => {
  it('prices plain input and output at their prices', () => {
    expect(callCost({ inputTokens: 1_000_000, outputTokens: 0 }, GPT_41)).toBe(2);
    expect(callCost({ inputTokens: 10_000, outputTokens: 500 }, GPT_41)).toBeCloseTo(0.02 + 0.004, 12);
  });

  it('takes the cached reads out of the input and prices them at the cached price', () => {
    // 12,000 in, of which 10,000 read from the cache: 2,000 × $2 + 10,000 × $0.5 + 300 × $8 per million.
    expect(callCost({ inputTokens: 12_000, cachedInputTokens: 10_000, outputTokens: 300 }, GPT_41)).toBeCloseTo(0.004 + 0.005 + 0.0024, 12);
  });

  it('prices cache writes at the input price times the write multiplier', () => {
    // Anthropic: 20,000 in = 1,000 plain + 15,000 read + 4,000 written; 200 out.
    const usage = { inputTokens: 20_000, cachedInputTokens: 15_000, cacheWriteInputTokens: 4_000, outputTokens: 200 };
    expect(callCost(usage, SONNET)).toBeCloseTo((1_000 * 3 + 15_000 * 0.3 + 4_000 * 3 * 1.25 + 200 * 15) / 1_000_000, 12);
  });

  it('never counts a negative plain input when a provider reports more cached than input', () => {
    expect(callCost({ inputTokens: 100, cachedInputTokens: 150, outputTokens: 0 }, GPT_41)).toBeCloseTo((150 * 0.5) / 1_000_000, 15);
  });
});

describe('cost wording', () => {
  it('writes dollars with up to four decimals below a dollar and two above, never fewer than two', () => {
    expect(dollarText(0.0123456)).toBe('$0.0123');
    expect(dollarText(0.012)).toBe('$0.012');
    expect(dollarText(0.5)).toBe('$0.50');
    expect(dollarText(1.256)).toBe('$1.26');
    expect(dollarText(12)).toBe('$12.00');
    expect(dollarText(0)).toBe('$0.00');
  });

  it('says dollars, tokens when no price was known, or both for a mix', () => {
    expect(costText(NO_COST, count)).toBeNull();
    const priced = addCallCost(NO_COST, { dollars: 0.012, tokens: 5000 });
    expect(costText(priced, count)).toBe('$0.012');
    const unpriced = addCallCost(NO_COST, { dollars: null, tokens: 12_340 });
    expect(costText(unpriced, count)).toBe('unknown (12,340 tokens at no known price)');
    expect(costText(addCallCost(priced, { dollars: null, tokens: 2000 }), count)).toBe('$0.012 + 2,000 tokens at no known price');
  });
});

describe('the cost ceiling', () => {
  it('reads a number or a dollar amount as dollars, and a whole number with "tokens" as tokens', () => {
    expect(parseCostCeiling(0.5)).toEqual({ unit: 'dollars', amount: 0.5 });
    expect(parseCostCeiling('0.5')).toEqual({ unit: 'dollars', amount: 0.5 });
    expect(parseCostCeiling('$0.50')).toEqual({ unit: 'dollars', amount: 0.5 });
    expect(parseCostCeiling('2 dollars')).toEqual({ unit: 'dollars', amount: 2 });
    expect(parseCostCeiling('200000 tokens')).toEqual({ unit: 'tokens', amount: 200_000 });
    expect(parseCostCeiling('200000tokens')).toEqual({ unit: 'tokens', amount: 200_000 });
  });

  it('refuses what is neither, and nothing at or below zero', () => {
    for (const text of ['', 'lots', '0', '$0', '-1', '0 tokens', '1.5 tokens', '$5 tokens', '5 euros']) expect(parseCostCeiling(text), text).toBeUndefined();
    expect(parseCostCeiling(0)).toBeUndefined();
    expect(parseCostCeiling(-2)).toBeUndefined();
  });

  it('comes from SIGHTLINE_AGENT_MAX_COST as text, read the same way', () => {
    const home = homeAt(mkdtempSync(join(tmpdir(), 'sightline-max-cost-')));
    try {
      expect(loadConfig({ home, env: { SIGHTLINE_AGENT_MAX_COST: '200000 tokens' } }).config.agent.maxCost).toBe('200000 tokens');
      expect(loadConfig({ home, env: { SIGHTLINE_AGENT_MAX_COST: '0.25' } }).config.agent.maxCost).toBe('0.25');
      expect(() => loadConfig({ home, env: { SIGHTLINE_AGENT_MAX_COST: 'plenty' } })).toThrow(/SIGHTLINE_AGENT_MAX_COST/);
    } finally {
      rmSync(home.root, { recursive: true, force: true });
    }
  });

  it('is checked by the config schema with the forms it takes', () => {
    expect(ConfigSchema.parse({ agent: { maxCost: '$1' } }).agent.maxCost).toBe('$1');
    expect(ConfigSchema.parse({}).agent.maxCost).toBeUndefined();
    const refused = ConfigSchema.safeParse({ agent: { maxCost: 'a lot' } });
    expect(refused.success).toBe(false);
    expect(JSON.stringify(refused.error?.issues)).toContain('dollars (0.5 or \\"$0.50\\") or tokens (\\"200000 tokens\\")');
  });
});

describe('a cost as reports and the timeline show it (issue 34, part 5)', () => {
  it('says unknown, never $0 or nothing, where the model had no price', () => {
    expect(shownCost(0.0123, false)).toBe('$0.0123');
    expect(shownCost(null, true)).toBe('cost unknown');
    expect(shownCost(0.0123, true)).toBe('$0.0123 + cost unknown');
    expect(shownCost(null, false)).toBeNull();
  });
});
