/**
 * The MCP client side: the tools of configured MCP servers (a small server in test/fixtures/mcp, started
 * over stdio by the SDK's client) are loaded, namespaced `<server>__<tool>`, merged with the built-in
 * tools and called by the scripted model through createAgent. A tool that throws, one that outlasts the
 * call timeout and a server that dies come back to the model as error results and the turn goes on; a
 * server that never starts is reported once and its tools are absent.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, type McpConfig } from '../../src/shared/config.js';
import { userText } from '../../src/shared/messages.js';
import { loadMcpTools, type LoadedMcpTools } from '../../src/main/agent/mcp/load-mcp-tools.js';
import { startHttpEchoServer, type HttpEchoServer } from '../fixtures/mcp/http-echo-server.js';
import { chatMessages, contentText, finishCall, startAgentHarness, toolCall, type AgentHarness } from '../helpers/agent-harness.js';

const FIXTURES = resolve(import.meta.dirname, '../fixtures/mcp');
const ECHO_SERVER = { command: process.execPath, args: ['--import', 'tsx', resolve(FIXTURES, 'echo-server.ts')] };
const NEVER_STARTS = { command: process.execPath, args: ['--import', 'tsx', resolve(FIXTURES, 'never-starts.ts')] };

let harness: AgentHarness | undefined;
let loaded: LoadedMcpTools | undefined;
let httpServer: HttpEchoServer | undefined;
afterEach(async () => {
  await loaded?.close();
  await harness?.close();
  await httpServer?.close();
  harness = loaded = httpServer = undefined;
});

function mcpConfig(servers: McpConfig['servers'], callTimeoutMs = 10_000): McpConfig {
  return { ...DEFAULT_CONFIG.mcp, servers, callTimeoutMs, startTimeoutMs: 20_000 };
}

async function startWith(config: McpConfig): Promise<{ harness: AgentHarness; loaded: LoadedMcpTools; warnings: string[] }> {
  const warnings: string[] = [];
  loaded = await loadMcpTools(config, { onWarning: (message) => warnings.push(message) });
  harness = await startAgentHarness({ extra: { extraTools: loaded.tools } });
  return { harness, loaded, warnings };
}

/** The text of the tool message that answered the call with this id, in the request after it. */
function toolResultText(harness: AgentHarness, requestIndex: number, callId: string): string {
  const message = chatMessages(harness.server, requestIndex).find((entry) => entry.role === 'tool' && entry.tool_call_id === callId);
  expect(message, `a tool message for ${callId} in request ${requestIndex}`).toBeDefined();
  return contentText(message!);
}

function callIdOf(reply: ReturnType<typeof toolCall>): string {
  return reply.toolCalls![0]!.id!;
}

