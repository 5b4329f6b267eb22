import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/shared/config.js';
import { ConfigError } from '../../src/main/config/errors.js';
import { homeAt, type SightlineHome } from '../../src/main/config/home.js';
import { loadConfig } from '../../src/main/config/load.js';
import { ANTHROPIC_BASE_URL, modelBaseUrl } from '../../src/main/llm/create-model-adapter.js';

let home: SightlineHome;

beforeEach(() => {
  home = homeAt(mkdtempSync(join(tmpdir(), 'sightline-config-')));
});

afterEach(() => {
  rmSync(home.root, { recursive: true, force: true });
});

function writeConfig(value: unknown): void {
  writeFileSync(home.configFile, JSON.stringify(value, null, 2));
}

function loadError(options: { env?: Record<string, string>; flags?: Record<string, unknown> } = {}): ConfigError {
  try {
    loadConfig({ home, env: options.env ?? {}, flags: options.flags ?? {} });
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected loadConfig to throw a ConfigError');
}

describe('model.dialect', () => {
  it('is unset by default (the model profile chooses), and set from config.json, SIGHTLINE_MODEL_DIALECT or --dialect', () => {
    expect(loadConfig({ home, env: {} }).config.model.dialect).toBeUndefined();
    writeConfig({ model: { dialect: 'ui-tars' } });
    const fromFile = loadConfig({ home, env: {} });
    expect(fromFile.config.model.dialect).toBe('ui-tars');
    expect(fromFile.sources['model.dialect']).toEqual({ kind: 'file', file: home.configFile });
    const fromEnvironment = loadConfig({ home, env: { SIGHTLINE_MODEL_DIALECT: 'Qwen-Computer-Use' } });
    expect(fromEnvironment.config.model.dialect).toBe('qwen-computer-use');
    expect(fromEnvironment.sources['model.dialect']).toEqual({ kind: 'env', variable: 'SIGHTLINE_MODEL_DIALECT' });
    const fromFlag = loadConfig({
      home,
      env: { SIGHTLINE_MODEL_DIALECT: 'qwen-computer-use' },
      flags: { 'model.dialect': 'function-tools' },
      flagNames: { 'model.dialect': '--dialect' },
    });
    expect(fromFlag.config.model.dialect).toBe('function-tools');
    expect(fromFlag.sources['model.dialect']).toEqual({ kind: 'flag', flag: '--dialect' });
  });

  it('names the dialects there are when it is none of them', () => {
    writeConfig({ model: { dialect: 'claude-computer' } });
    expect(loadError().message).toContain(
      'model.dialect: expected one of function-tools, openai-computer, ui-tars, qwen-computer-use, anthropic-computer, gemini-computer-use, got "claude-computer" (from config.json)',
    );
  });
});

describe('model.anthropicComputerTool', () => {
  it('is unset by default (the model profile names the version), set from config.json or SIGHTLINE_MODEL_ANTHROPIC_COMPUTER_TOOL', () => {
    expect(loadConfig({ home, env: {} }).config.model.anthropicComputerTool).toBeUndefined();
    writeConfig({ model: { anthropicComputerTool: 'computer_20241022' } });
    expect(loadConfig({ home, env: {} }).config.model.anthropicComputerTool).toBe('computer_20241022');
    const fromEnvironment = loadConfig({ home, env: { SIGHTLINE_MODEL_ANTHROPIC_COMPUTER_TOOL: 'computer_20251124' } });
    expect(fromEnvironment.config.model.anthropicComputerTool).toBe('computer_20251124');
    expect(fromEnvironment.sources['model.anthropicComputerTool']).toEqual({ kind: 'env', variable: 'SIGHTLINE_MODEL_ANTHROPIC_COMPUTER_TOOL' });
  });

  it('names the versions there are when it is none of them', () => {
    writeConfig({ model: { anthropicComputerTool: 'computer_20990101' } });
    expect(loadError().message).toContain(
      'model.anthropicComputerTool: expected one of computer_20241022, computer_20250124, computer_20251124, computer_toolset_20260801, got "computer_20990101" (from config.json)',
    );
  });
});

describe('loadConfig sources and precedence', () => {
  it('uses the defaults when there is no config.json, and says so', () => {
    const { config, sources } = loadConfig({ home, env: {} });
    expect(config).toEqual(DEFAULT_CONFIG);
    expect(sources['agent.maxSteps']).toEqual({ kind: 'default' });
    // Optional fields without a value have no source.
    expect(sources['model.apiKey']).toBeUndefined();
  });

  it('lets the environment override the file and flags override both', () => {
    writeConfig({ model: { name: 'from-file' }, agent: { maxSteps: 7, confirm: 'always' }, storage: { retentionDays: 9 } });
    const { config, sources } = loadConfig({
      home,
      env: { SIGHTLINE_MODEL: 'from-env', SIGHTLINE_AGENT_MAX_STEPS: '8' },
      flags: { 'agent.maxSteps': 5 },
      flagNames: { 'agent.maxSteps': '--max-steps' },
    });
    expect(config.model.name).toBe('from-env');
    expect(config.agent.maxSteps).toBe(5);
    expect(config.agent.confirm).toBe('always');
    expect(config.storage.retentionDays).toBe(9);
    expect(sources['model.name']).toEqual({ kind: 'env', variable: 'SIGHTLINE_MODEL' });
    expect(sources['agent.maxSteps']).toEqual({ kind: 'flag', flag: '--max-steps' });
    expect(sources['agent.confirm']).toEqual({ kind: 'file', file: home.configFile });
    expect(sources['agent.operator']).toEqual({ kind: 'default' });
  });

  it('merges sections deeply, keeping file values the other sources do not set', () => {
    writeConfig({ perception: { dedup: { threshold: 4, algorithm: 'dhash' } } });
    const { config } = loadConfig({ home, env: { SIGHTLINE_PERCEPTION_DEDUP_THRESHOLD: '8' } });
    expect(config.perception.dedup).toEqual({ enabled: true, threshold: 8, algorithm: 'dhash' });
    expect(config.perception.maxImageEdge).toBe(1280);
  });

  it('reads the well-known provider variables', () => {
    const { config, sources } = loadConfig({
      home,
      env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: 'http://localhost:11434/v1', TAVILY_API_KEY: 'tvly-test' },
    });
    expect(config.model.apiKey).toBe('sk-test');
    expect(config.model.baseUrl).toBe('http://localhost:11434/v1');
    expect(config.search.tavilyApiKey).toBe('tvly-test');
    expect(sources['model.apiKey']).toEqual({ kind: 'env', variable: 'OPENAI_API_KEY' });
  });

  it("reads Anthropic's key into a field of its own, never into the OpenAI key's", () => {
    const { config, sources } = loadConfig({ home, env: { ANTHROPIC_API_KEY: 'sk-ant-test', SIGHTLINE_MODEL_PROVIDER: 'anthropic' } });
    expect(config.model.anthropicApiKey).toBe('sk-ant-test');
    expect(config.model.apiKey).toBeUndefined();
    expect(config.model.provider).toBe('anthropic');
    expect(sources['model.anthropicApiKey']).toEqual({ kind: 'env', variable: 'ANTHROPIC_API_KEY' });
  });

  it('prefers the SIGHTLINE_ form of a field over its well-known alias', () => {
    const { config, sources } = loadConfig({ home, env: { SIGHTLINE_MODEL: 'alias', SIGHTLINE_MODEL_NAME: 'specific' } });
    expect(config.model.name).toBe('specific');
    expect(sources['model.name']).toEqual({ kind: 'env', variable: 'SIGHTLINE_MODEL_NAME' });
  });

  it('treats empty environment variables as unset', () => {
    writeConfig({ model: { baseUrl: 'https://example.com/v1' } });
    const { config } = loadConfig({ home, env: { OPENAI_BASE_URL: '', SIGHTLINE_AGENT_MAX_STEPS: '' } });
    expect(config.model.baseUrl).toBe('https://example.com/v1');
    expect(config.agent.maxSteps).toBe(50);
  });

  it('ignores flags whose value is undefined (options not given)', () => {
    const { config } = loadConfig({ home, env: {}, flags: { 'model.name': undefined } });
    expect(config.model.name).toBe(DEFAULT_CONFIG.model.name);
  });
});

