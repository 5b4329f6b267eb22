/**
 * The tools `sightline mcp` serves, in-process: the SDK's Client linked to our MCP server by the SDK's
 * in-memory transport, a fake operator and real storage. What the stdio test cannot reach cheaply: HiDPI
 * frames shown smaller (coordinates in the image sent), --yes approving a risky action, computer before
 * any screenshot, web_search listed when Tavily is configured, and turns grouped by bursts of calls.
 * And the answers of issue 17, finding 11: a bad argument is a tool result with isError naming the field
 * and why (only an unknown tool is -32602), and every argument set a tool's published schema accepts (as
 * the SDK's own validator reads it) is accepted by the server too: never refused for its shape.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { afterEach, describe, expect, it } from 'vitest';
import { COMPUTER_ACTION_TYPES } from '../../src/shared/actions.js';
import { DEFAULT_CONFIG, type Config } from '../../src/shared/config.js';
import type { AgentEvent } from '../../src/shared/events.js';
import { createSearchTools } from '../../src/main/agent/search/create-search-tools.js';
import { McpToolHost, type McpToolHostOptions } from '../../src/main/mcp-server/mcp-tool-host.js';
import { createSightlineMcpServer } from '../../src/main/mcp-server/mcp-server.js';
import { createModelAdapter } from '../../src/main/llm/create-model-adapter.js';
import type { Storage } from '../../src/main/storage/index.js';
import { FakeOperator, type FakeOperatorOptions } from '../helpers/fake-operator.js';
import { proposeValues } from '../helpers/json-schema-samples.js';
import { createTemporaryHome, openHomeStorage, type TemporaryHome } from '../helpers/seed.js';

type Content = { type: 'text'; text: string } | { type: 'image'; data: string; mimeType: string };

interface Connected {
  client: Client;
  host: McpToolHost;
  operator: FakeOperator;
  storage: Storage;
}

let home: TemporaryHome | undefined;
let opened: Connected | undefined;
afterEach(async () => {
  await opened?.client.close();
  await opened?.host.close();
  opened?.storage.close();
  home?.remove();
  home = opened = undefined;
});

async function connect(
  options: { operator?: FakeOperatorOptions; host?: Partial<McpToolHostOptions>; config?: Config } = {},
): Promise<Connected> {
  home = createTemporaryHome('sightline-mcp-host');
  const storage = openHomeStorage(home);
  const operator = new FakeOperator(options.operator);
  const host = new McpToolHost({
    storage,
    config: options.config ?? DEFAULT_CONFIG,
    operator,
    approveRiskyActions: false,
    watchSettling: false,
    ...options.host,
  });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await createSightlineMcpServer(host).connect(serverTransport);
  const client = new Client({ name: 'host-test', version: '1.0.0' });
  await client.connect(clientTransport);
  opened = { client, host, operator, storage };
  return opened;
}

async function call(client: Client, name: string, argumentsValue: Record<string, unknown> = {}): Promise<{ content: Content[]; isError?: boolean }> {
  return (await client.callTool({ name, arguments: argumentsValue })) as { content: Content[]; isError?: boolean };
}

function textOf(result: { content: Content[] }): string {
  return result.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
}

describe('the MCP tool host', () => {
  it('sends a HiDPI screen at the configured size and maps computer coordinates from the image sent', async () => {
    const { client, operator } = await connect({ operator: { screen: { width: 1280, height: 800 }, scaleFactor: 2 } });
    const shot = await call(client, 'screenshot');
    expect(textOf(shot)).toMatch(/img_[0-9a-f]{12}: the screen, 2560×1600 pixels\./);
    expect(textOf(shot)).toMatch(/shown at 1280×800, scaled down from 2560×1600; computer coordinates and crop_image boxes are in this image/);
    const click = await call(client, 'computer', { action: 'click', x: 100, y: 50 });
    expect(click.isError).toBeUndefined();
    expect(operator.executed.at(-1)).toMatchObject({ action: { action: 'click' }, screen: [{ x: 100, y: 50 }] });
  });

  it('reads crop_image boxes in the image it sent: a box on the 1280×800 copy is cut from the 2560×1600 frame', async () => {
    const { client, storage, host } = await connect({ operator: { screen: { width: 1280, height: 800 }, scaleFactor: 2 } });
    const shot = await call(client, 'screenshot');
    const screenshotId = /(img_[0-9a-f]{12}):/.exec(textOf(shot))![1]!;
    const cropped = await call(client, 'crop_image', { crops: { [screenshotId]: [100, 50, 300, 150] } });
    expect(cropped.isError).toBeUndefined();
    expect(textOf(cropped)).toContain('box [100, 50, 300, 150] in the 1280×800 image you were shown, [200, 100, 600, 300] in its full-resolution pixels, 400×200 pixels.');
    const crops = storage.images.listBySession(host.currentSessionId!).filter((image) => image.source === 'crop');
    expect(crops.map((image) => [image.width, image.height, image.caption])).toEqual([[400, 200, `crop of ${screenshotId} [200, 100, 600, 300]`]]);
  });

  it('asks for a screenshot before the first action, and takes one when computer is asked for it', async () => {
    const { client, operator } = await connect();
    const early = await call(client, 'computer', { action: 'click', x: 10, y: 10 });
    expect(early.isError).toBe(true);
    expect(textOf(early)).toContain('There is no screenshot to act on yet');
    expect(operator.executed).toHaveLength(0);
    const shot = await call(client, 'computer', { action: 'screenshot' });
    expect(shot.content.some((part) => part.type === 'image')).toBe(true);
    expect((await call(client, 'computer', { action: 'click', x: 10, y: 10 })).isError).toBeUndefined();
  });

  it('runs a risky action when started with --yes, and records who approved it', async () => {
    const { client, operator, storage, host } = await connect({ host: { approveRiskyActions: true } });
    await call(client, 'screenshot');
    const result = await call(client, 'computer', { action: 'key', keys: 'alt+F4' });
    expect(result.isError).toBeUndefined();
    expect(operator.executed.map((executed) => executed.action)).toContainEqual({ action: 'key', keys: 'alt+F4' });
    const steps = storage.steps.listBySession(host.currentSessionId!);
    expect(steps.at(-1)).toMatchObject({ action: { action: 'key', keys: 'alt+F4' }, error: null });
  });

  it('lists web_search when Tavily is configured', async () => {
    const config: Config = {
      ...DEFAULT_CONFIG,
      model: { ...DEFAULT_CONFIG.model, apiKey: 'sk-test-host' },
      search: { ...DEFAULT_CONFIG.search, tavilyApiKey: 'tvly-test-host' },
    };
    const extraTools = createSearchTools(config, { model: createModelAdapter(config.model) });
    const { client } = await connect({ config, host: { extraTools } });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['screenshot', 'computer', 'get_history_image', 'crop_image', 'list_sessions', 'web_search']);
    expect(tools.at(-1)?.inputSchema).toMatchObject({ type: 'object', required: ['question'] });
  });

  it('groups calls into turns by bursts: a pause ends the turn, the next call begins another in the same session', async () => {
    let firstTurnEnded = () => {};
    const turnEnded = new Promise<void>((resolve) => (firstTurnEnded = resolve));
    const onEvent = (event: AgentEvent) => {
      if (event.type === 'turn-ended') firstTurnEnded();
    };
    const { client, storage, host } = await connect({ host: { idleTurnEndMs: 0, onEvent } });
    await call(client, 'screenshot');
    // The pause after the burst ended its turn (idleTurnEndMs 0): the next call comes after that turn's end.
    await turnEnded;
    await call(client, 'list_sessions');
    const sessionId = host.currentSessionId!;
    const turns = storage.turns.listBySession(sessionId);
    expect(turns.map((turn) => turn.status)).toEqual(['finished', 'running']);
    expect(storage.sessions.get(sessionId)).toMatchObject({ title: 'MCP: host-test' });
    await host.close();
    expect(storage.turns.listBySession(sessionId).map((turn) => turn.status)).toEqual(['finished', 'finished']);
    // The history stays well formed: each tool result follows the assistant message that made its call.
    const roles = storage.messages.listBySession(sessionId).map((message) => message.message.role);
    expect(roles).toEqual(['user', 'assistant', 'tool', 'user', 'assistant', 'tool']);
  });
});

describe('the MCP tool host’s errors and schemas', () => {
  /** Every action computer takes: those it declares to models, and the native tools' press, release and hold. */
  const ALL_COMPUTER_ACTIONS = [...COMPUTER_ACTION_TYPES.slice(0, 8), 'mouse_down', 'mouse_up', 'type', 'key', 'hold_key', 'wait', 'screenshot'];
  /** What the server says when arguments do not fit a tool's schema (malformed-output.ts). */
  const SHAPE_REFUSAL = /^The arguments of \S+ do not fit its schema/;

  it('answers arguments off the schema as an isError result naming the field and why; an unknown tool as -32602', async () => {
    const { client, operator } = await connect();
    await call(client, 'screenshot');

    const badId = await call(client, 'get_history_image', { image_id: 42 });
    expect(badId.isError).toBe(true);
    expect(textOf(badId)).toMatch(SHAPE_REFUSAL);
    expect(textOf(badId)).toMatch(/- image_id: Invalid input: expected string, received number/);

    const clickWithoutPoint = await call(client, 'computer', { action: 'click' });
    expect(clickWithoutPoint.isError).toBe(true);
    expect(textOf(clickWithoutPoint)).toMatch(/- x: Invalid input: expected number, received undefined/);
    const unknownAction = await call(client, 'computer', { action: 'fly' });
    expect(textOf(unknownAction)).toContain('action: unknown value "fly"');
    expect(operator.executed).toHaveLength(0);

    await expect(client.callTool({ name: 'finish', arguments: {} })).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
      message: expect.stringContaining('There is no tool named "finish"'),
    });
  });

  it('publishes computer as one oneOf branch per action, with its required fields, and crops with their count', async () => {
    const { client } = await connect();
    const { tools } = await client.listTools();
    const computer = tools.find((tool) => tool.name === 'computer')!.inputSchema as unknown as { oneOf: Array<{ properties: { action: { const: string } }; required: string[] }> };
    expect(computer.oneOf.map((branch) => branch.properties.action.const)).toEqual(ALL_COMPUTER_ACTIONS);
    expect(computer.oneOf.find((branch) => branch.properties.action.const === 'click')!.required).toEqual(['action', 'x', 'y']);
    const validator = new AjvJsonSchemaValidator();
    const validComputer = validator.getValidator(tools.find((tool) => tool.name === 'computer')!.inputSchema);
    expect(validComputer({ action: 'click' }).valid).toBe(false);
    expect(validComputer({ action: 'mouse_down', x: 3 }).valid).toBe(false);
    expect(validComputer({ action: 'scroll', x: 1, y: 1, scroll_y: 101 }).valid).toBe(false);
    expect(validComputer({ action: 'mouse_down' }).valid).toBe(true);
    const validCrop = validator.getValidator(tools.find((tool) => tool.name === 'crop_image')!.inputSchema);
    expect(validCrop({ crops: {} }).valid).toBe(false);
    const nine = Object.fromEntries(Array.from({ length: 9 }, (_, index) => [`img_${index}`, [0, 0, 1, 1]]));
    expect(validCrop({ crops: nine }).valid).toBe(false);
  });

  it('accepts every argument set a tool’s published schema accepts (proposed at the edges, kept by the SDK’s validator)', async () => {
    const { client } = await connect();
    await call(client, 'screenshot');
    const { tools } = await client.listTools();
    const validator = new AjvJsonSchemaValidator();
    const refusedForShape: string[] = [];
    for (const tool of tools) {
      const valid = validator.getValidator(tool.inputSchema);
      const accepted = proposeValues(tool.inputSchema).filter((argumentsValue) => valid(argumentsValue).valid);
      expect(accepted.length, `argument sets ${tool.name}'s schema accepts`).toBeGreaterThan(0);
      if (tool.name === 'computer') {
        const actions = new Set(accepted.map((argumentsValue) => (argumentsValue as { action: string }).action));
        expect([...actions].sort()).toEqual([...ALL_COMPUTER_ACTIONS].sort());
      }
      for (const argumentsValue of accepted) {
        const result = await call(client, tool.name, argumentsValue as Record<string, unknown>);
        if (SHAPE_REFUSAL.test(textOf(result))) refusedForShape.push(`${tool.name} ${JSON.stringify(argumentsValue).slice(0, 200)}: ${textOf(result).slice(0, 300)}`);
      }
    }
    expect(refusedForShape).toEqual([]);
  });
});

