/**
 * Where a Claude model's requests go when the shell exports another provider's base URL: OPENAI_BASE_URL
 * belongs to the openai provider and ANTHROPIC_BASE_URL to the anthropic one, while model.baseUrl in
 * config.json is every provider's. Loaded configuration, real clients, fake servers on both sides.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { userText } from '../../src/shared/messages.js';
import { homeAt, type SightlineHome } from '../../src/main/config/home.js';
import { loadConfig } from '../../src/main/config/load.js';
import { createModelAdapter } from '../../src/main/llm/create-model-adapter.js';
import { startFakeAnthropicServer, type FakeAnthropicServer } from '../helpers/fake-anthropic-server.js';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../helpers/fake-openai-server.js';

let home: SightlineHome;
let anthropic: FakeAnthropicServer;
let openai: FakeOpenAiServer;

beforeEach(async () => {
  home = homeAt(mkdtempSync(join(tmpdir(), 'sightline-base-url-')));
  anthropic = await startFakeAnthropicServer();
  openai = await startFakeOpenAiServer();
});

afterEach(async () => {
  await Promise.all([anthropic.close(), openai.close()]);
  rmSync(home.root, { recursive: true, force: true });
});

const KEYS = { OPENAI_API_KEY: 'sk-openai-test-123', ANTHROPIC_API_KEY: 'sk-ant-test-456' };

async function askOnce(env: Record<string, string>): Promise<void> {
  const { config } = loadConfig({ home, env: { ...KEYS, ...env } });
  await createModelAdapter({ ...config.model, maxRetries: 0, timeoutMs: 5_000 }).complete({ messages: [userText('Say hello')] });
}

describe('the base URL a run uses', () => {
  it('sends a Claude model to ANTHROPIC_BASE_URL, never to the OPENAI_BASE_URL the shell exports', async () => {
    anthropic.script([{ type: 'answer', text: 'Hello' }]);
    await askOnce({ SIGHTLINE_MODEL: 'claude-opus-4-5', OPENAI_BASE_URL: openai.baseUrl, ANTHROPIC_BASE_URL: anthropic.baseUrl });
    expect(anthropic.requests).toHaveLength(1);
    expect(anthropic.requests[0]!.headers['x-api-key']).toBe(KEYS.ANTHROPIC_API_KEY);
    expect(openai.requests).toHaveLength(0);
  });

  it('sends an OpenAI model to OPENAI_BASE_URL, never to ANTHROPIC_BASE_URL', async () => {
    openai.script([{ type: 'answer', text: 'Hello' }]);
    await askOnce({ SIGHTLINE_MODEL: 'gpt-4.1', OPENAI_BASE_URL: openai.baseUrl, ANTHROPIC_BASE_URL: anthropic.baseUrl });
    expect(openai.requests).toHaveLength(1);
    expect(anthropic.requests).toHaveLength(0);
  });

  it("uses config.json's model.baseUrl for a Claude model, OPENAI_BASE_URL notwithstanding", async () => {
    writeFileSync(home.configFile, JSON.stringify({ model: { name: 'claude-opus-4-5', baseUrl: anthropic.baseUrl } }));
    anthropic.script([{ type: 'answer', text: 'Hello' }]);
    await askOnce({ OPENAI_BASE_URL: openai.baseUrl });
    expect(anthropic.requests).toHaveLength(1);
    expect(openai.requests).toHaveLength(0);
  });
});