describe('model.baseUrl and the providers\' own variables', () => {
  const claude = { SIGHTLINE_MODEL: 'claude-sonnet-4-5' };

  it('ignores OPENAI_BASE_URL for a Claude model through Anthropic, which then uses its own default', () => {
    const { config, sources } = loadConfig({ home, env: { ...claude, OPENAI_BASE_URL: 'http://localhost:11434/v1' } });
    expect(config.model.baseUrl).toBeUndefined();
    expect(sources['model.baseUrl']).toBeUndefined();
    expect(modelBaseUrl(config.model)).toBe(ANTHROPIC_BASE_URL);
  });

  it('reads ANTHROPIC_BASE_URL for the anthropic provider only, and OPENAI_BASE_URL for the openai provider only', () => {
    const env = { OPENAI_BASE_URL: 'http://localhost:11434/v1', ANTHROPIC_BASE_URL: 'https://anthropic-gateway.example.com' };
    const forClaude = loadConfig({ home, env: { ...env, ...claude } });
    expect(forClaude.config.model.baseUrl).toBe('https://anthropic-gateway.example.com');
    expect(forClaude.sources['model.baseUrl']).toEqual({ kind: 'env', variable: 'ANTHROPIC_BASE_URL' });
    const forGpt = loadConfig({ home, env });
    expect(forGpt.config.model.baseUrl).toBe('http://localhost:11434/v1');
    expect(forGpt.sources['model.baseUrl']).toEqual({ kind: 'env', variable: 'OPENAI_BASE_URL' });
    // model.provider decides, not the name: a Claude model behind an OpenAI-compatible gateway takes OpenAI's variable.
    const throughGateway = loadConfig({ home, env: { ...env, ...claude, SIGHTLINE_MODEL_PROVIDER: 'openai' } });
    expect(throughGateway.config.model.baseUrl).toBe('http://localhost:11434/v1');
    const namedAnthropic = loadConfig({ home, env: { ...env, SIGHTLINE_MODEL_PROVIDER: 'anthropic' } });
    expect(namedAnthropic.config.model.baseUrl).toBe('https://anthropic-gateway.example.com');
  });

  it('follows the provider the flags choose', () => {
    const env = { OPENAI_BASE_URL: 'http://localhost:11434/v1', ANTHROPIC_BASE_URL: 'https://anthropic-gateway.example.com' };
    const { config } = loadConfig({ home, env, flags: { 'model.name': 'claude-opus-4-5' } });
    expect(config.model.baseUrl).toBe('https://anthropic-gateway.example.com');
  });

  it("uses model.baseUrl from config.json whatever the provider, the in-effect provider's variable still overriding it", () => {
    writeConfig({ model: { baseUrl: 'https://gateway.example.com' } });
    for (const name of ['gpt-4.1', 'claude-sonnet-4-5']) {
      const { config, sources } = loadConfig({ home, env: { SIGHTLINE_MODEL: name } });
      expect(config.model.baseUrl).toBe('https://gateway.example.com');
      expect(sources['model.baseUrl']).toEqual({ kind: 'file', file: home.configFile });
    }
    const claudeWithOpenAiVariable = loadConfig({ home, env: { ...claude, OPENAI_BASE_URL: 'http://localhost:11434/v1' } });
    expect(claudeWithOpenAiVariable.config.model.baseUrl).toBe('https://gateway.example.com');
    expect(modelBaseUrl(claudeWithOpenAiVariable.config.model)).toBe('https://gateway.example.com');
    const claudeWithItsVariable = loadConfig({ home, env: { ...claude, ANTHROPIC_BASE_URL: 'https://anthropic-gateway.example.com' } });
    expect(claudeWithItsVariable.config.model.baseUrl).toBe('https://anthropic-gateway.example.com');
  });

  it('lets SIGHTLINE_MODEL_BASE_URL and --base-url set it for either provider, over the providers\' variables', () => {
    const env = { ...claude, ANTHROPIC_BASE_URL: 'https://anthropic-gateway.example.com', SIGHTLINE_MODEL_BASE_URL: 'https://sightline.example.com' };
    expect(loadConfig({ home, env }).config.model.baseUrl).toBe('https://sightline.example.com');
    const flagged = loadConfig({ home, env, flags: { 'model.baseUrl': 'https://flag.example.com' }, flagNames: { 'model.baseUrl': '--base-url' } });
    expect(flagged.config.model.baseUrl).toBe('https://flag.example.com');
    expect(flagged.sources['model.baseUrl']).toEqual({ kind: 'flag', flag: '--base-url' });
  });

  it("does not validate another provider's variable, which it never uses", () => {
    expect(loadConfig({ home, env: { ...claude, OPENAI_BASE_URL: 'localhost' } }).config.model.baseUrl).toBeUndefined();
    expect(loadError({ env: { ...claude, ANTHROPIC_BASE_URL: 'localhost' } }).message).toContain('(from env ANTHROPIC_BASE_URL)');
  });
});

