/**
 * What a model's tokens cost: the price table a model profile carries (src/main/llm/model-profiles.ts) and
 * `model.pricing` in config.json overrides. Prices are US dollars per million tokens. A model without a table
 * has no known price: costs are then shown in tokens, and no cache is assumed.
 *
 * Here, below the configuration schema, because config.json validates `model.pricing` against it.
 */
import { z } from 'zod';

/**
 * How a provider's prompt cache is reached:
 * - `automatic`: it caches the longest prefix it has seen by itself (OpenAI, DeepSeek, Gemini's implicit cache);
 * - `breakpoints`: only at the blocks a request marks (Anthropic's `cache_control`);
 * - `none`: no cache (most local servers), every input token at full price.
 */
export const CACHE_KINDS = ['automatic', 'breakpoints', 'none'] as const;
export type CacheKind = (typeof CACHE_KINDS)[number];

export const ModelPricingSchema = z
  .object({
    /** Dollars per million input tokens not read from a cache. */
    inputPerMillion: z.number().nonnegative(),
    /** Dollars per million input tokens read from the cache; the input price when there is no cache. */
    cachedInputPerMillion: z.number().nonnegative(),
    /** Dollars per million output tokens. */
    outputPerMillion: z.number().nonnegative(),
    /**
     * What writing a token to the cache costs, as a multiple of the input price: Anthropic's 5-minute cache
     * bills writes at 1.25×; automatic caches write for free (1).
     */
    cacheWriteMultiplier: z.number().min(1).default(1),
    cache: z.enum(CACHE_KINDS),
    /**
     * The shortest prefix the provider caches at all (OpenAI 1024, Claude Sonnet 1024); 0 without a cache, or where
     * the provider's page read names none.
     */
    minimumCacheableTokens: z.number().int().nonnegative().default(0),
  })
  .strict();

export type ModelPricing = z.output<typeof ModelPricingSchema>;

/** The share of the input price a cached token costs: 1 without a cache, or without a known price (no cache assumed). */
export function cachedInputShare(pricing: ModelPricing | undefined): number {
  if (pricing === undefined || pricing.cache === 'none' || pricing.inputPerMillion === 0) return 1;
  return pricing.cachedInputPerMillion / pricing.inputPerMillion;
}
