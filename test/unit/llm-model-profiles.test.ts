import { describe, expect, it } from 'vitest';
import { resolveModelProfile } from '../../src/main/llm/model-profiles.js';
import { cachedInputShare } from '../../src/shared/pricing.js';

describe('model profiles', () => {
  it('matches known models by name, ignoring provider prefixes and case', () => {
    expect(resolveModelProfile('gpt-4.1').family).toBe('gpt-4.1');
    expect(resolveModelProfile('openai/gpt-4.1-mini').family).toBe('gpt-4.1-mini');
    expect(resolveModelProfile('gpt-4o-mini-2024-07-18').family).toBe('gpt-4o-mini');
    expect(resolveModelProfile('gpt-4o-audio-preview').family).toBe('openai-audio');
    expect(resolveModelProfile('anthropic/claude-sonnet-4.5').family).toBe('claude');
    expect(resolveModelProfile('Qwen/Qwen2.5-VL-7B-Instruct').family).toBe('qwen-vl');
    expect(resolveModelProfile('qwen2.5vl:7b').family).toBe('qwen-vl');
    expect(resolveModelProfile('qwen2.5:7b').family).toBe('text-only');
    expect(resolveModelProfile('llama3.1:8b').family).toBe('text-only');
    expect(resolveModelProfile('llama3.2-vision').family).toBe('default');
    expect(resolveModelProfile('o3').family).toBe('o1-o3');
    expect(resolveModelProfile('o3-mini').family).toBe('openai-text-reasoning');
  });

  it('describes what a model reads and writes, its context, image cost and coordinate space', () => {
    const claude = resolveModelProfile('claude-opus-4-1');
    expect(claude).toMatchObject({
      model: 'claude-opus-4-1',
      contextWindow: 200_000,
      imageTokens: { kind: 'anthropic-pixels' },
      maxImageEdge: 1568,
      coordinateSpace: 'pixels',
    });
    expect(claude.modalities.input).toContain('image');
    expect(resolveModelProfile('gemini-2.5-pro').coordinateSpace).toBe('normalized-1000');
    expect(resolveModelProfile('gpt-3.5-turbo').modalities.input).toEqual(['text']);
    expect(resolveModelProfile('gpt-4o-audio-preview').modalities).toEqual({ input: ['text', 'audio'], output: ['text', 'audio'] });
  });

  it('gives the Qwen VL families their computer_use dialect, in the coordinate space each names points in', () => {
    // Hugging Face repository names (vLLM), Ollama tags, OpenRouter ids.
    for (const name of ['Qwen/Qwen2.5-VL-7B-Instruct', 'qwen2.5-vl-7b-instruct', 'qwen2.5vl:7b', 'qwen/qwen2.5-vl-72b-instruct', 'Qwen2-VL-7B-Instruct']) {
      expect(resolveModelProfile(name), name).toMatchObject({ family: 'qwen-vl', dialect: 'qwen-computer-use', coordinateSpace: 'pixels' });
    }
    for (const name of ['Qwen/Qwen3-VL-8B-Instruct', 'Qwen/Qwen3-VL-30B-A3B-Instruct', 'qwen3-vl:8b', 'qwen/qwen3-vl-235b-a22b-instruct']) {
      expect(resolveModelProfile(name), name).toMatchObject({ family: 'qwen3-vl', dialect: 'qwen-computer-use', coordinateSpace: 'normalized-1000' });
    }
    // Qwen's text models have no computer_use to speak.
    expect(resolveModelProfile('qwen2.5:7b').dialect).toBe('function-tools');
  });

  it('gives unknown models a default profile that can see images', () => {
    const profile = resolveModelProfile('my-finetune-v3');
    expect(profile).toMatchObject({ model: 'my-finetune-v3', family: 'default', contextWindow: 128_000, coordinateSpace: 'pixels' });
    expect(profile.modalities).toEqual({ input: ['text', 'image'], output: ['text'] });
  });

  it('applies overrides field by field, modalities included', () => {
    const profile = resolveModelProfile('my-finetune-v3', {
      contextWindow: 32_000,
      coordinateSpace: 'normalized-1000',
      modalities: { input: ['text'] },
    });
    expect(profile.contextWindow).toBe(32_000);
    expect(profile.coordinateSpace).toBe('normalized-1000');
    expect(profile.modalities).toEqual({ input: ['text'], output: ['text'] });
    expect(profile.model).toBe('my-finetune-v3');
  });
});

