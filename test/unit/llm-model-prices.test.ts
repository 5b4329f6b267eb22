/**
 * Prices are data (issue 15): every known model's table by its exact name (dated snapshots included), Claude's
 * per model from one family profile, none for local and unknown models, and `model.pricing` replacing the
 * table in the profile in effect.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/main/config/errors.js';
import { CONFIG_FIELDS } from '../../src/main/config/fields.js';
import { homeAt, type SightlineHome } from '../../src/main/config/home.js';
import { loadConfig } from '../../src/main/config/load.js';
import { configuredModelProfile } from '../../src/main/llm/create-model-adapter.js';
import { claudeTierAndVersion, MODEL_TABLE, modelRowFor } from '../../src/main/llm/model-table.js';
import { resolveModelProfile } from '../../src/main/llm/model-profiles.js';
import { DEFAULT_CONFIG } from '../../src/shared/config.js';

const priceOf = (model: string) => {
  const pricing = resolveModelProfile(model).pricing;
  return pricing === undefined ? undefined : [pricing.inputPerMillion, pricing.cachedInputPerMillion, pricing.outputPerMillion];
};

describe('OpenAI list prices', () => {
  it('gives each model its input, cached input and output price, dated snapshots included', () => {
    expect(priceOf('gpt-4o-mini')).toEqual([0.15, 0.075, 0.6]);
    expect(priceOf('gpt-4o-mini-2024-07-18')).toEqual([0.15, 0.075, 0.6]);
    expect(priceOf('gpt-4.1-mini')).toEqual([0.4, 0.1, 1.6]);
    expect(priceOf('openai/gpt-4.1-nano')).toEqual([0.1, 0.025, 0.4]);
    expect(priceOf('gpt-5-mini')).toEqual([0.25, 0.025, 2]);
    expect(priceOf('gpt-5-nano-2025-08-07')).toEqual([0.05, 0.005, 0.4]);
    expect(priceOf('o3')).toEqual([2, 0.5, 8]);
    expect(priceOf('o4-mini')).toEqual([1.1, 0.275, 4.4]);
    expect(resolveModelProfile('gpt-5-mini').pricing).toMatchObject({ cache: 'automatic', cacheWriteMultiplier: 1, minimumCacheableTokens: 1024 });
  });

  it('bills the computer-use model’s input at one price, with no cache', () => {
    expect(resolveModelProfile('computer-use-preview-2025-03-11').pricing).toEqual({
      inputPerMillion: 3,
      cachedInputPerMillion: 3,
      outputPerMillion: 12,
      cacheWriteMultiplier: 1,
      cache: 'none',
      minimumCacheableTokens: 0,
    });
  });

  it('does not lend a relative’s price to a model whose own it does not know', () => {
    expect(priceOf('gpt-4o-2024-05-13')).toBeUndefined();
    expect(priceOf('gpt-5.4-mini')).toBeUndefined();
    expect(priceOf('gpt-4o-mini-audio-preview')).toBeUndefined();
  });
});

describe('Claude list prices', () => {
  it('reads tier and version from both of Anthropic’s naming orders, a date not taken for a minor version', () => {
    expect(claudeTierAndVersion('claude-sonnet-4-5-20250929')).toBe('sonnet 4.5');
    expect(claudeTierAndVersion('claude-opus-4-20250514')).toBe('opus 4.0');
    expect(claudeTierAndVersion('claude-opus-4-1')).toBe('opus 4.1');
    expect(claudeTierAndVersion('claude-3-7-sonnet-latest')).toBe('sonnet 3.7');
    expect(claudeTierAndVersion('claude-3-5-haiku-20241022')).toBe('haiku 3.5');
    expect(claudeTierAndVersion('claude-sonnet-4.5')).toBe('sonnet 4.5');
  });

  it('prices each Claude model of the one family profile, reads at 0.1× and writes at 1.25×, with its minimum cacheable prompt', () => {
    expect(priceOf('claude-opus-4-1-20250805')).toEqual([15, 1.5, 75]);
    expect(priceOf('claude-opus-4-20250514')).toEqual([15, 1.5, 75]);
    expect(priceOf('claude-opus-4-5')).toEqual([5, 0.5, 25]);
    expect(priceOf('claude-3-7-sonnet-20250219')).toEqual([3, expect.closeTo(0.3, 10), 15]);
    expect(priceOf('claude-sonnet-4-20250514')).toEqual([3, expect.closeTo(0.3, 10), 15]);
    expect(priceOf('claude-haiku-4-5')).toEqual([1, 0.1, 5]);
    expect(priceOf('claude-3-5-haiku-latest')).toEqual([0.8, expect.closeTo(0.08, 10), 4]);
    expect(resolveModelProfile('claude-opus-4-5').pricing).toMatchObject({ cache: 'breakpoints', cacheWriteMultiplier: 1.25, minimumCacheableTokens: 4096 });
    expect(resolveModelProfile('claude-haiku-4-5').pricing?.minimumCacheableTokens).toBe(4096);
    expect(resolveModelProfile('claude-3-5-haiku-latest').pricing?.minimumCacheableTokens).toBe(2048);
    expect(resolveModelProfile('claude-sonnet-4-5').pricing?.minimumCacheableTokens).toBe(1024);
    // A Claude model newer than the table: no price rather than a guess.
    expect(priceOf('claude-sonnet-9-0')).toBeUndefined();
  });
});

describe('other models', () => {
  it('prices Gemini where Google lists it, and leaves local and unknown models without a price', () => {
    expect(priceOf('gemini-2.5-pro')).toEqual([1.25, 0.125, 10]);
    expect(resolveModelProfile('gemini-2.5-pro').pricing?.minimumCacheableTokens).toBe(2048);
    expect(priceOf('gemini-2.5-flash')).toEqual([0.3, 0.03, 2.5]);
    for (const model of ['qwen2.5-vl-7b-instruct', 'Qwen/Qwen3-VL-8B-Instruct', 'ui-tars-1.5-7b', 'bytedance/ui-tars-72b-dpo', 'my-own-model']) {
      expect(resolveModelProfile(model).pricing, model).toBeUndefined();
    }
  });
});

describe('model.pricing in config.json', () => {
  let home: SightlineHome;
  beforeEach(() => {
    home = homeAt(mkdtempSync(join(tmpdir(), 'sightline-pricing-')));
  });
  afterEach(() => rmSync(home.root, { recursive: true, force: true }));

  const TABLE = { inputPerMillion: 0.2, cachedInputPerMillion: 0.05, outputPerMillion: 0.8, cache: 'automatic' };

  it('replaces the known table whole in the profile in effect, its defaults filled in', () => {
    writeFileSync(home.configFile, JSON.stringify({ model: { name: 'gpt-4.1', pricing: TABLE } }));
    const { config, sources } = loadConfig({ home, env: {} });
    expect(sources['model.pricing']).toMatchObject({ kind: 'file' });
    expect(configuredModelProfile(config.model).pricing).toEqual({ ...TABLE, cacheWriteMultiplier: 1, minimumCacheableTokens: 0 });
  });

  it('gives a local model a price, and leaves the known one in effect when none is configured', () => {
    writeFileSync(home.configFile, JSON.stringify({ model: { name: 'qwen2.5-vl-7b-instruct', pricing: { ...TABLE, cache: 'none', cachedInputPerMillion: 0.2 } } }));
    expect(configuredModelProfile(loadConfig({ home, env: {} }).config.model).pricing).toMatchObject({ inputPerMillion: 0.2, cache: 'none' });
    expect(configuredModelProfile(DEFAULT_CONFIG.model).pricing).toMatchObject({ inputPerMillion: 2, cachedInputPerMillion: 0.5 });
  });

  it('refuses a partial table, naming the field that is missing, and has no variables for its parts', () => {
    writeFileSync(home.configFile, JSON.stringify({ model: { pricing: { inputPerMillion: 1 } } }));
    expect(() => loadConfig({ home, env: {} })).toThrow(ConfigError);
    expect(() => loadConfig({ home, env: {} })).toThrow(/model\.pricing\.outputPerMillion/);
    expect(CONFIG_FIELDS.map((field) => field.path).filter((path) => path.startsWith('model.pricing'))).toEqual([]);
  });
});

describe('the model table of issue 34 (part 5): current models, each row with its source page and the day it was read', () => {
  it('prices gpt-5.4 and Claude Opus 5.5 from their providers’ own model pages', () => {
    expect(priceOf('gpt-5.4')).toEqual([2.5, 0.25, 15]);
    expect(priceOf('gpt-5.4-2026-03-05')).toEqual([2.5, 0.25, 15]);
    expect(resolveModelProfile('gpt-5.4').pricing).toMatchObject({ cache: 'automatic', cacheWriteMultiplier: 1 });
    // $4 input, $0.20 cache read (0.05×, not the older 0.1×), $5 5-minute write (1.25×), $20 output.
    expect(resolveModelProfile('claude-opus-5-5').pricing).toMatchObject({
      inputPerMillion: 4,
      cachedInputPerMillion: 0.2,
      outputPerMillion: 20,
      cacheWriteMultiplier: 1.25,
      cache: 'breakpoints',
    });
    expect(priceOf('claude-opus-5')).toEqual([5, 0.5, 25]);
    expect(priceOf('claude-sonnet-5')).toEqual([2, 0.2, 10]);
  });

  it('takes the context window a model page states over its family profile’s, overrides still winning', () => {
    expect(resolveModelProfile('claude-opus-5-5').contextWindow).toBe(1_000_000);
    expect(resolveModelProfile('claude-opus-4-8').contextWindow).toBe(1_000_000);
    expect(resolveModelProfile('gpt-5.4').contextWindow).toBe(1_050_000);
    expect(resolveModelProfile('claude-opus-4-5').contextWindow).toBe(200_000);
    expect(resolveModelProfile('claude-opus-5-5', { contextWindow: 300_000 }).contextWindow).toBe(300_000);
  });

  it('leaves a current model unpriced where no provider page read gives its price, saying why', () => {
    for (const model of ['gpt-5.5', 'gpt-5.4-mini', 'claude-opus-4-8', 'claude-sonnet-5-5', 'claude-haiku-5-5', 'gemini-3.5-flash', 'gemini-3.6-flash']) {
      expect(priceOf(model), model).toBeUndefined();
      expect(modelRowFor(model)?.unpriced, model).toMatch(/\w/);
    }
  });

  it('gives every row a provider page and a read date, and a price or the reason it has none', () => {
    for (const row of MODEL_TABLE) {
      expect(row.source.page, row.model).toMatch(/^https:\/\/(platform\.openai\.com|developers\.openai\.com|docs\.anthropic\.com|platform\.claude\.com|ai\.google\.dev)\//);
      expect(row.source.read, row.model).toMatch(/^2026-\d{2}-\d{2}$/);
      expect(row.pricing !== undefined || row.unpriced !== undefined, row.model).toBe(true);
      // Each row covers the name it is listed under, and that name resolves to the row's own price.
      expect(modelRowFor(row.model), row.model).toBe(row);
    }
  });
});
