/**
 * An endpoint's answer that means the setup is wrong, found at call time (issue 38, part 2): a key refused (401,
 * 403), a model the endpoint does not know (404), a base URL where nothing listens. `sightline run` exits 2, as
 * for a bad flag, with the message as before (what to check), and the turn ends with the reason `setup`, its
 * summary saying so, never as a task that failed. Each dialect family's own client and error shape: OpenAI's
 * (fake-openai-server.ts) and Anthropic's (fake-anthropic-server.ts).
 */
import { createServer } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandboxServer, type SandboxServer } from '../../demo/sandbox-server.js';
import { runCli } from '../../src/main/cli/program.js';
import { AgentEventSchema } from '../../src/shared/events.js';
import { captureIo } from '../helpers/cli-io.js';
import { startFakeAnthropicServer, type FakeAnthropicServer } from '../helpers/fake-anthropic-server.js';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../helpers/fake-openai-server.js';
import { createTemporaryHome, type TemporaryHome } from '../helpers/seed.js';

let sandbox: SandboxServer;
let home: TemporaryHome;
let openai: FakeOpenAiServer;
let anthropic: FakeAnthropicServer;

beforeAll(async () => {
  sandbox = await startSandboxServer();
});
afterAll(async () => {
  await sandbox.close();
});
beforeEach(async () => {
  [openai, anthropic] = await Promise.all([startFakeOpenAiServer(), startFakeAnthropicServer()]);
  home = createTemporaryHome('sightline-run-setup-answers');
});
afterEach(async () => {
  await Promise.all([openai.close(), anthropic.close()]);
  home.remove();
});

async function run(baseUrl: string, extra: string[], env: Record<string, string>) {
  const io = captureIo(env);
  const argv = ['--home', home.root, 'run', 'Name the team', '--operator', 'browser', '--url', sandbox.url, '--base-url', baseUrl, '--json', ...extra];
  const exitCode = await runCli(argv, io);
  const events = io.output.stdout.split('\n').filter((line) => line !== '').map((line) => AgentEventSchema.parse(JSON.parse(line)));
  return { exitCode, stderr: io.output.stderr, ended: events.find((event) => event.type === 'turn-ended') };
}

/** A port that nothing listens on: taken, then let go. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const OPENAI_KEY = { OPENAI_API_KEY: 'sk-test-setup-0123456789' };
const ANTHROPIC = ['--model', 'claude-sonnet-4-5'];
const ANTHROPIC_KEY = { ANTHROPIC_API_KEY: 'sk-ant-test-setup-0123456789' };

describe('an answer that means the setup is wrong exits 2 and ends the turn as setup', () => {
  it('OpenAI: a key refused (401), and one without access (403)', { timeout: 120_000 }, async () => {
    for (const status of [401, 403]) {
      openai.script([{ type: 'error', status, message: 'Incorrect API key provided' }]);
      const result = await run(openai.baseUrl, [], OPENAI_KEY);
      expect(result.exitCode, result.stderr).toBe(2);
      expect(result.stderr).toContain('check the API key: OPENAI_API_KEY');
      expect(result.ended).toMatchObject({ status: 'failed', reason: 'setup' });
      expect((result.ended as { summary?: string }).summary).toMatch(/^Setup: /);
    }
  });

  it('OpenAI: a model the endpoint does not know (404)', { timeout: 120_000 }, async () => {
    openai.script([{ type: 'error', status: 404, message: 'The model `gpt-9` does not exist' }]);
    const result = await run(openai.baseUrl, ['--model', 'gpt-9'], OPENAI_KEY);
    expect(result.exitCode, result.stderr).toBe(2);
    expect(result.stderr).toContain('check the model name');
    expect(result.ended).toMatchObject({ reason: 'setup' });
  });

  it('OpenAI and Anthropic: a base URL where nothing listens', { timeout: 240_000 }, async () => {
    const port = await closedPort();
    const viaOpenAi = await run(`http://127.0.0.1:${port}/v1`, [], OPENAI_KEY);
    expect(viaOpenAi.exitCode, viaOpenAi.stderr).toBe(2);
    expect(viaOpenAi.stderr).toContain(`Could not reach the model endpoint http://127.0.0.1:${port}/v1`);
    expect(viaOpenAi.ended).toMatchObject({ reason: 'setup' });
    const viaAnthropic = await run(`http://127.0.0.1:${port}`, ANTHROPIC, ANTHROPIC_KEY);
    expect(viaAnthropic.exitCode, viaAnthropic.stderr).toBe(2);
    expect(viaAnthropic.ended).toMatchObject({ reason: 'setup' });
  });

  it('Anthropic: a key refused (401), a model not known (404)', { timeout: 120_000 }, async () => {
    anthropic.script([{ type: 'error', status: 401, errorType: 'authentication_error', message: 'invalid x-api-key' }]);
    const refused = await run(anthropic.baseUrl, ANTHROPIC, ANTHROPIC_KEY);
    expect(refused.exitCode, refused.stderr).toBe(2);
    expect(refused.stderr).toContain('check the API key: ANTHROPIC_API_KEY');
    anthropic.script([{ type: 'error', status: 404, errorType: 'not_found_error', message: 'model: claude-sonnet-4-5' }]);
    const unknown = await run(anthropic.baseUrl, ANTHROPIC, ANTHROPIC_KEY);
    expect(unknown.exitCode, unknown.stderr).toBe(2);
    expect(unknown.ended).toMatchObject({ reason: 'setup' });
  });

  it('a server error stays a failed task: exit 1', { timeout: 120_000 }, async () => {
    openai.script([{ type: 'error', status: 400, message: 'Bad image' }]);
    const result = await run(openai.baseUrl, [], OPENAI_KEY);
    expect(result.exitCode, result.stderr).toBe(1);
    expect(result.ended).toMatchObject({ reason: 'error' });
  });
});
