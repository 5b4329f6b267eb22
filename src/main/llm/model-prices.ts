/**
 * What each known model's tokens cost, by model name: the providers' published list prices (standard tier,
 * US dollars per million tokens), looked up by resolveModelProfile. Names are matched exactly (with the
 * provider's dated snapshots), not by family: a model whose price Sightline does not know gets no table, so
 * its costs are shown in tokens rather than guessed from a relative's. `model.pricing` in config.json
 * replaces the table of a model whose price has changed or that is not listed here.
 *
 * Local and open models (Qwen, UI-TARS, anything behind Ollama or vLLM) have no table: no price, no cache.
 */
import type { ModelPricing } from '../../shared/pricing.js';

/**
 * OpenAI caches prompts of 1,024 tokens or more by itself, and writing to its cache costs nothing extra
 * (platform.openai.com/docs/guides/prompt-caching).
 */
const openAiPricing = (inputPerMillion: number, cachedInputPerMillion: number, outputPerMillion: number): ModelPricing => ({
  inputPerMillion,
  cachedInputPerMillion,
  outputPerMillion,
  cacheWriteMultiplier: 1,
  cache: 'automatic',
  minimumCacheableTokens: 1024,
});

/** A model OpenAI lists without a cached-input price: every input token at the input price. */
const openAiUncached = (inputPerMillion: number, outputPerMillion: number): ModelPricing => ({
  inputPerMillion,
  cachedInputPerMillion: inputPerMillion,
  outputPerMillion,
  cacheWriteMultiplier: 1,
  cache: 'none',
  minimumCacheableTokens: 0,
});

/** `name` and its dated snapshots (`gpt-4.1-2025-04-14`), nothing else. */
const dated = (name: string): RegExp => new RegExp(`^${name.replace(/[.]/g, '\\.')}(-\\d{4}-\\d{2}-\\d{2})?$`);

/**
 * OpenAI's pricing page (platform.openai.com/docs/pricing), standard tier: input, cached input, output.
 * First match wins.
 */
const OPENAI_PRICES: ReadonlyArray<{ pattern: RegExp; pricing: ModelPricing }> = [
  // Cached input at half the input price. gpt-4o-2024-05-13 ($5/$15, no cache price) is left out on purpose.
  { pattern: /^gpt-4o(-2024-(08-06|11-20))?$/, pricing: openAiPricing(2.5, 1.25, 10) },
  { pattern: dated('gpt-4o-mini'), pricing: openAiPricing(0.15, 0.075, 0.6) },
  // GPT-4.1 family: cached input at a quarter of the input price.
  { pattern: dated('gpt-4.1'), pricing: openAiPricing(2, 0.5, 8) },
  { pattern: dated('gpt-4.1-mini'), pricing: openAiPricing(0.4, 0.1, 1.6) },
  { pattern: dated('gpt-4.1-nano'), pricing: openAiPricing(0.1, 0.025, 0.4) },
  // GPT-5 family: cached input at a tenth of the input price; GPT-5.1 is listed at GPT-5's price.
  { pattern: /^gpt-5(\.1)?(-\d{4}-\d{2}-\d{2}|-chat-latest|-codex)?$/, pricing: openAiPricing(1.25, 0.125, 10) },
  { pattern: dated('gpt-5-mini'), pricing: openAiPricing(0.25, 0.025, 2) },
  { pattern: dated('gpt-5-nano'), pricing: openAiPricing(0.05, 0.005, 0.4) },
  // Reasoning models.
  { pattern: dated('o3'), pricing: openAiPricing(2, 0.5, 8) },
  { pattern: dated('o4-mini'), pricing: openAiPricing(1.1, 0.275, 4.4) },
  { pattern: /^o[13]-mini(-\d{4}-\d{2}-\d{2})?$/, pricing: openAiPricing(1.1, 0.55, 4.4) },
  { pattern: dated('o1'), pricing: openAiPricing(15, 7.5, 60) },
  // The computer tool's model: no cached-input price is listed.
  { pattern: /^computer-use-preview(-\d{4}-\d{2}-\d{2})?$/, pricing: openAiUncached(3, 12) },
];

/**
 * Anthropic's pricing page (docs.anthropic.com/en/docs/about-claude/pricing): base input and output per
 * model; prompt-cache reads at 0.1× and 5-minute cache writes at 1.25× the base input price. The minimum
 * cacheable prompt per model is from the prompt-caching guide (docs.anthropic.com/en/docs/build-with-claude/
 * prompt-caching): 4,096 tokens for Opus 4.5 and Haiku 4.5, 2,048 for the Haiku 3 models, 1,024 for the rest.
 * Keyed by tier and version (`sonnet 4.5`), which both of Anthropic's naming orders give.
 */
