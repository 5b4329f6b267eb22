/**
 * `sightline mcp` as another agent meets it: the SDK's own Client spawns the command over stdio (the
 * browser operator on the bundled sandbox page, a temporary SIGHTLINE_HOME) and calls its tools. The tools
 * are listed with their schemas, a screenshot comes back as an image with an id that get_history_image
 * returns, computer actions change the page, a bad argument is an isError result naming the field (an
 * unknown tool the protocol's invalid-params error; issue 17 moved the former to MCP 2025-11-25's rule), a risky action is
 * refused with the way to allow it, and every call is recorded in a session of its own. The MCP servers
 * in config.json are offered too, as in `sightline run`, and a display it cannot reach exits 2 before
 * serving.
 */
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxServer, type SandboxServer } from '../../demo/sandbox-server.js';
import { SANDBOX_LAYOUT } from '../../demo/demo-script.js';
import { runSightline } from '../helpers/cli-io.js';
import { createTemporaryHome, openHomeStorage, type TemporaryHome } from '../helpers/seed.js';
import { unusedDisplay } from '../helpers/xvfb.js';
import { builtCli } from '../helpers/built-cli.js';
import { scaledLimit } from '../helpers/time-limits.js';

const MCP_FIXTURES = resolve(import.meta.dirname, '../fixtures/mcp');
const CLIENT_NAME = 'mcp-server-test-client';

type Content = { type: 'text'; text: string } | { type: 'image'; data: string; mimeType: string };
interface CallResult {
  content: Content[];
  isError?: boolean;
}

let sandbox: SandboxServer;
let home: TemporaryHome;
let client: Client;
let serverLog = '';

/** `sightline mcp` on the sandbox page in the browser operator, with the given home; its stderr goes to `onLog`. */
async function connectToSightlineMcp(serverHome: TemporaryHome, onLog: (text: string) => void): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [builtCli(), 'mcp', '--operator', 'browser', '--url', sandbox.url],
    env: { SIGHTLINE_HOME: serverHome.root },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => onLog(chunk.toString('utf8')));
  const connected = new Client({ name: CLIENT_NAME, version: '1.0.0' });
  // The SDK gives a request 60 s; starting the server alone took 30 s at load 20.
  await connected.connect(transport, { timeout: scaledLimit(60_000) });
  return connected;
}

beforeAll(async () => {
  sandbox = await startSandboxServer();
  home = createTemporaryHome('sightline-mcp-server');
  // The SDK passes a minimal environment (PATH, HOME …): no TAVILY_API_KEY, so no web_search.
  client = await connectToSightlineMcp(home, (text) => {
    serverLog += text;
  });
});

afterAll(async () => {
  await client?.close();
  await sandbox?.close();
  home?.remove();
});

async function call(name: string, argumentsValue: Record<string, unknown> = {}): Promise<CallResult> {
  return (await client.callTool({ name, arguments: argumentsValue }, undefined, { timeout: scaledLimit(60_000) })) as CallResult;
}

function texts(result: CallResult): string {
  return result.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
}

function images(result: CallResult): Extract<Content, { type: 'image' }>[] {
  return result.content.filter((part): part is Extract<Content, { type: 'image' }> => part.type === 'image');
}

