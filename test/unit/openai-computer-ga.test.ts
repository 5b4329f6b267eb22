/**
 * OpenAI's GA computer tool as the default for the models OpenAI trained for it (gpt-5.4 and later), the
 * retired computer-use-preview refused before any request, and the shapes Sightline reads and writes held to
 * the installed `openai` SDK's types: the type-level lines below fail `npm run typecheck` when the SDK drifts.
 */
import type { ComputerAction as SdkComputerAction } from 'openai/resources/responses/responses';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { OpenAiComputerActionSchema } from '../../src/main/agent/tools/openai-computer-actions.js';
import { configuredModelProfile, createModelAdapter, modelApi } from '../../src/main/llm/create-model-adapter.js';
import { ModelConfigurationError } from '../../src/main/llm/model-errors.js';
import { resolveModelProfile } from '../../src/main/llm/model-profiles.js';

/** Every action the SDK types (the GA tool's batched `actions`, the preview's `action`) is one the schema reads. */
const sdkActionsFit = (action: SdkComputerAction): z.input<typeof OpenAiComputerActionSchema> => action;

const base = { maxRetries: 0, timeoutMs: 1_000, apiKey: 'sk-test-000000' };

describe("OpenAI's GA computer tool", () => {
  it('reads every action the SDK types', () => {
    const samples: SdkComputerAction[] = [
      { type: 'click', button: 'left', x: 1, y: 2 },
      { type: 'double_click', x: 1, y: 2 } as SdkComputerAction,
      { type: 'keypress', keys: ['CTRL', 'A'] },
      { type: 'type', text: 'hi' },
      { type: 'wait' },
      { type: 'screenshot' },
    ];
    for (const sample of samples) expect(OpenAiComputerActionSchema.safeParse(sdkActionsFit(sample)).success).toBe(true);
  });

  it.each(['gpt-5.4', 'gpt-5.4-mini', 'gpt-5.5', 'openai/gpt-5.4-2026-03-05', 'gpt-6'])('is the profile dialect of %s, over the Responses API', (name) => {
    expect(resolveModelProfile(name).dialect).toBe('openai-computer');
    expect(modelApi({ name })).toBe('responses');
    expect(configuredModelProfile({ name, ...base }).dialect).toBe('openai-computer');
  });

  it.each(['gpt-5', 'gpt-5.1', 'gpt-5.2-mini', 'gpt-5.4-nano', 'gpt-5.4-chat-latest', 'gpt-5.3-codex', 'gpt-4.1'])('is not the profile dialect of %s', (name) => {
    expect(resolveModelProfile(name).dialect).toBe('function-tools');
    expect(modelApi({ name })).toBe('chat-completions');
  });

  it('stays one setting away: model.dialect function-tools keeps Chat Completions, model.api is kept as set', () => {
    expect(configuredModelProfile({ name: 'gpt-5.4', dialect: 'function-tools', ...base }).dialect).toBe('function-tools');
    expect(modelApi({ name: 'gpt-5.4', dialect: 'function-tools' })).toBe('chat-completions');
    expect(modelApi({ name: 'gpt-5.4', api: 'chat-completions' })).toBe('chat-completions');
    // A dialect a person chose brings its API along too, unless they set another (which the compatibility check refuses).
    expect(modelApi({ name: 'gpt-4.1', dialect: 'openai-computer' })).toBe('responses');
    expect(modelApi({ name: 'gpt-4.1', dialect: 'openai-computer', api: 'chat-completions' })).toBe('chat-completions');
  });
});

describe('computer-use-preview', () => {
  it('is refused on OpenAI’s own API, naming the shutdown date and the substitute', () => {
    for (const baseUrl of [undefined, 'https://api.openai.com/v1']) {
      const build = () => createModelAdapter({ name: 'computer-use-preview', ...(baseUrl === undefined ? {} : { baseUrl }), ...base });
      expect(build).toThrow(ModelConfigurationError);
      expect(build).toThrow(/shut down by OpenAI on 2026-07-23.*Use gpt-5\.4-mini instead/);
    }
    expect(() => createModelAdapter({ name: 'computer-use-preview-2025-03-11', ...base })).toThrow(/2026-07-23/);
  });

  it('is let through to a deployment elsewhere (an Azure resource may still serve it)', () => {
    const adapter = createModelAdapter({ name: 'computer-use-preview', baseUrl: 'https://example-resource.openai.azure.com/openai/v1', api: 'responses', ...base });
    expect(adapter.profile.dialect).toBe('openai-computer');
  });
});
