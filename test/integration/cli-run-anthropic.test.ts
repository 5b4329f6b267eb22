/**
 * `sightline run --model claude-…` in-process (runCli) against the fake Anthropic server and the browser
 * operator on the bundled sandbox page: the model name alone selects Anthropic's Messages API, the key
 * comes from ANTHROPIC_API_KEY, and function tools (chosen with --dialect) or Claude's native computer tool
 * drive the task to its end; every request carries the zones' cache breakpoints. A missing key is a setup error (exit 2) before any request.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandboxServer, type SandboxServer } from '../../demo/sandbox-server.js';
import { SANDBOX_LAYOUT } from '../../demo/demo-script.js';
import { runCli } from '../../src/main/cli/program.js';
import { captureIo } from '../helpers/cli-io.js';
import { startFakeAnthropicServer, type FakeAnthropicServer } from '../helpers/fake-anthropic-server.js';
import { createTemporaryHome, type TemporaryHome } from '../helpers/seed.js';

const KEY = 'sk-ant-cli-0123456789abcdefSECRET';

let sandbox: SandboxServer;
let model: FakeAnthropicServer;
let home: TemporaryHome;

beforeAll(async () => {
  sandbox = await startSandboxServer();
});
afterAll(async () => {
  await sandbox.close();
});
beforeEach(async () => {
  model = await startFakeAnthropicServer();
  home = createTemporaryHome('sightline-cli-run-anthropic');
});
afterEach(async () => {
  await model.close();
  home.remove();
});

function claudeArgs(task: string): string[] {
  return ['--home', home.root, 'run', task, '--operator', 'browser', '--url', sandbox.url, '--model', 'claude-sonnet-4-5', '--base-url', model.baseUrl];
}

async function run(argv: string[], env: Record<string, string | undefined>) {
  const io = captureIo(env);
  const exitCode = await runCli(argv, io);
  return { exitCode, ...io.output };
}

interface Body {
  system?: Array<{ cache_control?: unknown }>;
  tools?: Array<{ name: string; input_schema?: unknown }>;
  messages: Array<{ role: string; content: Array<{ type: string; cache_control?: unknown }> }>;
}

function breakpointCount(body: Body): number {
  const blocks = [...(body.tools ?? []), ...(body.system ?? []), ...body.messages.flatMap((message) => message.content)];
  return blocks.filter((block) => (block as { cache_control?: unknown }).cache_control !== undefined).length;
}

describe('sightline run with a Claude model', () => {
  it('finishes a short task with function tools through the Messages API, the key only as x-api-key', async () => {
    model.script([
      { type: 'answer', text: 'I click the team name field.', toolUses: [{ id: 'toolu_01', name: 'computer', inputText: JSON.stringify({ action: 'click', ...SANDBOX_LAYOUT.teamNameField }) }] },
      { type: 'answer', toolUses: [{ id: 'toolu_02', name: 'computer', inputText: JSON.stringify({ action: 'type', text: 'Platform' }) }] },
      { type: 'answer', toolUses: [{ id: 'toolu_03', name: 'finish', inputText: JSON.stringify({ summary: 'Named the team Platform.', success: true }) }] },
    ]);
    const result = await run([...claudeArgs('Name the team Platform'), '--dialect', 'function-tools'], { ANTHROPIC_API_KEY: KEY });

    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toContain('finished after');
    expect(result.stdout + result.stderr).not.toContain(KEY);
    expect(model.requests).toHaveLength(3);
    for (const [index, request] of model.requests.entries()) {
      expect(request.path.split('?')[0]).toBe('/v1/messages');
      expect(request.headers['x-api-key']).toBe(KEY);
      expect(request.headers.authorization).toBeUndefined();
      const body = request.body as unknown as Body;
      expect(body.tools?.map((tool) => tool.name)).toEqual(expect.arrayContaining(['computer', 'finish']));
      expect(body.messages.every((message) => message.role === 'user' || message.role === 'assistant')).toBe(true);
      // The system prompt and the latest step (now: the message before the present screen, which the next
      // request shows reduced); from the third request, the end of what no fold changes too (issue 15: the
      // running turn's earlier screens are reduced views). A first turn has no earlier turns to mark.
      expect(body.system?.at(-1)?.cache_control).toEqual({ type: 'ephemeral' });
      expect(breakpointCount(body)).toBe(index < 2 ? 2 : 3);
    }
    const last = model.requests[2]!.body as unknown as Body;
    const toolResults = last.messages.flatMap((message) => message.content).filter((block) => block.type === 'tool_result');
    expect(toolResults).toHaveLength(2);
    // The screenshot after each action goes back inside its tool_result, as a base64 image block.
    expect(JSON.stringify(toolResults[0])).toContain('"type":"base64"');
  });

  it("marks the end of the earlier turns in a second turn, and the turn's second request repeats the first up to it", async () => {
    model.script([{ type: 'answer', toolUses: [{ id: 'toolu_01', name: 'finish', inputText: JSON.stringify({ summary: 'Looked.', success: true }) }] }]);
    const first = await run([...claudeArgs('Look at the page'), '--dialect', 'function-tools'], { ANTHROPIC_API_KEY: KEY });
    expect(first.exitCode, first.stderr).toBe(0);
    const sessionId = /--session (ses_[0-9a-f]+)/.exec(first.stderr)?.[1];
    expect(sessionId).toBeDefined();

    model.script([
      { type: 'answer', toolUses: [{ id: 'toolu_02', name: 'computer', inputText: JSON.stringify({ action: 'click', ...SANDBOX_LAYOUT.teamNameField }) }] },
      { type: 'answer', toolUses: [{ id: 'toolu_03', name: 'finish', inputText: JSON.stringify({ summary: 'Clicked.', success: true }) }] },
    ]);
    const second = await run([...claudeArgs('Click the team name field'), '--session', sessionId!, '--dialect', 'function-tools'], { ANTHROPIC_API_KEY: KEY });
    expect(second.exitCode, second.stderr).toBe(0);
    const [one, two] = [model.requests[1]!.body as unknown as Body, model.requests[2]!.body as unknown as Body];
    expect(breakpointCount(one)).toBe(3);
    expect(breakpointCount(two)).toBe(3);
    // Up to the earlier-turns breakpoint (the first one in the messages), both requests are the same bytes.
    const upToEarlierTurnsEnd = (body: Body): string => {
      const flat = body.messages.flatMap((message, index) => message.content.map((block) => ({ index, role: message.role, block })));
      const end = flat.findIndex((entry) => entry.block.cache_control !== undefined);
      return JSON.stringify({ system: body.system, tools: body.tools, blocks: flat.slice(0, end + 1) });
    };
    expect(upToEarlierTurnsEnd(two)).toBe(upToEarlierTurnsEnd(one));
    expect(upToEarlierTurnsEnd(one)).toContain('Look at the page');
    expect(upToEarlierTurnsEnd(one)).not.toContain('Click the team name field');
  });

  it("lets a turn's first request read the turns settled before it from the cache, at breakpoints the previous turn wrote", async () => {
    const cached = await startFakeAnthropicServer({ promptCache: {} });
    try {
      const args = (task: string) => ['--home', home.root, 'run', task, '--operator', 'browser', '--url', sandbox.url, '--model', 'claude-sonnet-4-5', '--base-url', cached.baseUrl];
      let sessionId: string | undefined;
      const firstRequestOfTurn: number[] = [];
      for (const [turn, task] of ['Look at the team name', 'Click it', 'Click it again', 'And once more'].entries()) {
        firstRequestOfTurn.push(cached.requests.length);
        cached.script([
          { type: 'answer', toolUses: [{ id: `toolu_c${turn}`, name: 'computer', inputText: JSON.stringify({ action: 'left_click', coordinate: [SANDBOX_LAYOUT.teamNameField.x, SANDBOX_LAYOUT.teamNameField.y] }) }] },
          { type: 'answer', toolUses: [{ id: `toolu_f${turn}`, name: 'finish', inputText: JSON.stringify({ summary: 'Done.', success: true }) }] },
        ]);
        const result = await run([...args(task), ...(sessionId === undefined ? [] : ['--session', sessionId])], { ANTHROPIC_API_KEY: KEY });
        expect(result.exitCode, result.stderr).toBe(0);
        sessionId ??= /--session (ses_[0-9a-f]+)/.exec(result.stderr)?.[1];
      }
      const [, , third, fourth] = firstRequestOfTurn.map((index) => cached.requests[index]!);
      // The third turn has one settled turn (the first; the second is the anchor turn) but no earlier settled end
      // to read: the tools and system prompt at most. The fourth reads the first turn too, from where the third wrote it.
      expect(fourth!.cacheUsage!.cacheReadInputTokens).toBeGreaterThan(third!.cacheUsage!.cacheReadInputTokens);
      const body = fourth!.body as unknown as Body;
      // Its first breakpoint closes the first turn: the block after it is the second turn's request.
      const blocks = body.messages.flatMap((message) => message.content);
      const marked = blocks.findIndex((block) => block.cache_control !== undefined);
      expect(JSON.stringify(blocks[marked + 1])).toContain('Click it');
      // Four message breakpoints, so none on the system prompt.
      expect(breakpointCount(body)).toBe(4);
      expect(body.system?.some((block) => block.cache_control !== undefined)).toBe(false);
    } finally {
      await cached.close();
    }
  });

  it("drives the sandbox through Claude's native computer tool, and its ctrl+w meets the same gate", async () => {
    const at = SANDBOX_LAYOUT.teamNameField;
    const save = SANDBOX_LAYOUT.saveButton;
    const computer = (id: string, input: Record<string, unknown>) => ({ id, name: 'computer', inputText: JSON.stringify(input) });
    model.script([
      { type: 'answer', text: 'I click the team name field.', toolUses: [computer('toolu_11', { action: 'left_click', coordinate: [at.x, at.y] })] },
      { type: 'answer', toolUses: [computer('toolu_12', { action: 'type', text: 'Platform' })] },
      { type: 'answer', toolUses: [computer('toolu_13', { action: 'left_click', coordinate: [save.x, save.y] })] },
      { type: 'answer', text: 'Closing the tab.', toolUses: [computer('toolu_14', { action: 'key', text: 'ctrl+w' })] },
      { type: 'answer', toolUses: [{ id: 'toolu_15', name: 'finish', inputText: JSON.stringify({ summary: 'Named the team Platform.', success: true }) }] },
    ]);
    const result = await run([...claudeArgs('Name the team Platform'), '--dialect', 'anthropic-computer'], { ANTHROPIC_API_KEY: KEY });

    expect(result.exitCode, result.stderr).toBe(0);
    expect(sandbox.state()).toMatchObject({ teamName: 'Platform' });
    expect(model.requests).toHaveLength(5);
    const first = model.requests[0]!;
    // Claude Sonnet 4.5 was trained on computer_20250124: declared natively with the screenshot's size and its beta.
    const tools = (first.body as { tools: Array<Record<string, unknown>> }).tools;
    expect(tools[0]).toMatchObject({ type: 'computer_20250124', name: 'computer', display_width_px: 1280, display_height_px: 800 });
    expect(tools.slice(1).map((tool) => tool.name)).toEqual(expect.arrayContaining(['finish', 'get_history_image', 'crop_image']));
    expect(String(first.headers['anthropic-beta'])).toContain('computer-use-2025-01-24');
    // Nobody at a terminal and no --yes: the ctrl+w from Claude's key action is refused by the policy, as from any tool.
    const refusal = JSON.stringify(model.requests[4]!.body);
    expect(refusal).toContain('ctrl+w');
    expect(refusal).toContain('refused');
  });

  it('exits 2 naming ANTHROPIC_API_KEY when it is missing, before any request', async () => {
    const result = await run(claudeArgs('Name the team Platform'), { OPENAI_API_KEY: 'sk-openai-should-not-go-to-anthropic' });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('ANTHROPIC_API_KEY');
    expect(result.stderr).not.toContain('    at ');
    expect(model.requests).toHaveLength(0);
  });
});