describe('sightline mcp', () => {
  let screenshotId = '';
  let screenshotData = '';

  it('lists its tools with their input schemas, and no web_search without a Tavily key', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['screenshot', 'computer', 'get_history_image', 'crop_image', 'list_sessions']);
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    expect(byName.computer?.inputSchema).toMatchObject({
      type: 'object',
      required: ['action'],
      properties: { action: { enum: expect.arrayContaining(['click', 'type', 'key', 'scroll', 'screenshot']) } },
    });
    expect(byName.get_history_image?.inputSchema).toMatchObject({ type: 'object', required: ['image_id'], properties: { image_id: { type: 'string' } } });
    expect(byName.crop_image?.inputSchema).toMatchObject({ type: 'object', required: ['crops'] });
    expect(byName.screenshot?.description).toMatch(/img_/);
  });

  it('returns a screenshot as an image with its id, and an unchanged screen as the earlier id', async () => {
    const result = await call('screenshot');
    expect(result.isError).toBeUndefined();
    screenshotId = /^(img_[0-9a-f]{12}): the screen, 1280×800 pixels\.$/m.exec(texts(result))?.[1] ?? '';
    expect(screenshotId).not.toBe('');
    const [image] = images(result);
    expect(image?.mimeType).toBe('image/png');
    screenshotData = image!.data;
    expect(await sharp(Buffer.from(screenshotData, 'base64')).metadata()).toMatchObject({ format: 'png', width: 1280, height: 800 });

    const again = await call('screenshot');
    expect(texts(again)).toBe(`unchanged: same as ${screenshotId}`);
    expect(images(again)).toHaveLength(0);
  });

  it('gives the screenshot back by id through get_history_image, and zooms into it with crop_image', async () => {
    const recalled = await call('get_history_image', { image_id: screenshotId });
    expect(recalled.isError).toBeUndefined();
    expect(texts(recalled)).toContain(`${screenshotId}: a screenshot from turn 1, 1280×800 pixels`);
    expect(images(recalled).map((image) => image.data)).toEqual([screenshotData]);

    const cropped = await call('crop_image', { crops: { [screenshotId]: [100, 100, 300, 200] }, scale: 2 });
    expect(cropped.isError).toBeUndefined();
    expect(await sharp(Buffer.from(images(cropped)[0]!.data, 'base64')).metadata()).toMatchObject({ width: 400, height: 200 });

    const unknown = await call('get_history_image', { image_id: 'img_000000000000' });
    expect(unknown).toMatchObject({ isError: true });
    expect(texts(unknown)).toBe('image not found or expired');
  });

  it('answers a bad argument with an isError result naming the field, and an unknown tool with an invalid-params error', async () => {
    const badArgument = await call('get_history_image', { image_id: 42 });
    expect(badArgument.isError).toBe(true);
    expect(texts(badArgument)).toContain('image_id');
    const badAction = await call('computer', { action: 'fly' });
    expect(badAction.isError).toBe(true);
    expect(texts(badAction)).toContain('action: unknown value "fly"');
    const unknownTool = client.callTool({ name: 'finish', arguments: {} });
    await expect(unknownTool).rejects.toBeInstanceOf(McpError);
    await expect(unknownTool).rejects.toMatchObject({ code: ErrorCode.InvalidParams, message: expect.stringContaining('finish') });
  });

  it('acts on the page with computer, returning the screen after each action', async () => {
    const click = await call('computer', { action: 'click', ...SANDBOX_LAYOUT.teamNameField });
    expect(click.isError).toBeUndefined();
    const typed = await call('computer', { action: 'type', text: 'Platform' });
    expect(texts(typed)).toMatch(/img_[0-9a-f]{12}/);
    expect(images(typed)).toHaveLength(1);
    await call('computer', { action: 'click', ...SANDBOX_LAYOUT.saveButton });
    expect(sandbox.state().teamName).toBe('Platform');
  });

  it('refuses a risky action, since nobody can approve it over MCP, and says how to allow it', async () => {
    const refused = await call('computer', { action: 'key', keys: 'alt+F4' });
    expect(refused.isError).toBe(true);
    expect(texts(refused)).toMatch(/^Refused: .*alt\+F4.*Nothing was done.*--yes/);
  });

  it('lists the sessions, its own marked', async () => {
    const listed = await call('list_sessions');
    expect(texts(listed)).toMatch(new RegExp(`ses_[0-9a-f]{12} .*"MCP: ${CLIENT_NAME}"  \\(this connection\\)`));
  });

  it('records every call in a session of its own that storage and sessions show see', async () => {
    const storage = openHomeStorage(home);
    try {
      const [session] = storage.sessions.list();
      expect(session).toMatchObject({ title: `MCP: ${CLIENT_NAME}`, operator: 'browser', turnCount: 1 });
      const steps = storage.steps.listBySession(session!.id);
      const tools = steps.map((step) => {
        const action = step.action as { tool?: string; action?: string };
        return action.tool ?? `computer:${action.action}`;
      });
      expect(tools).toEqual([
        'computer:screenshot',
        'computer:screenshot',
        'get_history_image',
        'crop_image',
        'get_history_image',
        'get_history_image',
        'computer',
        'finish',
        'computer:click',
        'computer:type',
        'computer:click',
        'computer:key',
        'list_sessions',
      ]);
      expect(steps[1]?.dedupOfImageId).toBe(screenshotId);
      expect(steps[5]?.error).toMatch(/image_id/);
      expect(steps[11]?.error).toMatch(/Refused/);
      const screenImages = storage.images.listBySession(session!.id).filter((image) => image.source === 'browser');
      expect(screenImages.map((image) => image.id)).toContain(screenshotId);
      expect(screenImages.length).toBeGreaterThanOrEqual(3);

      const shown = await runSightline(['--home', home.root, 'sessions', 'show', session!.id]);
      expect(shown.exitCode).toBe(0);
      expect(shown.stdout).toContain(`MCP: ${CLIENT_NAME}`);
      expect(shown.stdout).toContain('get_history_image');
    } finally {
      storage.close();
    }
    expect(serverLog).toContain('sightline mcp: serving browser operator');
  });

  it('ends its turn when the client leaves, leaving the session ready', async () => {
    // The SDK's close ends the server's stdin and waits for the process to exit.
    await client.close();
    expect(serverLog).toMatch(/calls recorded in session ses_[0-9a-f]{12}/);
    const storage = openHomeStorage(home);
    try {
      const [session] = storage.sessions.list();
      expect(session?.status).toBe('idle');
      const [turn] = storage.turns.listBySession(session!.id);
      expect(turn).toMatchObject({ status: 'finished', endedAt: expect.any(String) });
    } finally {
      storage.close();
    }
  });
});

