/**
 * The price tables the context section prices its sessions under, each taken from a model profile's `pricing`
 * (src/shared/pricing.ts), and what a request's input costs under each, in input tokens at full price
 * ("input-token equivalents") and in dollars where the price is known.
 *
 * - no cache: a local model's profile (no price table: no cache, no price, so tokens only);
 * - automatic caches (OpenAI): reads found by the automatic-prompt-cache simulator, billed at the table's share;
 * - explicit breakpoints (Anthropic): reads and writes found by the anthropic-prompt-cache simulator.
 */
import { cachedInputShare, type ModelPricing } from '../../src/shared/pricing.js';
import { resolveModelProfile } from '../../src/main/llm/model-profiles.js';
import { inputTokenEquivalents, type CacheUse } from './anthropic-prompt-cache.js';
import { automaticCachedTokens, type AutomaticCacheUse } from './automatic-prompt-cache.js';

export interface PriceTable {
  /** The model whose profile's table this is. */
  model: string;
  /** Undefined: the profile has no price table (no cache, costs in tokens only). */
  pricing: ModelPricing | undefined;
}

/** A local model served by an OpenAI-compatible server (Ollama, vLLM): no cache. */
const LOCAL_MODEL = 'qwen2.5-vl-7b-instruct';

export const PRICE_TABLES: readonly PriceTable[] = [LOCAL_MODEL, 'gpt-4o', 'gpt-4.1', 'gpt-5', 'claude-sonnet-4-5'].map((model) => ({
  model,
  pricing: resolveModelProfile(model).pricing,
}));

export function cacheKindOf(table: PriceTable): ModelPricing['cache'] {
  return table.pricing?.cache ?? 'none';
}

/** "no cache", "automatic, cached input at 25%", "breakpoints, reads at 10%, writes at 125%". */
export function describePriceTable(table: PriceTable): string {
  const { pricing } = table;
  const price = pricing === undefined || pricing.inputPerMillion === 0 ? 'no price' : `$${pricing.inputPerMillion}/M input`;
  switch (cacheKindOf(table)) {
    case 'none':
      return `${table.model}: no cache, ${price}`;
    case 'automatic':
      return `${table.model}: automatic cache, cached input at ${Math.round(cachedInputShare(pricing!) * 100)}%, ${price}`;
    case 'breakpoints':
      return `${table.model}: explicit breakpoints, reads at ${Math.round(cachedInputShare(pricing!) * 100)}%, writes at ${Math.round(pricing!.cacheWriteMultiplier * 100)}%, ${price}`;
  }
}

/** Input-token equivalents of requests sent with no cache, or to an automatic one. */
export function automaticEquivalents(uses: readonly AutomaticCacheUse[], table: PriceTable): number {
  const pricing = table.pricing;
  let total = 0;
  for (const use of uses) {
    if (pricing === undefined || pricing.cache !== 'automatic') {
      total += use.inputTokens;
      continue;
    }
    const cached = automaticCachedTokens(use, pricing.minimumCacheableTokens);
    total += use.inputTokens - cached + cached * cachedInputShare(pricing);
  }
  return total;
}

/** Input-token equivalents of requests through Anthropic's cache: writes at the write multiplier, reads at the cached share. */
export function breakpointEquivalents(uses: readonly CacheUse[], table: PriceTable): number {
  return uses.reduce((total, use) => total + inputTokenEquivalents(use, table.pricing!), 0);
}

/** Dollars for so many input-token equivalents, or undefined when the table has no price. */
export function dollarsOf(equivalents: number, table: PriceTable): number | undefined {
  const pricing = table.pricing;
  if (pricing === undefined || pricing.inputPerMillion === 0) return undefined;
  return (equivalents * pricing.inputPerMillion) / 1_000_000;
}
