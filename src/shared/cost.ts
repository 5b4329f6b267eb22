/**
 * What model calls cost in dollars, and how a cost reads wherever it is shown (`sightline run`, `sightline
 * sessions show`, the timeline). The agent prices each call when it records the step; the renderer only
 * formats the costs it receives. Here, in src/shared, so that all of them share one arithmetic and one wording.
 */
import { z } from 'zod';
import type { ModelPricing } from './pricing.js';
import type { TokenUsage } from './token-usage.js';

const TOKENS_PER_MILLION = 1_000_000;

/**
 * The dollars one model call cost under a price table. `inputTokens` is the whole prompt, its cached and
 * cache-written parts included (TokenUsage), so the plain part is what is left of it:
 *   plain input × input price + cache reads × cached price + cache writes × input price × write multiplier
 *   + output × output price.
 */
export function callCost(usage: TokenUsage, pricing: ModelPricing): number {
  const cached = usage.cachedInputTokens ?? 0;
  const written = usage.cacheWriteInputTokens ?? 0;
  const plain = Math.max(0, usage.inputTokens - cached - written);
  const dollarsPerMillion =
    plain * pricing.inputPerMillion +
    cached * pricing.cachedInputPerMillion +
    written * pricing.inputPerMillion * pricing.cacheWriteMultiplier +
    usage.outputTokens * pricing.outputPerMillion;
  return dollarsPerMillion / TOKENS_PER_MILLION;
}

/**
 * What a span of calls (a turn, a session) cost: the dollars of the calls whose price was known when they
 * were made (null when none was), and the tokens of those whose price was not, which no dollar figure covers.
 */
export const CostTotalsSchema = z
  .object({
    dollars: z.number().min(0).nullable(),
    unpricedTokens: z.number().int().min(0),
  })
  .strict();
export type CostTotals = z.infer<typeof CostTotalsSchema>;

export const NO_COST: CostTotals = { dollars: null, unpricedTokens: 0 };

/**
 * "$0.0123": up to four decimals below a dollar, so that a single cheap call still shows, two from a dollar up
 * ("$1.25"); never fewer than two ("$0.50", not "$0.5000").
 */
export function dollarText(dollars: number): string {
  const [whole, fraction = ''] = dollars.toFixed(dollars >= 1 ? 2 : 4).split('.');
  return `$${whole}.${fraction.replace(/0+$/, '').padEnd(2, '0')}`;
}

/**
 * "$0.0123", "unknown (12,340 tokens at no known price)", or "$0.0123 + 2,000 tokens at no known price" when some
 * calls had a price and some had none; null when there was nothing to cost. Never $0 for calls of unknown price.
 */
export function costText(cost: CostTotals, formatCount: (count: number) => string): string | null {
  if (cost.dollars === null) return cost.unpricedTokens === 0 ? null : `unknown (${formatCount(cost.unpricedTokens)} tokens at no known price)`;
  if (cost.unpricedTokens === 0) return dollarText(cost.dollars);
  return `${dollarText(cost.dollars)} + ${formatCount(cost.unpricedTokens)} tokens at no known price`;
}

/**
 * A cost as a report or the timeline shows it: "$0.0123", "cost unknown" where the calls had no known price, or
 * "$0.0123 + cost unknown" where some had; null where nothing was spent (no model call). Never $0 for the unknown.
 */
export function shownCost(dollars: number | null, unknown: boolean): string | null {
  if (dollars === null) return unknown ? 'cost unknown' : null;
  return unknown ? `${dollarText(dollars)} + cost unknown` : dollarText(dollars);
}

/** Adds one call: its dollars when priced, else its tokens. */
export function addCallCost(total: CostTotals, call: { dollars: number | null; tokens: number }): CostTotals {
  if (call.dollars === null) return { ...total, unpricedTokens: total.unpricedTokens + call.tokens };
  return { ...total, dollars: (total.dollars ?? 0) + call.dollars };
}

/** "$2 input, $0.5 cached input, $8 output per million tokens; automatic cache from 1,024 tokens". */
export function pricingText(pricing: ModelPricing, formatCount: (count: number) => string): string {
  // As the providers write them: $2, $0.5, $0.075.
  const price = (dollars: number) => `$${Number(dollars.toPrecision(6))}`;
  const prices =
    pricing.cache === 'none'
      ? `${price(pricing.inputPerMillion)} input, ${price(pricing.outputPerMillion)} output per million tokens; no cache`
      : `${price(pricing.inputPerMillion)} input, ${price(pricing.cachedInputPerMillion)} cached input, ` +
        `${price(pricing.outputPerMillion)} output per million tokens`;
  if (pricing.cache === 'none') return prices;
  const writes = pricing.cacheWriteMultiplier === 1 ? '' : `, writes at ${pricing.cacheWriteMultiplier}× input`;
  const kind = pricing.cache === 'automatic' ? 'automatic cache' : 'cache at breakpoints';
  // 0: the provider's page read names no minimum, and none is claimed.
  const from = pricing.minimumCacheableTokens === 0 ? '' : ` from ${formatCount(pricing.minimumCacheableTokens)} tokens`;
  return `${prices}; ${kind}${from}${writes}`;
}