describe('sightline mcp with MCP servers in config.json', () => {
  let configuredHome: TemporaryHome;
  let configuredClient: Client;
  let configuredLog = '';

  beforeAll(async () => {
    configuredHome = createTemporaryHome('sightline-mcp-server-configured');
    writeFileSync(
      configuredHome.configFile,
      JSON.stringify({
        mcp: {
          servers: {
            echo: { command: process.execPath, args: ['--import', 'tsx', resolve(MCP_FIXTURES, 'echo-server.ts')] },
            broken: { command: process.execPath, args: ['--import', 'tsx', resolve(MCP_FIXTURES, 'never-starts.ts')] },
          },
        },
      }),
    );
    configuredClient = await connectToSightlineMcp(configuredHome, (text) => {
      configuredLog += text;
    });
  });

  afterAll(async () => {
    await configuredClient?.close();
    configuredHome?.remove();
  });

  it('offers their tools beside its own, calls them, and reports a server that does not start once', async () => {
    const { tools } = await configuredClient.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['screenshot', 'computer', 'echo__echo', 'echo__add']));
    expect(names.some((name) => name.startsWith('broken__'))).toBe(false);

    const echoed = (await configuredClient.callTool({ name: 'echo__echo', arguments: { text: 'over MCP' } })) as CallResult;
    expect(echoed.isError).toBeFalsy();
    expect(texts(echoed)).toBe('echo: over MCP');

    const reports = configuredLog.split('\n').filter((line) => line.includes('MCP server "broken" did not start'));
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatch(/^sightline mcp: MCP server "broken" did not start: .*; its tools are left out of this run\.$/);
  });

  it('puts their destructive tools behind the same gate: refused with the way to allow them, and nothing done', async () => {
    const victim = resolve(configuredHome.root, 'keep-me.txt');
    writeFileSync(victim, 'still here');

    const refused = (await configuredClient.callTool({ name: 'echo__delete_file', arguments: { path: victim } })) as CallResult;

    expect(refused.isError).toBe(true);
    expect(texts(refused)).toMatch(/^Refused: the tool "delete_file" of the MCP server "echo" may delete or overwrite something .*start `sightline mcp` with --yes/);
    expect(existsSync(victim)).toBe(true);
  });
});

describe('sightline mcp with the desktop operator and no display', () => {
  it.skipIf(process.platform !== 'linux')('exits 2 with the display message before serving', async () => {
    const deadDisplayHome = createTemporaryHome('sightline-mcp-server-no-display');
    try {
      // A child process: node-screenshots reads DISPLAY from the real environment, once per process.
      const child = spawn(process.execPath, [builtCli(), '--home', deadDisplayHome.root, 'mcp', '--operator', 'desktop'], {
        env: { ...process.env, DISPLAY: unusedDisplay() },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      const code = await new Promise<number | null>((resolveExit) => child.once('close', resolveExit));
      expect(code, stderr).toBe(2);
      expect(stderr).toContain('no display to capture');
      expect(stderr).not.toContain('unexpected error');
      expect(stderr).not.toContain('serving');
      expect(stdout).toBe('');
    } finally {
      deadDisplayHome.remove();
    }
  });
});