describe('the dialect a model speaks, by its name', () => {
  it.each([
    ['computer-use-preview', 'openai-computer'],
    ['computer-use-preview-2025-03-11', 'openai-computer'],
    ['ui-tars-1.5-7b', 'ui-tars'],
    ['ByteDance-Seed/UI-TARS-1.5-7B', 'ui-tars'],
    ['bytedance-research/UI-TARS-7B-DPO', 'ui-tars'],
    ['doubao-1-5-ui-tars-250428', 'ui-tars'],
    ['Qwen/Qwen2.5-VL-7B-Instruct', 'qwen-computer-use'],
    ['qwen2.5vl:7b', 'qwen-computer-use'],
    ['Qwen/Qwen3-VL-8B-Instruct', 'qwen-computer-use'],
    ['qwen3-vl:8b', 'qwen-computer-use'],
    ['gpt-4.1', 'function-tools'],
    // OpenAI trains gpt-5.4 and later for its GA computer tool (issue 34): chosen by name, with the Responses API
    // when model.api is unset (modelApi); function-tools stays one setting away (model.dialect).
    ['gpt-5.4', 'openai-computer'],
    ['gpt-5.4-nano', 'function-tools'],
    // Anthropic's own computer tool; behind an OpenAI-compatible gateway the configured profile says function-tools
    // (configuredDialect, test/unit/llm-create-model-adapter.test.ts).
    ['claude-sonnet-4-5', 'anthropic-computer'],
    ['anthropic/claude-opus-4-5', 'anthropic-computer'],
    ['gemini-2.5-pro', 'function-tools'],
    ['qwen2.5:7b', 'function-tools'],
    ['my-finetune-v3', 'function-tools'],
  ])('%s speaks %s', (model, dialect) => {
    expect(resolveModelProfile(model).dialect).toBe(dialect);
  });

  it('is overridden like any other field', () => {
    expect(resolveModelProfile('ui-tars-1.5-7b', { dialect: 'function-tools' }).dialect).toBe('function-tools');
  });
});

describe("the version of Anthropic's computer tool a Claude model takes", () => {
  // Anthropic's computer use tool documentation (platform.claude.com/docs/en/agents-and-tools/tool-use/computer-use-tool,
  // read 2026-11-28): "Compatibility" and "Earlier tool versions"; Opus 5.5's migration guide for the 5.5 models.
  it.each([
    ['claude-opus-4-7', 'computer_20251124'],
    ['claude-opus-4-8', 'computer_toolset_20260801'],
    ['claude-opus-5', 'computer_toolset_20260801'],
    ['claude-opus-5-5', 'computer_toolset_20260801'],
    ['claude-sonnet-5', 'computer_toolset_20260801'],
    ['claude-sonnet-5-5', 'computer_toolset_20260801'],
    ['claude-haiku-5-5', 'computer_toolset_20260801'],
    ['claude-fable-5-1', 'computer_toolset_20260801'],
    ['claude-mythos-5', 'computer_toolset_20260801'],
    // Bedrock serves the beta tools only: the newest in place of the toolset, the older ones as elsewhere.
    ['anthropic.claude-opus-5-5-v1:0', 'computer_20251124'],
    ['us.anthropic.claude-sonnet-5-v1:0', 'computer_20251124'],
    ['anthropic.claude-sonnet-4-5-20250929-v1:0', 'computer_20250124'],
    ['claude-3-5-sonnet-20241022', 'computer_20241022'],
    ['claude-3-7-sonnet-20250219', 'computer_20250124'],
    ['claude-sonnet-4-20250514', 'computer_20250124'],
    ['claude-opus-4-20250514', 'computer_20250124'],
    ['claude-opus-4-1-20250805', 'computer_20250124'],
    ['claude-opus-4-1', 'computer_20250124'],
    ['claude-sonnet-4-5', 'computer_20250124'],
    ['claude-haiku-4-5-20251001', 'computer_20250124'],
    ['anthropic/claude-sonnet-4-5', 'computer_20250124'],
    ['claude-opus-4-5-20251101', 'computer_20251124'],
    ['claude-opus-4-5', 'computer_20251124'],
    ['claude-sonnet-4-6', 'computer_20251124'],
    ['claude-opus-4-6', 'computer_20251124'],
  ])('%s: %s', (model, toolType) => {
    expect(resolveModelProfile(model).anthropicComputerTool).toBe(toolType);
  });

  it('is absent for models that are not Claude, and overridden like any other field', () => {
    expect(resolveModelProfile('gpt-4.1').anthropicComputerTool).toBeUndefined();
    expect(resolveModelProfile('claude-opus-4-5', { anthropicComputerTool: 'computer_20250124' }).anthropicComputerTool).toBe('computer_20250124');
  });
});

