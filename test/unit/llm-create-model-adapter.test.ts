import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/shared/config.js';
import { ChatCompletionsAdapter } from '../../src/main/llm/chat-completions-adapter.js';
import { configuredModelProfile, createModelAdapter, isLocalEndpoint } from '../../src/main/llm/create-model-adapter.js';
import { ModelConfigurationError } from '../../src/main/llm/model-errors.js';
import { ResponsesAdapter } from '../../src/main/llm/responses-adapter.js';
import { AnthropicMessagesAdapter } from '../../src/main/llm/anthropic-messages-adapter.js';

describe('createModelAdapter', () => {
  it('refuses a remote endpoint without a key, naming OPENAI_API_KEY and the config field', () => {
    expect(() => createModelAdapter(DEFAULT_CONFIG.model)).toThrow(ModelConfigurationError);
    expect(() => createModelAdapter(DEFAULT_CONFIG.model)).toThrow(/OPENAI_API_KEY.*model\.apiKey/s);
    expect(() => createModelAdapter({ ...DEFAULT_CONFIG.model, baseUrl: 'https://openrouter.ai/api/v1' })).toThrow(
      /openrouter\.ai/,
    );
  });

  it('needs no key for a local endpoint such as Ollama or LM Studio', () => {
    const adapter = createModelAdapter({ ...DEFAULT_CONFIG.model, name: 'qwen2.5vl:7b', baseUrl: 'http://localhost:11434/v1' });
    expect(adapter).toBeInstanceOf(ChatCompletionsAdapter);
    expect(adapter.profile.family).toBe('qwen-vl');
  });

  it("builds Anthropic's adapter for a Claude model by its name, with the claude profile, and the OpenAI ones when told", () => {
    const claude = { ...DEFAULT_CONFIG.model, name: 'claude-sonnet-4-5', anthropicApiKey: 'sk-ant-test-000000' };
    const adapter = createModelAdapter(claude);
    expect(adapter).toBeInstanceOf(AnthropicMessagesAdapter);
    expect(adapter.profile.family).toBe('claude');
    const viaGateway = createModelAdapter({ ...claude, provider: 'openai', apiKey: 'sk-test-key-000000' });
    expect(viaGateway).toBeInstanceOf(ChatCompletionsAdapter);
    expect(() => createModelAdapter({ ...claude, anthropicApiKey: undefined, apiKey: 'sk-test-key-000000' })).toThrow(/ANTHROPIC_API_KEY/);
  });

  it('builds the adapter for the configured API, with profile overrides applied', () => {
    const adapter = createModelAdapter(
      { ...DEFAULT_CONFIG.model, apiKey: 'sk-test-key-000000', api: 'responses' },
      { contextWindow: 50_000 },
    );
    expect(adapter).toBeInstanceOf(ResponsesAdapter);
    expect(adapter.profile.contextWindow).toBe(50_000);
    expect(adapter.profile.model).toBe(DEFAULT_CONFIG.model.name);
  });

  it("puts model.dialect in place of the profile's dialect, so the profile carries the one in effect", () => {
    const local = { ...DEFAULT_CONFIG.model, baseUrl: 'http://localhost:8000/v1' };
    expect(createModelAdapter({ ...local, name: 'ui-tars-1.5-7b' }).profile.dialect).toBe('ui-tars');
    const overridden = createModelAdapter({ ...local, name: 'ui-tars-1.5-7b', dialect: 'function-tools' }).profile;
    expect(overridden).toMatchObject({ dialect: 'function-tools', family: 'ui-tars-1.5', coordinateSpace: 'pixels' });
    expect(configuredModelProfile({ ...local, name: 'gpt-4.1', dialect: 'openai-computer' }).dialect).toBe('openai-computer');
    expect(configuredModelProfile({ ...local, name: 'gpt-4.1' }, { dialect: 'ui-tars' }).dialect).toBe('ui-tars');
  });

  it('knows loopback, private-network and .local hosts as local', () => {
    for (const url of ['http://localhost:1234/v1', 'http://127.0.0.1:8000/v1', 'http://[::1]:8000/v1', 'http://192.168.1.20:11434/v1', 'http://10.0.0.5/v1', 'http://gpu-box.local:8000/v1']) {
      expect(isLocalEndpoint(url), url).toBe(true);
    }
    for (const url of ['https://api.openai.com/v1', 'https://openrouter.ai/api/v1', 'http://172.32.0.1/v1', 'http://8.8.8.8/v1']) {
      expect(isLocalEndpoint(url), url).toBe(false);
    }
  });
});
