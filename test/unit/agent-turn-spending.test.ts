/**
 * The turn's spending and its ceiling (issue 15): calls add up in dollars where the price is known and in
 * tokens where it is not, and the next call is estimated from the last one, or from the request's estimated
 * tokens at the full input price before the turn's first call.
 */
import { describe, expect, it } from 'vitest';
import { ceilingEnding, noSpending, spend } from '../../src/main/agent/turn-spending.js';
import type { ModelPricing } from '../../src/shared/pricing.js';

const PRICING: ModelPricing = { inputPerMillion: 2, cachedInputPerMillion: 0.5, outputPerMillion: 8, cacheWriteMultiplier: 1, cache: 'automatic', minimumCacheableTokens: 1024 };

describe('a turn’s spending', () => {
  it('adds each call’s dollars where the price is known, and its tokens where it is not', () => {
    const spending = noSpending();
    expect(spend(spending, { inputTokens: 10_000, cachedInputTokens: 8_000, outputTokens: 100 }, PRICING)).toBeCloseTo(0.0088, 12);
    expect(spend(spending, { inputTokens: 1_000, outputTokens: 10 }, undefined)).toBeUndefined();
    expect(spending.total).toEqual({ inputTokens: 11_000, outputTokens: 110, cachedInputTokens: 8_000 });
    expect(spending.cost).toEqual({ dollars: expect.closeTo(0.0088, 12), unpricedTokens: 1_010 });
  });
});

describe('the ceiling', () => {
  it('lets the turn go on while what it spent and the next call fit, and none is set when there is no ceiling', () => {
    const spending = noSpending();
    expect(ceilingEnding(undefined, spending, PRICING, 1_000_000)).toBeUndefined();
    // Before the first call: 2,000 estimated tokens at $2 per million is $0.004.
    expect(ceilingEnding({ unit: 'dollars', amount: 0.004 }, spending, PRICING, 2_000)).toBeUndefined();
    expect(ceilingEnding({ unit: 'dollars', amount: 0.0039 }, spending, PRICING, 2_000)).toMatchObject({ status: 'failed', reason: 'cost-limit' });
  });

  it('estimates the next call as the last one, and ends the turn before it would go over', () => {
    const spending = noSpending();
    spend(spending, { inputTokens: 10_000, cachedInputTokens: 8_000, outputTokens: 100 }, PRICING);
    expect(ceilingEnding({ unit: 'dollars', amount: 0.0176 }, spending, PRICING, 50_000)).toBeUndefined();
    expect(ceilingEnding({ unit: 'dollars', amount: 0.0175 }, spending, PRICING, 50_000)?.summary).toBe(
      "Stopped before the next model call: the turn has spent $0.0088, and the next call would cost about $0.0088, over the turn's ceiling of $0.0175 (agent.maxCost).",
    );
  });

  it('counts input and output tokens against a ceiling in tokens, priced or not', () => {
    const spending = noSpending();
    expect(ceilingEnding({ unit: 'tokens', amount: 5_000 }, spending, undefined, 6_000)).toMatchObject({ reason: 'cost-limit' });
    spend(spending, { inputTokens: 4_000, outputTokens: 100 }, PRICING);
    expect(ceilingEnding({ unit: 'tokens', amount: 8_200 }, spending, PRICING, 1)).toBeUndefined();
    expect(ceilingEnding({ unit: 'tokens', amount: 8_199 }, spending, PRICING, 1)?.summary).toContain('has spent 4,100 tokens');
  });

  it('refuses a ceiling in dollars for a model whose price is unknown, before any call', () => {
    expect(ceilingEnding({ unit: 'dollars', amount: 1 }, noSpending(), undefined, 10)?.summary).toContain(
      "The turn's cost ceiling is $1.00 (agent.maxCost), but the model's price is unknown",
    );
  });
});
