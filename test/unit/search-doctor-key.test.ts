/** doctor's Tavily key check: says web_search is off without a key, and how to turn it on. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/shared/config.js';
import { homeAt } from '../../src/main/config/home.js';
import { checkTavilyKey } from '../../src/main/cli/doctor/api-keys.js';
import type { DoctorEnvironment } from '../../src/main/cli/doctor/check.js';

function environment(overrides: Partial<DoctorEnvironment> = {}): DoctorEnvironment {
  return { home: homeAt('/tmp/sightline-doctor-unit'), config: DEFAULT_CONFIG, sources: {}, env: {}, platform: 'linux', ...overrides };
}

describe('checkTavilyKey', () => {
  it('warns that web_search is disabled and says where a key goes', () => {
    const result = checkTavilyKey(environment());
    expect(result).toMatchObject({ status: 'warning', detail: 'web_search disabled; set TAVILY_API_KEY' });
    expect(result.fix).toContain('TAVILY_API_KEY');
    expect(result.fix).toContain('search.tavilyApiKey in config.json');
    expect(result.fix).toContain('https://app.tavily.com');
  });

  it('is ok with a key, without showing it', () => {
    const result = checkTavilyKey(
      environment({
        config: { ...DEFAULT_CONFIG, search: { ...DEFAULT_CONFIG.search, tavilyApiKey: 'tvly-unit-secret-123' } },
        sources: { 'search.tavilyApiKey': { kind: 'env', variable: 'TAVILY_API_KEY' } },
      }),
    );
    expect(result.status).toBe('ok');
    expect(JSON.stringify(result)).not.toContain('tvly-unit-secret-123');
  });
});
