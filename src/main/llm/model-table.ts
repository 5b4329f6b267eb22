/**
 * The one table of the models Sightline knows by name: each row the names it covers (the model and its dated
 * snapshots), what its tokens cost where a provider's own page says so (standard tier, US dollars per million
 * tokens), and the page its facts come from with the date that page was read. `sightline models` lists it and
 * docs/models.md's table is generated from it (scripts/models-doc.ts).
 *
 * A row's profile (dialect, computer tool, context window, image sizing) is not copied here: it is resolved from
 * the row's name through the family profiles in model-profiles.ts, which many rows share, so a family claim is
 * made once. Names are matched exactly (with their snapshots), never by family: a model whose price no
 * provider page gives gets no price, so its costs are shown as unknown rather than guessed from a relative's.
 * `model.pricing` in config.json replaces a row's price, or gives one to a model without.
 *
 * Local and open models (Qwen, UI-TARS, anything behind Ollama or vLLM) have no row: no price, no cache.
 */
import type { ModelPricing } from '../../shared/pricing.js';

export interface ModelSource {
  /** The provider's page the row's price (or, unpriced, its listing) comes from. */
  page: string;
  /** The day that page was read (YYYY-MM-DD). */
  read: string;
}

export interface ModelRow {
  /** The name the row is listed under, and whose profile it shows. */
  model: string;
  /** The names it covers, as written in the listing (`gpt-4.1[-YYYY-MM-DD]`). */
  pattern: string;
  matches: (normalizedName: string) => boolean;
  pricing?: ModelPricing;
  /**
   * The context window the source page states, where it differs from the family profile's (Claude's 5-family
   * pages say 1M tokens, the Claude family profile 200,000); the profile's otherwise.
   */
  contextWindow?: number;
  source: ModelSource;
  /** Why a current model has no price: what was looked for and not found on a provider page. */
  unpriced?: string;
}

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

/**
 * A Claude model's prices: base input, cache reads, 5-minute cache writes (as a multiple of the input price) and
 * output. `minimumCacheableTokens` is 0 where no Anthropic page read states it (the listing then names none).
 */
const claudePricing = (input: number, cacheRead: number, cacheWrite5m: number, output: number, minimumCacheableTokens: number): ModelPricing => ({
  inputPerMillion: input,
  cachedInputPerMillion: cacheRead,
  outputPerMillion: output,
  cacheWriteMultiplier: cacheWrite5m / input,
  cache: 'breakpoints',
  minimumCacheableTokens,
});

const escaped = (name: string) => name.replace(/[.]/g, '\\.');

/** `name` and its dated snapshots (`gpt-4.1-2025-04-14`), nothing else. */
function dated(name: string): Pick<ModelRow, 'model' | 'pattern' | 'matches'> {
  const pattern = new RegExp(`^${escaped(name)}(-\\d{4}-\\d{2}-\\d{2})?$`);
  return { model: name, pattern: `${name}[-YYYY-MM-DD]`, matches: (normalized) => pattern.test(normalized) };
}

/** A row matched by its own expression (several spellings of one price). */
function named(model: string, pattern: string, expression: RegExp): Pick<ModelRow, 'model' | 'pattern' | 'matches'> {
  return { model, pattern, matches: (normalized) => expression.test(normalized) };
}

/**
 * A Claude model by tier and version, in both of Anthropic's naming orders (`claude-sonnet-4-5-20250929`,
 * `claude-3-7-sonnet-latest`).
 */
function claude(model: string, tierAndVersion: string): Pick<ModelRow, 'model' | 'pattern' | 'matches'> {
  return { model, pattern: `${model}[-…]`, matches: (normalized) => normalized.includes('claude') && claudeTierAndVersion(normalized) === tierAndVersion };
}

const OPENAI_PRICING_PAGE: ModelSource = { page: 'https://platform.openai.com/docs/pricing', read: '2026-11-22' };
const ANTHROPIC_PRICING_PAGE: ModelSource = { page: 'https://docs.anthropic.com/en/docs/about-claude/pricing', read: '2026-11-22' };
const GEMINI_PRICING_PAGE: ModelSource = { page: 'https://ai.google.dev/gemini-api/docs/pricing', read: '2026-11-22' };
const GEMINI_3_PRICING_PAGE: ModelSource = { ...GEMINI_PRICING_PAGE, read: '2026-11-27' };
const TODAY = '2026-11-28';
/** "Context window: 1M tokens" on each Claude 5-family and Opus 4.8 model page. */
const ONE_MILLION = 1_000_000;