describe('coordinates and image sizing, each pinned by a published example', () => {
  it('UI-TARS 1.0 and Doubao-1.5-UI-TARS name points 0–1000, on an image sent at the fitted size', () => {
    // bytedance/UI-TARS codes/ui_tars/action_parser.py: for models other than "qwen25vl" the box numbers
    // are divided by factor=1000 ("qwen2vl output relative coordinates"); its tests parse the Doubao form
    // click(point='<point>200 300</point>') with factor=1000. UI-TARS-desktop's UITarsModel.factors() is
    // [1000, 1000] for UI-TARS 1.0 and the Doubao-1.5 models.
    for (const model of ['ui-tars-72b-dpo', 'UI-TARS-7B-SFT', 'doubao-1.5-ui-tars', 'doubao-1-5-ui-tars-250428']) {
      expect(resolveModelProfile(model), model).toMatchObject({ family: 'ui-tars', coordinateSpace: 'normalized-1000', imageSizing: { kind: 'fit-edge' } });
    }
  });

  it("UI-TARS-1.5 names pixels of its smart-resized image, so it is sent at that size (factor 28, 78,400–12,845,056 pixels)", () => {
    // bytedance/UI-TARS README_coordinates.md: click(start_box='(197,525)') is a point in the image as
    // smart_resize(height, width) with IMAGE_FACTOR 28, MIN_PIXELS 100*28*28, MAX_PIXELS 16384*28*28 sized it.
    expect(resolveModelProfile('ui-tars-1.5-7b')).toMatchObject({
      family: 'ui-tars-1.5',
      coordinateSpace: 'pixels',
      imageSizing: { kind: 'smart-resize', factor: 28, minPixels: 78_400, maxPixels: 12_845_056 },
    });
  });

  it("Qwen2.5-VL names pixels of its resized image, whose size the prompt states: sent at that size", () => {
    // QwenLM/Qwen2.5-VL cookbooks/computer_use.ipynb: smart_resize(factor=patch_size*merge_size,
    // min_pixels, max_pixels of the processor: 3136 and 12845056) gives the display size in the
    // computer_use description, and the returned coordinate is drawn on the image at that size.
    expect(resolveModelProfile('Qwen/Qwen2.5-VL-72B-Instruct')).toMatchObject({
      family: 'qwen-vl',
      coordinateSpace: 'pixels',
      imageSizing: { kind: 'smart-resize', factor: 28, minPixels: 3136, maxPixels: 12_845_056 },
    });
  });

  it('Qwen3-VL names points 0–1000 whatever the image size', () => {
    // QwenLM/Qwen3-VL cookbooks/computer_use.ipynb declares the computer_use tool with
    // cfg={"display_width_px": 1000, "display_height_px": 1000} and scales the answer by width/1000.
    expect(resolveModelProfile('Qwen/Qwen3-VL-30B-A3B-Instruct')).toMatchObject({
      family: 'qwen3-vl',
      coordinateSpace: 'normalized-1000',
      imageSizing: { kind: 'fit-edge' },
    });
  });

  it('every other model is sent images at the fitted size', () => {
    for (const model of ['gpt-4.1', 'computer-use-preview', 'claude-opus-4-1', 'my-finetune-v3']) {
      expect(resolveModelProfile(model).imageSizing, model).toEqual({ kind: 'fit-edge' });
    }
  });
});

describe('price tables', () => {
  it('carry the provider price and cache kind of the models the bench prices, and none for models of unknown price', () => {
    expect(resolveModelProfile('gpt-4.1').pricing).toMatchObject({ inputPerMillion: 2, cachedInputPerMillion: 0.5, cache: 'automatic' });
    expect(cachedInputShare(resolveModelProfile('gpt-4o').pricing!)).toBe(0.5);
    expect(cachedInputShare(resolveModelProfile('gpt-4.1').pricing!)).toBe(0.25);
    expect(cachedInputShare(resolveModelProfile('gpt-5').pricing!)).toBeCloseTo(0.1);
    expect(resolveModelProfile('llama-3.2-vision').pricing).toBeUndefined();
    expect(resolveModelProfile('claude-sonnet-4-5').pricing).toMatchObject({ cache: 'breakpoints', cacheWriteMultiplier: 1.25 });
    expect(resolveModelProfile('qwen2.5-vl-7b-instruct').pricing).toBeUndefined();
  });
});
