import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/shared/config.js';
import { ChatCompletionsAdapter } from '../../src/main/llm/chat-completions-adapter.js';
import { configuredDialect, configuredModelProfile, createModelAdapter, isLocalEndpoint } from '../../src/main/llm/create-model-adapter.js';
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

  it("gives a Claude model Anthropic's computer tool on Anthropic's API, and function tools behind an OpenAI-compatible gateway", () => {
    const claude = { ...DEFAULT_CONFIG.model, name: 'claude-sonnet-4-5', anthropicApiKey: 'sk-ant-test-000000', apiKey: 'sk-test-key-000000' };
    // By its name, or with the provider said.
    expect(createModelAdapter(claude).profile).toMatchObject({ family: 'claude', dialect: 'anthropic-computer', anthropicComputerTool: 'computer_20250124' });
    expect(configuredDialect({ ...claude, provider: 'anthropic' })).toEqual({ dialect: 'anthropic-computer', by: 'profile' });
    // Behind a gateway: the computer tool needs Anthropic's API, function tools work everywhere.
    const viaGateway = createModelAdapter({ ...claude, provider: 'openai' });
    expect(viaGateway).toBeInstanceOf(ChatCompletionsAdapter);
    expect(viaGateway.profile).toMatchObject({ family: 'claude', dialect: 'function-tools' });
    expect(configuredDialect({ ...claude, provider: 'openai' })).toEqual({ dialect: 'function-tools', by: 'provider', profileDialect: 'anthropic-computer', provider: 'openai' });
    // OpenRouter's name: the prefix keeps it on the OpenAI-compatible provider.
    expect(configuredModelProfile({ ...claude, name: 'anthropic/claude-sonnet-4-5' }).dialect).toBe('function-tools');
    // A choice is kept as made, even one that cannot work there: the compatibility check refuses it, saying why.
    expect(configuredModelProfile({ ...claude, provider: 'openai', dialect: 'anthropic-computer' }).dialect).toBe('anthropic-computer');
    expect(configuredModelProfile({ ...claude, provider: 'openai' }, { dialect: 'anthropic-computer' }).dialect).toBe('anthropic-computer');
    expect(configuredDialect({ ...claude, dialect: 'function-tools' })).toEqual({ dialect: 'function-tools', by: 'chosen' });
    // A dialect any provider carries is the profile's on both.
    expect(configuredDialect({ ...claude, name: 'gpt-4.1', provider: 'anthropic' })).toEqual({ dialect: 'function-tools', by: 'profile' });
  });

  it("puts model.anthropicComputerTool in place of the profile's computer tool version", () => {
    const claude = { ...DEFAULT_CONFIG.model, name: 'claude-sonnet-4-5', anthropicApiKey: 'sk-ant-test-000000' };
    expect(createModelAdapter(claude).profile.anthropicComputerTool).toBe('computer_20250124');
    expect(createModelAdapter({ ...claude, anthropicComputerTool: 'computer_20251124' }).profile.anthropicComputerTool).toBe('computer_20251124');
    // A model newer than the table, or one named otherwise behind a gateway, gets the version it is told.
    const unknown = { ...claude, name: 'frontier-agent-1', provider: 'anthropic' as const, anthropicComputerTool: 'computer_20241022' as const };
    expect(configuredModelProfile(unknown).anthropicComputerTool).toBe('computer_20241022');
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