describe('MCP servers\' tools in a run', () => {
  it('merges the namespaced tools with the built-in ones, with the servers\' schemas, and the model calls them', async () => {
    const { harness } = await startWith(mcpConfig({ echo: ECHO_SERVER }));
    const echo = toolCall('echo__echo', { text: 'hello there' });
    const add = toolCall('echo__add', { a: 2, b: 40 });
    const image = toolCall('echo__image', {});
    harness.server.script([echo, add, image, finishCall('Echoed, added and looked.')]);

    const outcome = await harness.agent.runTurn({ request: userText('Use the echo server') });

    expect(outcome).toMatchObject({ status: 'finished', summary: 'Echoed, added and looked.' });
    const tools = (harness.server.requests[0]?.body as { tools: { function: { name: string; parameters: unknown } }[] }).tools;
    const names = tools.map((tool) => tool.function.name);
    expect(names).toEqual(expect.arrayContaining(['computer', 'finish', 'ask_user', 'echo__echo', 'echo__add', 'echo__crash', 'echo__slow', 'echo__image']));
    expect(tools.find((tool) => tool.function.name === 'echo__add')?.function.parameters).toMatchObject({
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
    });
    expect(toolResultText(harness, 1, callIdOf(echo))).toBe('echo: hello there');
    expect(toolResultText(harness, 2, callIdOf(add))).toBe('42');

    // The image came back as an image of this session's store, with its own id, sent to the model.
    const images = harness.storage.images.listBySession(outcome.sessionId).filter((record) => record.source === 'tool');
    expect(images).toHaveLength(1);
    expect(images[0]).toMatchObject({ width: 4, height: 3, mime: 'image/png', turnId: outcome.turnId });
    const imageRequest = JSON.stringify(chatMessages(harness.server, 3));
    expect(imageRequest).toContain(images[0]!.id);
    expect(imageRequest).toContain('data:image/png;base64,');

    // Each call is a step of the turn, as the timeline shows it.
    const steps = harness.storage.steps.listByTurn(outcome.turnId);
    expect(steps.map((step) => (step.action as { tool?: string }).tool)).toEqual(['echo__echo', 'echo__add', 'echo__image', 'finish']);
    expect(steps[0]).toMatchObject({ error: null, action: { tool: 'echo__echo', arguments: { text: 'hello there' } } });
  });

  it('turns a throwing tool, a timeout and a bad argument into error results, and the turn goes on', async () => {
    const { harness } = await startWith(mcpConfig({ echo: ECHO_SERVER }, 300));
    const crash = toolCall('echo__crash', {});
    const slow = toolCall('echo__slow', { ms: 5_000 });
    const badArgument = toolCall('echo__add', { a: 1, b: 'two' });
    const echo = toolCall('echo__echo', { text: 'still here' });
    harness.server.script([crash, slow, badArgument, echo, finishCall('Recovered.')]);

    const outcome = await harness.agent.runTurn({ request: userText('Try the flaky tools') });

    expect(outcome).toMatchObject({ status: 'finished', summary: 'Recovered.' });
    expect(toolResultText(harness, 1, callIdOf(crash))).toContain('the crash tool blew up on purpose');
    expect(toolResultText(harness, 2, callIdOf(slow))).toContain('echo__slow timed out after 300 ms');
    expect(toolResultText(harness, 3, callIdOf(badArgument))).toMatch(/Invalid arguments for tool add/);
    expect(toolResultText(harness, 4, callIdOf(echo))).toBe('echo: still here');
    const steps = harness.storage.steps.listByTurn(outcome.turnId);
    expect(steps.map((step) => step.error === null)).toEqual([false, false, false, true, true]);
  });

  it('tells the model when a server has died, and the run goes on without it', async () => {
    const { harness } = await startWith(mcpConfig({ echo: ECHO_SERVER }));
    const exit = toolCall('echo__exit', {});
    const echo = toolCall('echo__echo', { text: 'anyone?' });
    harness.server.script([exit, echo, finishCall('The echo server is gone.')]);

    const outcome = await harness.agent.runTurn({ request: userText('Stop the server, then echo') });

    expect(outcome).toMatchObject({ status: 'finished' });
    expect(toolResultText(harness, 1, callIdOf(exit))).toMatch(/MCP server "echo" is not running any more/);
    const afterDeath = toolResultText(harness, 2, callIdOf(echo));
    expect(afterDeath).toMatch(/MCP server "echo" is not running any more/);
    expect(afterDeath).toContain('echo-fixture: exiting as asked');
  });

  it('reports a server that never starts once, naming it and why, and runs with the others', async () => {
    const { harness, loaded, warnings } = await startWith(
      mcpConfig({ broken: NEVER_STARTS, missing: { command: resolve(FIXTURES, 'no-such-server'), args: [] }, echo: ECHO_SERVER }),
    );
    expect(warnings).toHaveLength(2);
    expect(warnings.find((warning) => warning.includes('"broken"'))).toMatch(
      /MCP server "broken" did not start: it exited before answering .*cannot find the configuration it needs; its tools are left out/,
    );
    expect(warnings.find((warning) => warning.includes('"missing"'))).toMatch(/MCP server "missing" did not start: the command .*no-such-server" was not found/);
    expect(loaded.failures.map((failure) => failure.server).sort()).toEqual(['broken', 'missing']);
    expect(loaded.tools.every((tool) => tool.name.startsWith('echo__'))).toBe(true);

    harness.server.script([toolCall('echo__echo', { text: 'ok' }), finishCall('Worked without the broken server.')]);
    const outcome = await harness.agent.runTurn({ request: userText('Echo something') });
    expect(outcome).toMatchObject({ status: 'finished', summary: 'Worked without the broken server.' });
    expect(warnings).toHaveLength(2);
  });

  it('reaches a streamable HTTP server by its URL, sending the configured headers', async () => {
    httpServer = await startHttpEchoServer();
    const { harness, warnings } = await startWith(
      mcpConfig({ tickets: { url: httpServer.url, headers: { Authorization: 'Bearer test-token' } } }),
    );
    expect(warnings).toEqual([]);
    const whoami = toolCall('tickets__whoami', {});
    harness.server.script([whoami, finishCall('Asked.')]);

    const outcome = await harness.agent.runTurn({ request: userText('Who am I to the ticket server?') });

    expect(outcome).toMatchObject({ status: 'finished' });
    expect(toolResultText(harness, 1, callIdOf(whoami))).toBe('authorization: Bearer test-token');
  });

  it('reports an HTTP server that is not there, once, and goes on', async () => {
    httpServer = await startHttpEchoServer();
    const gone = httpServer.url;
    await httpServer.close();
    httpServer = undefined;
    const { loaded, warnings } = await startWith(mcpConfig({ tickets: { url: gone }, echo: ECHO_SERVER }));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^MCP server "tickets" did not start: fetch failed: connect ECONNREFUSED 127\.0\.0\.1:\d+ \(http:\/\/127\.0\.0\.1:\d+\/mcp\); its tools are left out of this run\.$/);
    expect(loaded.tools.map((tool) => tool.name)).toContain('echo__echo');
  });
});

describe('MCP servers\' tools behind the confirmation gate', () => {
  it('takes each server\'s own confirm: never runs its destructive tool unasked, always asks even for a read-only one', async () => {
    const victim = join(mkdtempSync(join(tmpdir(), 'sightline-mcp-gate-')), 'delete-me.txt');
    writeFileSync(victim, 'going');
    const { harness } = await startWith(mcpConfig({ trusted: { ...ECHO_SERVER, confirm: 'never' }, careful: { ...ECHO_SERVER, confirm: 'always' } }));
    const deletion = toolCall('trusted__delete_file', { path: victim });
    const echo = toolCall('careful__echo', { text: 'may I?' });
    harness.server.script([deletion, echo, finishCall('Done.')]);

    const outcome = await harness.agent.runTurn({ request: userText('Delete, then echo') });

    expect(outcome).toMatchObject({ status: 'finished' });
    expect(existsSync(victim)).toBe(false);
    expect(harness.confirmations).toMatchObject([
      { action: { tool: 'careful__echo', arguments: { text: 'may I?' } }, reason: 'the confirmation policy is "always": every call of careful__echo needs approval' },
    ]);
    expect(toolResultText(harness, 2, callIdOf(echo))).toContain('the user refused this action');
    const steps = harness.storage.steps.listByTurn(outcome.turnId);
    expect(steps[1]).toMatchObject({ action: { tool: 'careful__echo' }, result: { ok: false, refused: true } });
    rmSync(dirname(victim), { recursive: true, force: true });
  });
});