const CLAUDE_PRICES: Readonly<Record<string, { input: number; output: number; minimumCacheableTokens: number }>> = {
  'opus 4.5': { input: 5, output: 25, minimumCacheableTokens: 4096 },
  'opus 4.1': { input: 15, output: 75, minimumCacheableTokens: 1024 },
  'opus 4.0': { input: 15, output: 75, minimumCacheableTokens: 1024 },
  'opus 3.0': { input: 15, output: 75, minimumCacheableTokens: 1024 },
  'sonnet 4.5': { input: 3, output: 15, minimumCacheableTokens: 1024 },
  'sonnet 4.0': { input: 3, output: 15, minimumCacheableTokens: 1024 },
  'sonnet 3.7': { input: 3, output: 15, minimumCacheableTokens: 1024 },
  'sonnet 3.5': { input: 3, output: 15, minimumCacheableTokens: 1024 },
  'haiku 4.5': { input: 1, output: 5, minimumCacheableTokens: 4096 },
  'haiku 3.5': { input: 0.8, output: 4, minimumCacheableTokens: 2048 },
  'haiku 3.0': { input: 0.25, output: 1.25, minimumCacheableTokens: 2048 },
};

const ANTHROPIC_CACHE_READ_SHARE = 0.1;
const ANTHROPIC_CACHE_WRITE_MULTIPLIER = 1.25;

/**
 * Google's Gemini API pricing page (ai.google.dev/gemini-api/docs/pricing), standard tier, prompts up to 200k
 * tokens (Gemini 2.5 Pro bills longer prompts at a higher rate, which this table does not model); cached
 * input at the context-caching price. Implicit caching is automatic, from 2,048 tokens on 2.5 Pro and 1,024 on
 * 2.5 Flash (ai.google.dev/gemini-api/docs/caching).
 */
const GEMINI_PRICES: ReadonlyArray<{ pattern: RegExp; pricing: ModelPricing }> = [
  { pattern: /^gemini-2\.5-pro$/, pricing: { ...openAiPricing(1.25, 0.125, 10), minimumCacheableTokens: 2048 } },
  { pattern: /^gemini-2\.5-flash$/, pricing: openAiPricing(0.3, 0.03, 2.5) },
  { pattern: /^gemini-2\.5-flash-lite$/, pricing: openAiPricing(0.1, 0.01, 0.4) },
  // The computer-use preview is billed as Gemini 2.5 Pro (its model card); its implicit cache is taken to be 2.5 Pro's.
  { pattern: /^gemini-2\.5-computer-use-preview(-\d{2}-\d{4})?$/, pricing: { ...openAiPricing(1.25, 0.125, 10), minimumCacheableTokens: 2048 } },
  // Gemini 3: cached input at a tenth of the input price; 3 Pro's prompts up to 200k tokens.
  { pattern: /^gemini-3-flash-preview$/, pricing: openAiPricing(0.5, 0.05, 3) },
  { pattern: /^gemini-3(\.1)?-pro-preview$/, pricing: { ...openAiPricing(2, 0.2, 12), minimumCacheableTokens: 2048 } },
];

/** The price table of a model, by its normalized name (lower case, no provider prefix); undefined when unknown. */
export function modelPricingFor(normalizedName: string): ModelPricing | undefined {
  if (normalizedName.includes('claude')) return claudePricing(normalizedName);
  const listed = [...OPENAI_PRICES, ...GEMINI_PRICES].find((candidate) => candidate.pattern.test(normalizedName));
  return listed?.pricing;
}

function claudePricing(normalizedName: string): ModelPricing | undefined {
  const key = claudeTierAndVersion(normalizedName);
  const price = key === undefined ? undefined : CLAUDE_PRICES[key];
  if (price === undefined) return undefined;
  return {
    inputPerMillion: price.input,
    cachedInputPerMillion: price.input * ANTHROPIC_CACHE_READ_SHARE,
    outputPerMillion: price.output,
    cacheWriteMultiplier: ANTHROPIC_CACHE_WRITE_MULTIPLIER,
    cache: 'breakpoints',
    minimumCacheableTokens: price.minimumCacheableTokens,
  };
}

/**
 * `claude-sonnet-4-5-20250929`, `claude-opus-4-20250514` and `claude-3-7-sonnet-latest` as `sonnet 4.5`,
 * `opus 4.0` and `sonnet 3.7`. A minor version is one digit: the eight digits of a date are not one.
 */
export function claudeTierAndVersion(normalizedName: string): string | undefined {
  const tierFirst = /claude-(opus|sonnet|haiku)-(\d)(?:[-.](\d)(?!\d))?/.exec(normalizedName);
  if (tierFirst !== null) return `${tierFirst[1]} ${tierFirst[2]}.${tierFirst[3] ?? '0'}`;
  const versionFirst = /claude-(\d)(?:[-.](\d))?-(opus|sonnet|haiku)/.exec(normalizedName);
  if (versionFirst !== null) return `${versionFirst[3]} ${versionFirst[1]}.${versionFirst[2] ?? '0'}`;
  return undefined;
}
