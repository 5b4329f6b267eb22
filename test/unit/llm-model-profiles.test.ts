import { describe, expect, it } from 'vitest';
import { resolveModelProfile } from '../../src/main/llm/model-profiles.js';

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