/** Looked for with the search tool on 2026-11-28; what came back is in docs/decisions/0083-models-and-prices-table.md. */
const NO_OPENAI_PAGE = "no OpenAI page read gives this model's price (only resellers' and blogs' pages were found)";
const NO_GOOGLE_PAGE = "no Google page read gives this model's price (only resellers' and blogs' pages were found)";

/**
 * First match wins, so a row comes before any broader one containing it. Anthropic's cache reads were 0.1× and
 * 5-minute writes 1.25× the input price for the models of issue 15 (the pricing page), and the minimum cacheable
 * prompt per model is from the prompt-caching guide (docs.anthropic.com/en/docs/build-with-claude/prompt-caching):
 * 4,096 tokens for Opus 4.5 and Haiku 4.5, 2,048 for the Haiku 3 models, 1,024 for the rest. The Claude 5 rows
 * carry each model page's own cache prices (Opus 5.5 reads at 0.05×, not 0.1×).
 */
export const MODEL_TABLE: readonly ModelRow[] = [
  // OpenAI. Cached input at half the input price for gpt-4o; gpt-4o-2024-05-13 ($5/$15, no cache price) is left out.
  { ...named('gpt-4o', 'gpt-4o[-2024-08-06|-2024-11-20]', /^gpt-4o(-2024-(08-06|11-20))?$/), pricing: openAiPricing(2.5, 1.25, 10), source: OPENAI_PRICING_PAGE },
  { ...dated('gpt-4o-mini'), pricing: openAiPricing(0.15, 0.075, 0.6), source: OPENAI_PRICING_PAGE },
  // GPT-4.1 family: cached input at a quarter of the input price.
  { ...dated('gpt-4.1'), pricing: openAiPricing(2, 0.5, 8), source: OPENAI_PRICING_PAGE },
  { ...dated('gpt-4.1-mini'), pricing: openAiPricing(0.4, 0.1, 1.6), source: OPENAI_PRICING_PAGE },
  { ...dated('gpt-4.1-nano'), pricing: openAiPricing(0.1, 0.025, 0.4), source: OPENAI_PRICING_PAGE },
  // GPT-5 family: cached input at a tenth of the input price; GPT-5.1 is listed at GPT-5's price.
  {
    ...named('gpt-5', 'gpt-5[.1][-YYYY-MM-DD|-chat-latest|-codex]', /^gpt-5(\.1)?(-\d{4}-\d{2}-\d{2}|-chat-latest|-codex)?$/),
    pricing: openAiPricing(1.25, 0.125, 10),
    source: OPENAI_PRICING_PAGE,
  },
  { ...dated('gpt-5-mini'), pricing: openAiPricing(0.25, 0.025, 2), source: OPENAI_PRICING_PAGE },
  { ...dated('gpt-5-nano'), pricing: openAiPricing(0.05, 0.005, 0.4), source: OPENAI_PRICING_PAGE },
  // GPT-5.4's model page: $2.50 input, $0.25 cached input, $15 output per million text tokens (prompts over 272K
  // input tokens are billed at 2× input and 1.5× output, which this table does not model).
  {
    ...dated('gpt-5.4'),
    pricing: openAiPricing(2.5, 0.25, 15),
    contextWindow: 1_050_000,
    source: { page: 'https://developers.openai.com/api/docs/models/gpt-5.4', read: TODAY },
  },
  { ...dated('gpt-5.4-mini'), source: { page: 'https://developers.openai.com/api/docs/models', read: TODAY }, unpriced: NO_OPENAI_PAGE },
  { ...dated('gpt-5.5'), source: { page: 'https://developers.openai.com/api/docs/models', read: TODAY }, unpriced: NO_OPENAI_PAGE },
  // Reasoning models.
  { ...dated('o3'), pricing: openAiPricing(2, 0.5, 8), source: OPENAI_PRICING_PAGE },
  { ...dated('o4-mini'), pricing: openAiPricing(1.1, 0.275, 4.4), source: OPENAI_PRICING_PAGE },
  { ...named('o1-mini', 'o1-mini, o3-mini[-YYYY-MM-DD]', /^o[13]-mini(-\d{4}-\d{2}-\d{2})?$/), pricing: openAiPricing(1.1, 0.55, 4.4), source: OPENAI_PRICING_PAGE },
  { ...dated('o1'), pricing: openAiPricing(15, 7.5, 60), source: OPENAI_PRICING_PAGE },
  // The preview computer tool's model: no cached-input price is listed.
  { ...dated('computer-use-preview'), pricing: openAiUncached(3, 12), source: OPENAI_PRICING_PAGE },

  // Anthropic. Claude 5 and Opus 4.8 from each model's overview page ("Pricing": input, output, 5m cache write,
  // cache read). Opus 4.8's page read gives input and output only, Sonnet 5.5's cache read changed after the copy
  // read, Haiku 5.5 is billed by prompt length: none of the three is priced.
  {
    ...claude('claude-opus-5-5', 'opus 5.5'),
    contextWindow: ONE_MILLION,
    pricing: claudePricing(4, 0.2, 5, 20, 0),
    source: { page: 'https://platform.claude.com/docs/zh-CN/models/opus-5-5/overview', read: TODAY },
  },
  {
    ...claude('claude-opus-5', 'opus 5.0'),
    contextWindow: ONE_MILLION,
    pricing: claudePricing(5, 0.5, 6.25, 25, 0),
    source: { page: 'https://platform.claude.com/docs/en/models/opus-5/overview', read: TODAY },
  },
  {
    ...claude('claude-sonnet-5', 'sonnet 5.0'),
    contextWindow: ONE_MILLION,
    pricing: claudePricing(2, 0.2, 2.5, 10, 0),
    source: { page: 'https://platform.claude.com/docs/zh-CN/models/sonnet-5/overview', read: TODAY },
  },
  {
    ...claude('claude-sonnet-5-5', 'sonnet 5.5'),
    contextWindow: ONE_MILLION,
    source: { page: 'https://platform.claude.com/docs/zh-CN/models/sonnet-5-5/overview', read: TODAY },
    unpriced: 'its cache-read price on the page read ($0.20) was cut on 2026-10-07 by other accounts; no Anthropic page read gives the new one',
  },
  {
    ...claude('claude-haiku-5-5', 'haiku 5.5'),
    contextWindow: ONE_MILLION,
    source: { page: 'https://platform.claude.com/docs/zh-CN/models/haiku-5-5/overview', read: TODAY },
    unpriced: 'billed by prompt length (up to and over 100,000 tokens), which this table does not model',
  },
  {
    ...claude('claude-opus-4-8', 'opus 4.8'),
    contextWindow: ONE_MILLION,
    source: { page: 'https://platform.claude.com/docs/ko/models/opus-4-8/overview.md', read: TODAY },
    unpriced: 'the page read gives input ($5) and output ($25) but not its cache prices',
  },
  { ...claude('claude-opus-4-5', 'opus 4.5'), pricing: claudePricing(5, 0.5, 6.25, 25, 4096), source: ANTHROPIC_PRICING_PAGE },
  { ...claude('claude-opus-4-1', 'opus 4.1'), pricing: claudePricing(15, 1.5, 18.75, 75, 1024), source: ANTHROPIC_PRICING_PAGE },
  { ...claude('claude-opus-4', 'opus 4.0'), pricing: claudePricing(15, 1.5, 18.75, 75, 1024), source: ANTHROPIC_PRICING_PAGE },
  { ...claude('claude-3-opus', 'opus 3.0'), pricing: claudePricing(15, 1.5, 18.75, 75, 1024), source: ANTHROPIC_PRICING_PAGE },
  { ...claude('claude-sonnet-4-5', 'sonnet 4.5'), pricing: claudePricing(3, 0.3, 3.75, 15, 1024), source: ANTHROPIC_PRICING_PAGE },
  { ...claude('claude-sonnet-4', 'sonnet 4.0'), pricing: claudePricing(3, 0.3, 3.75, 15, 1024), source: ANTHROPIC_PRICING_PAGE },
  { ...claude('claude-3-7-sonnet', 'sonnet 3.7'), pricing: claudePricing(3, 0.3, 3.75, 15, 1024), source: ANTHROPIC_PRICING_PAGE },
  { ...claude('claude-3-5-sonnet', 'sonnet 3.5'), pricing: claudePricing(3, 0.3, 3.75, 15, 1024), source: ANTHROPIC_PRICING_PAGE },
  { ...claude('claude-haiku-4-5', 'haiku 4.5'), pricing: claudePricing(1, 0.1, 1.25, 5, 4096), source: ANTHROPIC_PRICING_PAGE },
  { ...claude('claude-3-5-haiku', 'haiku 3.5'), pricing: claudePricing(0.8, 0.08, 1, 4, 2048), source: ANTHROPIC_PRICING_PAGE },
  { ...claude('claude-3-haiku', 'haiku 3.0'), pricing: claudePricing(0.25, 0.025, 0.3125, 1.25, 2048), source: ANTHROPIC_PRICING_PAGE },

  // Google, standard tier, prompts up to 200k tokens (2.5 Pro and 3 Pro bill longer prompts at a higher rate,
  // which this table does not model); cached input at the context-caching price. Implicit caching is automatic,
  // from 2,048 tokens on the Pro models and 1,024 on Flash (ai.google.dev/gemini-api/docs/caching).
  { ...named('gemini-2.5-pro', 'gemini-2.5-pro', /^gemini-2\.5-pro$/), pricing: { ...openAiPricing(1.25, 0.125, 10), minimumCacheableTokens: 2048 }, source: GEMINI_PRICING_PAGE },
  { ...named('gemini-2.5-flash', 'gemini-2.5-flash', /^gemini-2\.5-flash$/), pricing: openAiPricing(0.3, 0.03, 2.5), source: GEMINI_PRICING_PAGE },
  { ...named('gemini-2.5-flash-lite', 'gemini-2.5-flash-lite', /^gemini-2\.5-flash-lite$/), pricing: openAiPricing(0.1, 0.01, 0.4), source: GEMINI_PRICING_PAGE },
  // The computer-use preview is billed as Gemini 2.5 Pro (its model card); its implicit cache is taken to be 2.5 Pro's.
  {
    ...named('gemini-2.5-computer-use-preview-10-2025', 'gemini-2.5-computer-use-preview[-MM-YYYY]', /^gemini-2\.5-computer-use-preview(-\d{2}-\d{4})?$/),
    pricing: { ...openAiPricing(1.25, 0.125, 10), minimumCacheableTokens: 2048 },
    source: GEMINI_3_PRICING_PAGE,
  },
  // Gemini 3: cached input at a tenth of the input price.
  { ...named('gemini-3-flash-preview', 'gemini-3-flash-preview', /^gemini-3-flash-preview$/), pricing: openAiPricing(0.5, 0.05, 3), source: GEMINI_3_PRICING_PAGE },
  {
    ...named('gemini-3.1-pro-preview', 'gemini-3[.1]-pro-preview', /^gemini-3(\.1)?-pro-preview$/),
    pricing: { ...openAiPricing(2, 0.2, 12), minimumCacheableTokens: 2048 },
    source: GEMINI_3_PRICING_PAGE,
  },
  { ...named('gemini-3.5-flash', 'gemini-3.5-flash', /^gemini-3\.5-flash$/), source: { page: 'https://ai.google.dev/gemini-api/docs/models/gemini-3.5-flash', read: TODAY }, unpriced: NO_GOOGLE_PAGE },
  { ...named('gemini-3.6-flash', 'gemini-3.6-flash', /^gemini-3\.6-flash$/), source: { page: 'https://ai.google.dev/gemini-api/docs/models/gemini-3.5-flash', read: TODAY }, unpriced: NO_GOOGLE_PAGE },
];

/** The row a model (by normalized name: lower case, no provider prefix) falls in; undefined when none. */
export function modelRowFor(normalizedName: string): ModelRow | undefined {
  return MODEL_TABLE.find((row) => row.matches(normalizedName));
}

/** What the table says of a model beyond its family profile: its price and the context window its page states. */
export function modelRowFacts(normalizedName: string): Pick<ModelRow, 'pricing' | 'contextWindow'> {
  const row = modelRowFor(normalizedName);
  return {
    ...(row?.pricing === undefined ? {} : { pricing: row.pricing }),
    ...(row?.contextWindow === undefined ? {} : { contextWindow: row.contextWindow }),
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
