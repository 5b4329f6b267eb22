/**
 * `sightline run` with MCP servers in config.json: the servers' tools reach the model next to the built-in
 * ones and are called through the run; a server that does not start is reported once on stderr and the
 * run goes on (exit 0). Their tools pass the confirmation gate: under `--confirm always` with nobody to
 * ask, a destructive tool is refused, nothing is done, and the refusal is on the step (issue 17, finding 1).
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/main/cli/program.js';
import { chatMessages, contentText, finishCall, toolCall } from '../helpers/agent-harness.js';
import { captureIo } from '../helpers/cli-io.js';
import { openHomeStorage } from '../helpers/seed.js';

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

  it('refuses an MCP server\'s destructive tool under --confirm always when there is nobody to ask, and records the refusal', async () => {
    writeEchoServerConfig();
    const victim = join(environment.home.root, 'keep-me.txt');
    writeFileSync(victim, 'still here');
    const deletion = toolCall('echo__delete_file', { path: victim });
    environment.model.script([deletion, finishCall('Tried to delete.')]);
    const io = captureIo({ OPENAI_API_KEY: 'sk-test-cli-run-mcp' });

    const exitCode = await runCli(runArguments('Delete the file', '--confirm', 'always'), io);

    expect(exitCode).toBe(0);
    expect(existsSync(victim)).toBe(true);
    expect(io.output.stderr).toContain(`refused: echo__delete_file {"path":${JSON.stringify(victim)}}`);
    const answer = chatMessages(environment.model, 1).find((message) => message.role === 'tool' && message.tool_call_id === deletion.toolCalls![0]!.id);
    expect(contentText(answer!)).toContain('the user refused this action: the tool "delete_file" of the MCP server "echo" may delete or overwrite something');
    const storage = openHomeStorage(environment.home);
    try {
      const [session] = storage.sessions.list();
      const [turn] = storage.turns.listBySession(session!.id);
      const [step] = storage.steps.listByTurn(turn!.id);
      expect(step).toMatchObject({
        action: { tool: 'echo__delete_file', arguments: { path: victim } },
        result: { ok: false, refused: true },
      });
      expect(step!.error).toContain('refused');
    } finally {
      storage.close();
    }
  });

  it('runs the same tool when --yes allows it in advance: the gate asked, the flag answered', async () => {
    writeEchoServerConfig();
    const victim = join(environment.home.root, 'delete-me.txt');
    writeFileSync(victim, 'going');
    environment.model.script([toolCall('echo__delete_file', { path: victim }), finishCall('Deleted.')]);
    const io = captureIo({ OPENAI_API_KEY: 'sk-test-cli-run-mcp' });

    const exitCode = await runCli(runArguments('Delete the file', '--confirm', 'always', '--yes'), io);

    expect(exitCode).toBe(0);
    expect(existsSync(victim)).toBe(false);
    expect(io.output.stderr).toContain(`allowed by --yes: echo__delete_file {"path":${JSON.stringify(victim)}}`);
  });
});

function writeEchoServerConfig(): void {
  writeFileSync(
    environment.home.configFile,
    JSON.stringify({ mcp: { servers: { echo: { command: process.execPath, args: ['--import', 'tsx', resolve(FIXTURES, 'echo-server.ts')] } } } }),
  );
}

function runArguments(task: string, ...flags: string[]): string[] {
  return ['--home', environment.home.root, 'run', task, '--operator', 'browser', '--url', environment.sandbox.url, '--base-url', environment.model.baseUrl, ...flags];
}
