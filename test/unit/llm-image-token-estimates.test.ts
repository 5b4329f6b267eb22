import { describe, expect, it } from 'vitest';
import { estimateImageTokens } from '../../src/main/llm/image-token-estimates.js';
import type { ImageTokenFormula } from '../../src/main/llm/image-token-estimates.js';

const GPT_4O_TILES: ImageTokenFormula = { kind: 'openai-tiles', baseTokens: 85, tileTokens: 170 };
const QWEN_PATCHES: ImageTokenFormula = {
  kind: 'patches',
  patchSize: 28,
  tokensPerPatch: 1,
  rounding: 'nearest',
  minPatches: 4,
  maxPatches: 16384,
};

describe('image token estimates', () => {
  // The worked examples in OpenAI's vision guide.
  it('follows the OpenAI tile formula', () => {
    expect(estimateImageTokens(GPT_4O_TILES, { width: 1024, height: 1024 })).toBe(765); // 768² → 4 tiles
    expect(estimateImageTokens(GPT_4O_TILES, { width: 2048, height: 4096 })).toBe(1105); // 768×1536 → 6 tiles
    expect(estimateImageTokens(GPT_4O_TILES, { width: 4096, height: 8192, detail: 'low' })).toBe(85);
    expect(estimateImageTokens(GPT_4O_TILES, { width: 512, height: 512 })).toBe(255); // small images are not upscaled
    expect(estimateImageTokens(GPT_4O_TILES, { width: 1920, height: 1080 })).toBe(85 + 170 * 6); // 1365×768 → 3×2
  });

  it('follows the OpenAI 32 px patch formula, with the shrink to 1536 patches and the model multiplier', () => {
    expect(estimateImageTokens({ kind: 'openai-patches', multiplier: 1 }, { width: 1024, height: 1024 })).toBe(1024);
    expect(estimateImageTokens({ kind: 'openai-patches', multiplier: 1 }, { width: 1800, height: 2400 })).toBe(1452);
    expect(estimateImageTokens({ kind: 'openai-patches', multiplier: 1.62 }, { width: 1024, height: 1024 })).toBe(1659);
  });

  it('follows Anthropic’s width × height / 750 after the 1568 px long-edge resize', () => {
    expect(estimateImageTokens({ kind: 'anthropic-pixels' }, { width: 1000, height: 1000 })).toBe(1334);
    expect(estimateImageTokens({ kind: 'anthropic-pixels' }, { width: 1092, height: 1092 })).toBe(1590);
    // 3136×1568 is resized to 1568×784.
    expect(estimateImageTokens({ kind: 'anthropic-pixels' }, { width: 3136, height: 1568 })).toBe(1640);
  });

  it('counts whole 28 px patches for Qwen-VL, within its pixel range', () => {
    expect(estimateImageTokens(QWEN_PATCHES, { width: 1280, height: 720 })).toBe(46 * 26);
    expect(estimateImageTokens(QWEN_PATCHES, { width: 28, height: 28 })).toBe(4);
    const huge = estimateImageTokens(QWEN_PATCHES, { width: 8000, height: 8000 });
    expect(huge).toBeLessThanOrEqual(16384);
    expect(huge).toBe(128 * 128);
  });

  it('counts partial tiles as whole ones for tilers such as Gemini', () => {
    const gemini: ImageTokenFormula = { kind: 'patches', patchSize: 768, tokensPerPatch: 258, rounding: 'up', minPatches: 1, maxPatches: 64 };
    expect(estimateImageTokens(gemini, { width: 300, height: 300 })).toBe(258);
    expect(estimateImageTokens(gemini, { width: 1000, height: 1000 })).toBe(4 * 258);
  });

  it('rejects sizes that are not positive', () => {
    expect(() => estimateImageTokens(GPT_4O_TILES, { width: 0, height: 10 })).toThrow(/positive/);
  });
});