describe('loadConfig coercion of text values, driven by the schema', () => {
  it('turns numbers, booleans and enums from the environment into their kinds', () => {
    const { config } = loadConfig({
      home,
      env: {
        SIGHTLINE_PERCEPTION_DEDUP_THRESHOLD: '8',
        SIGHTLINE_SEARCH_CONFIDENCE_THRESHOLD: '0.5',
        SIGHTLINE_PERCEPTION_DEDUP_ENABLED: 'false',
        SIGHTLINE_AGENT_OPERATOR: 'Browser',
        SIGHTLINE_MODEL_API: 'responses',
      },
    });
    expect(config.perception.dedup.threshold).toBe(8);
    expect(config.search.confidenceThreshold).toBe(0.5);
    expect(config.perception.dedup.enabled).toBe(false);
    expect(config.agent.operator).toBe('browser');
    expect(config.model.api).toBe('responses');
  });

  it('keeps a numeric-looking string a string when the field is a string', () => {
    const { config } = loadConfig({ home, env: { SIGHTLINE_MODEL_NAME: '4' } });
    expect(config.model.name).toBe('4');
  });

  it('coerces string flags the same way and passes typed flags through', () => {
    const { config } = loadConfig({ home, env: {}, flags: { 'agent.maxSteps': '12', 'perception.dedup.enabled': false } });
    expect(config.agent.maxSteps).toBe(12);
    expect(config.perception.dedup.enabled).toBe(false);
  });

  it('does not coerce values in config.json: JSON already has types', () => {
    writeConfig({ agent: { maxSteps: '12' } });
    expect(loadError().message).toContain('agent.maxSteps: expected a number, got "12" (from config.json)');
  });
});
