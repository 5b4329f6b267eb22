/**
 * `sightline run` with MCP servers in config.json: the servers' tools reach the model next to the built-in
 * ones and are called through the run; a server that does not start is reported once on stderr and the
 * run goes on (exit 0).
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/main/cli/program.js';
import { startSandboxServer, type SandboxServer } from '../../demo/sandbox-server.js';
import { chatMessages, contentText, finishCall, toolCall } from '../helpers/agent-harness.js';
import { captureIo } from '../helpers/cli-io.js';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../helpers/fake-openai-server.js';
import { createTemporaryHome, type TemporaryHome } from '../helpers/seed.js';

const FIXTURES = resolve(import.meta.dirname, '../fixtures/mcp');

let sandbox: SandboxServer;
let model: FakeOpenAiServer;
let home: TemporaryHome;

beforeAll(async () => {
  sandbox = await startSandboxServer();
});
afterAll(async () => {
  await sandbox?.close();
});
beforeEach(async () => {
  model = await startFakeOpenAiServer();
  home = createTemporaryHome('sightline-cli-run-mcp');
});
afterEach(async () => {
  await model.close();
  home.remove();
});

describe('sightline run with MCP servers', () => {
  it('offers their tools to the model, calls them, and reports a server that does not start once', async () => {
    writeFileSync(
      home.configFile,
      JSON.stringify({
        mcp: {
          servers: {
            echo: { command: process.execPath, args: ['--import', 'tsx', resolve(FIXTURES, 'echo-server.ts')] },
            broken: { command: process.execPath, args: ['--import', 'tsx', resolve(FIXTURES, 'never-starts.ts')] },
          },
        },
      }),
    );
    const echo = toolCall('echo__echo', { text: 'from the run' });
    model.script([echo, finishCall('Echoed.')]);
    const io = captureIo({ OPENAI_API_KEY: 'sk-test-cli-run-mcp' });

    const exitCode = await runCli(
      ['--home', home.root, 'run', 'Echo something', '--operator', 'browser', '--url', sandbox.url, '--base-url', model.baseUrl],
      io,
    );

    expect(exitCode).toBe(0);
    expect(io.output.stdout).toContain('Echoed.');
    const reports = io.output.stderr.split('\n').filter((line) => line.includes('MCP server "broken" did not start'));
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatch(/^sightline: MCP server "broken" did not start: it exited before answering .*; its tools are left out of this run\.$/);
    const tools = (model.requests[0]?.body as { tools: { function: { name: string } }[] }).tools.map((tool) => tool.function.name);
    expect(tools).toEqual(expect.arrayContaining(['computer', 'finish', 'echo__echo', 'echo__add']));
    expect(tools.some((name) => name.startsWith('broken__'))).toBe(false);
    const answer = chatMessages(model, 1).find((message) => message.role === 'tool' && message.tool_call_id === echo.toolCalls![0]!.id);
    expect(contentText(answer!)).toBe('echo: from the run');
  });
});
