/**
 * `sightline run` with MCP servers in config.json: the servers' tools reach the model next to the built-in
 * ones and are called through the run; a server that does not start is reported once on stderr and the
 * run goes on (exit 0).
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/main/cli/program.js';
import { chatMessages, contentText, finishCall, toolCall } from '../helpers/agent-harness.js';
import { captureIo } from '../helpers/cli-io.js';

import { useRunEnvironment } from '../helpers/run-environment.js';

const FIXTURES = resolve(import.meta.dirname, '../fixtures/mcp');

const environment = useRunEnvironment('sightline-cli-run-mcp');

describe('sightline run with MCP servers', () => {
  it('offers their tools to the model, calls them, and reports a server that does not start once', async () => {
    writeFileSync(
      environment.home.configFile,
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
    environment.model.script([echo, finishCall('Echoed.')]);
    const io = captureIo({ OPENAI_API_KEY: 'sk-test-cli-run-mcp' });

    const exitCode = await runCli(
      ['--home', environment.home.root, 'run', 'Echo something', '--operator', 'browser', '--url', environment.sandbox.url, '--base-url', environment.model.baseUrl],
      io,
    );

    expect(exitCode).toBe(0);
    expect(io.output.stdout).toContain('Echoed.');
    const reports = io.output.stderr.split('\n').filter((line) => line.includes('MCP server "broken" did not start'));
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatch(/^sightline: MCP server "broken" did not start: it exited before answering .*; its tools are left out of this run\.$/);
    const tools = (environment.model.requests[0]?.body as { tools: { function: { name: string } }[] }).tools.map((tool) => tool.function.name);
    expect(tools).toEqual(expect.arrayContaining(['computer', 'finish', 'echo__echo', 'echo__add']));
    expect(tools.some((name) => name.startsWith('broken__'))).toBe(false);
    const answer = chatMessages(environment.model, 1).find((message) => message.role === 'tool' && message.tool_call_id === echo.toolCalls![0]!.id);
    expect(contentText(answer!)).toBe('echo: from the run');
  });
});
