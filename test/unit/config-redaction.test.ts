import { describe, expect, it } from 'vitest';
import { ConfigSchema, DEFAULT_CONFIG, redactConfig } from '../../src/shared/config.js';

describe('redactConfig', () => {
  it('replaces set secrets and leaves everything else as it was', () => {
    const config = ConfigSchema.parse({ model: { apiKey: 'sk-live-123' }, search: { tavilyApiKey: 'tvly-456' } });
    const redacted = redactConfig(config);
    expect(redacted.model.apiKey).toBe('(set)');
    expect(redacted.search.tavilyApiKey).toBe('(set)');
    expect(JSON.stringify(redacted)).not.toMatch(/sk-live-123|tvly-456/);
    expect({ ...redacted, model: { ...redacted.model, apiKey: undefined }, search: { ...redacted.search, tavilyApiKey: undefined } }).toEqual({
      ...config,
      model: { ...config.model, apiKey: undefined },
      search: { ...config.search, tavilyApiKey: undefined },
    });
    // The original is not modified.
    expect(config.model.apiKey).toBe('sk-live-123');
  });

  it("redacts Anthropic's key like the others", () => {
    const redacted = redactConfig(ConfigSchema.parse({ model: { provider: 'anthropic', anthropicApiKey: 'sk-ant-789' } }));
    expect(redacted.model.anthropicApiKey).toBe('(set)');
    expect(redacted.model.provider).toBe('anthropic');
    expect(JSON.stringify(redacted)).not.toContain('sk-ant-789');
  });

  it('leaves unset secrets unset', () => {
    expect(redactConfig(DEFAULT_CONFIG).model.apiKey).toBeUndefined();
  });
});
