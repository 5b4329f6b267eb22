/**
 * The Anthropic Messages adapter driving the real `@anthropic-ai/sdk` client against the fake Anthropic
 * server: what is sent (system, tools, content blocks, images in tool results, cache breakpoints, beta
 * headers, the key only as x-api-key), what is assembled from the stream, and how retries, the idle
 * watchdog, cancellation and failures behave.
 */
import Anthropic from '@anthropic-ai/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Message } from '../../src/shared/messages.js';
import { systemText, userText } from '../../src/shared/messages.js';
import { cacheBreakpoints, MAX_CACHE_BREAKPOINTS } from '../../src/main/llm/anthropic-cache-breakpoints.js';
import type { ModelConfig } from '../../src/main/llm/create-model-adapter.js';
import { createModelAdapter } from '../../src/main/llm/create-model-adapter.js';
import { modelProvider } from '../../src/shared/providers.js';
import type { ModelStreamEvent, ModelToolDeclaration } from '../../src/main/llm/model-adapter.js';
import {
  ModelCallCancelledError,
  ModelCallError,
  ModelCapabilityError,
  ModelConfigurationError,
} from '../../src/main/llm/model-errors.js';
import type { FakeAnthropicServer } from '../helpers/fake-anthropic-server.js';
import { startFakeAnthropicServer } from '../helpers/fake-anthropic-server.js';
import { waitFor } from '../helpers/wait-for.js';

const API_KEY = 'sk-ant-test-0123456789abcdefSECRET';
const PIXELS = Buffer.from('fake png bytes').toString('base64');
const CLICK_TOOL: ModelToolDeclaration = {
  name: 'click',
  description: 'Click at a point on the screen',
  parameters: { type: 'object', properties: { x: { type: 'number' }, y: { type: 'number' } }, required: ['x', 'y'] },
};

let server: FakeAnthropicServer;

beforeEach(async () => {
  server = await startFakeAnthropicServer();
});

afterEach(async () => {
  await server.close();
});

function adapterFor(overrides: Partial<ModelConfig> = {}) {
  return createModelAdapter({
    name: 'claude-sonnet-4-5',
    baseUrl: server.baseUrl,
    anthropicApiKey: API_KEY,
    api: 'chat-completions',
    maxRetries: 2,
    timeoutMs: 5_000,
    ...overrides,
  });
}

interface Block {
  type: string;
  text?: string;
  cache_control?: { type: string };
  source?: { type: string; media_type?: string; data?: string };
  content?: Block[];
  tool_use_id?: string;
  id?: string;
  name?: string;
  input?: unknown;
  is_error?: boolean;
}

interface AnthropicBody {
  model: string;
  stream: boolean;
  max_tokens: number;
  system?: Block[];
  tools?: Array<Record<string, unknown>>;
  tool_choice?: { type: string };
  messages: Array<{ role: string; content: Block[] }>;
}

function bodyOf(index: number): AnthropicBody {
  const request = server.requests[index];
  if (request === undefined) throw new Error(`no request ${index}`);
  return request.body as unknown as AnthropicBody;
}

/** Every block of the body that carries a breakpoint, as where it sits. */
function breakpointsOf(body: AnthropicBody): string[] {
  const found: string[] = [];
  body.tools?.forEach((tool, index) => tool.cache_control !== undefined && found.push(`tools[${index}]`));
  body.system?.forEach((block, index) => block.cache_control !== undefined && found.push(`system[${index}]`));
  body.messages.forEach((message, messageIndex) =>
    message.content.forEach((block, blockIndex) => block.cache_control !== undefined && found.push(`messages[${messageIndex}][${blockIndex}]`)),
  );
  return found;
}

/** A two-turn history: an earlier turn (request, call, result with a screenshot, finish), then the running one. */
function historyWithEarlierTurn(): Message[] {
  return [
    systemText('You drive a computer.'),
    userText('Open the settings'),
    { role: 'assistant', parts: [{ type: 'text', text: 'Clicking.' }], toolCalls: [{ id: 'toolu_1', name: 'click', argumentsText: '{"x":1,"y":2}' }] },
    { role: 'tool', toolCallId: 'toolu_1', name: 'click', parts: [{ type: 'text', text: 'Clicked.' }, { type: 'image', mime: 'image/png', data: PIXELS }] },
    { role: 'assistant', parts: [], toolCalls: [{ id: 'toolu_2', name: 'finish', argumentsText: '{"summary":"done"}' }] },
    { role: 'tool', toolCallId: 'toolu_2', name: 'finish', parts: [{ type: 'text', text: 'Finished.' }] },
    userText('Now close it'),
  ];
}

describe('the Anthropic Messages adapter', () => {
  it('is the provider of Claude models by their name, unless configured otherwise', () => {
    expect(modelProvider({ name: 'claude-sonnet-4-5' })).toBe('anthropic');
    expect(modelProvider({ name: 'Claude-3-7-sonnet-latest' })).toBe('anthropic');
    expect(modelProvider({ name: 'anthropic/claude-sonnet-4.5' })).toBe('openai');
    expect(modelProvider({ name: 'gpt-4.1' })).toBe('openai');
    expect(modelProvider({ name: 'claude-sonnet-4-5', provider: 'openai' })).toBe('openai');
    expect(modelProvider({ name: 'my-gateway-model', provider: 'anthropic' })).toBe('anthropic');
  });

  it('refuses to start without ANTHROPIC_API_KEY, and never sends an OpenAI key in its place', () => {
    const build = () => createModelAdapter({ name: 'claude-sonnet-4-5', baseUrl: server.baseUrl, apiKey: 'sk-openai-key-123456', api: 'chat-completions', maxRetries: 0, timeoutMs: 1000 });
    expect(build).toThrow(ModelConfigurationError);
    expect(build).toThrow(/ANTHROPIC_API_KEY/);
    expect(server.requests).toHaveLength(0);
  });

  it('streams a text answer, sends the system prompt apart, and the key only as x-api-key', async () => {
    server.script([{ type: 'answer', text: 'Hello there, friend', usage: { inputTokens: 20, outputTokens: 5, cacheReadInputTokens: 300, cacheCreationInputTokens: 40 } }]);
    const events: ModelStreamEvent[] = [];
    const reply = await adapterFor().complete(
      { messages: [systemText('Be brief.'), userText('Say hello')] },
      { onEvent: (event) => events.push(event) },
    );
    expect(reply.parts).toEqual([{ type: 'text', text: 'Hello there, friend' }]);
    expect(reply.toolCalls).toEqual([]);
    expect(reply.finishReason).toBe('stop');
    expect(reply.usage).toEqual({ inputTokens: 360, outputTokens: 5, cachedInputTokens: 300, cacheWriteInputTokens: 40 });
    expect(events.map((event) => (event.type === 'text-delta' ? event.text : '')).join('')).toBe('Hello there, friend');
    expect(events.length).toBeGreaterThan(1);

    const body = bodyOf(0);
    expect(body.model).toBe('claude-sonnet-4-5');
    expect(body.stream).toBe(true);
    expect(body.max_tokens).toBe(4096);
    expect(body.system).toEqual([{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }]);
    expect(body.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'Say hello', cache_control: { type: 'ephemeral' } }] }]);
    const { headers, path } = server.requests[0]!;
    expect(path.split('?')[0]).toBe('/v1/messages');
    expect(headers['x-api-key']).toBe(API_KEY);
    expect(headers.authorization).toBeUndefined();
    expect(headers['anthropic-beta']).toBeUndefined();
    const otherHeaders = Object.entries(headers).filter(([name]) => name !== 'x-api-key');
    expect(JSON.stringify(otherHeaders)).not.toContain(API_KEY);
    expect(JSON.stringify(server.requests[0]!.body)).not.toContain(API_KEY);
  });

  it('turns streamed tool_use blocks into calls, their input JSON kept as streamed', async () => {
    server.script([
      {
        type: 'answer',
        text: 'Clicking twice.',
        toolUses: [
          { id: 'toolu_a', name: 'click', inputText: '{"x": 10, "y": 20}', pieces: 4 },
          { id: 'toolu_b', name: 'click', inputText: '{"x": 30, "y": 40}' },
        ],
      },
    ]);
    const reply = await adapterFor().complete({ messages: [userText('Click')], tools: [CLICK_TOOL], toolChoice: 'required' });
    expect(reply.finishReason).toBe('tool-calls');
    expect(reply.toolCalls).toEqual([
      { id: 'toolu_a', name: 'click', argumentsText: '{"x": 10, "y": 20}' },
      { id: 'toolu_b', name: 'click', argumentsText: '{"x": 30, "y": 40}' },
    ]);
    const body = bodyOf(0);
    expect(body.tools).toEqual([{ ...omitNothing(CLICK_TOOL), cache_control: { type: 'ephemeral' } }]);
    expect(body.tool_choice).toEqual({ type: 'any' });
  });

  it('sends a history as alternating turns: tool_use with parsed input, tool_result blocks merged, images as base64 inside them', async () => {
    server.script([{ type: 'answer', text: 'ok' }]);
    const messages: Message[] = [
      systemText('System.'),
      userText('Do two things'),
      {
        role: 'assistant',
        parts: [{ type: 'text', text: 'Both at once.' }],
        toolCalls: [
          { id: 'toolu_1', name: 'click', argumentsText: '{"x":1,"y":2}' },
          { id: 'toolu_2', name: 'click', argumentsText: '{"x":3,' },
        ],
      },
      { role: 'tool', toolCallId: 'toolu_1', name: 'click', parts: [{ type: 'text', text: 'Clicked.' }, { type: 'image', imageId: 'img_1', mime: 'image/png', data: PIXELS }] },
      { role: 'tool', toolCallId: 'toolu_2', name: 'click', isError: true, parts: [{ type: 'text', text: 'Malformed arguments.' }] },
      userText('Go on'),
    ];
    await adapterFor().complete({ messages, tools: [CLICK_TOOL] });
    const body = bodyOf(0);
    expect(body.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(body.messages[1]!.content).toEqual([
      { type: 'text', text: 'Both at once.' },
      { type: 'tool_use', id: 'toolu_1', name: 'click', input: { x: 1, y: 2 } },
      { type: 'tool_use', id: 'toolu_2', name: 'click', input: { unparsed_arguments: '{"x":3,' } },
    ]);
    const [first, second, nudge] = body.messages[2]!.content;
    expect(first).toEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_1',
      content: [
        { type: 'text', text: 'Clicked.' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PIXELS } },
      ],
    });
    expect(second).toEqual({ type: 'tool_result', tool_use_id: 'toolu_2', is_error: true, content: [{ type: 'text', text: 'Malformed arguments.' }] });
    expect(nudge).toMatchObject({ type: 'text', text: 'Go on' });
  });

  it('refuses audio and an OpenAI native tool before any network call', async () => {
    const adapter = adapterFor();
    await expect(
      adapter.complete({ messages: [{ role: 'user', parts: [{ type: 'audio', mime: 'audio/wav', data: 'AAAA' }] }] }),
    ).rejects.toThrow(ModelCapabilityError);
    const openAiComputer: ModelToolDeclaration = {
      name: 'computer',
      description: 'OpenAI computer',
      parameters: {},
      native: { kind: 'openai-computer', toolType: 'computer', displayWidth: 1024, displayHeight: 768, environment: 'browser' },
    };
    await expect(adapter.complete({ messages: [userText('hi')], tools: [openAiComputer] })).rejects.toThrow(ModelCapabilityError);
    expect(server.requests).toHaveLength(0);
  });

  it.each([
    ['computer_20241022', 'computer-use-2024-10-22', false, 'claude-3-5-sonnet-20241022'],
    ['computer_20250124', 'computer-use-2025-01-24', false, 'claude-sonnet-4-5'],
    ['computer_20251124', 'computer-use-2025-11-24', true, 'claude-opus-4-5'],
  ] as const)('declares the %s computer tool with its beta header %s', async (toolType, beta, enableZoom, name) => {
    server.script([{ type: 'answer', text: 'ok' }]);
    const computer: ModelToolDeclaration = {
      name: 'computer',
      description: '',
      parameters: {},
      native: { kind: 'anthropic-computer', toolType, displayWidth: 1280, displayHeight: 800, ...(enableZoom ? { enableZoom } : {}) },
    };
    await adapterFor({ name }).complete({ messages: [systemText('S'), userText('hi')], tools: [CLICK_TOOL, computer] });
    const body = bodyOf(0);
    expect(body.tools?.[1]).toEqual({
      type: toolType,
      name: 'computer',
      display_width_px: 1280,
      display_height_px: 800,
      ...(enableZoom ? { enable_zoom: true } : {}),
    });
    expect(server.requests[0]!.headers['anthropic-beta']).toBe(beta);
    expect(JSON.stringify(body)).not.toContain('betas');
  });

  it('places the breakpoints where the zones say: system, end of the earlier turns, latest step; never more than four', async () => {
    server.script([{ type: 'answer', text: 'ok' }]);
    const messages = historyWithEarlierTurn();
    await adapterFor().complete({ messages, tools: [CLICK_TOOL], cacheBoundaries: { earlierTurnsEnd: 5 } });
    const body = bodyOf(0);
    expect(breakpointsOf(body)).toEqual(['system[0]', 'messages[4][0]', 'messages[4][1]']);
    expect(breakpointsOf(body).length).toBeLessThanOrEqual(MAX_CACHE_BREAKPOINTS);
    // messages[4] is the user turn holding the earlier turn's last tool result and the new request.
    expect(body.messages[4]!.content[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_2' });
    expect(body.messages[4]!.content[1]).toMatchObject({ type: 'text', text: 'Now close it' });
  });

  it("keeps a turn's second request byte-identical to its first up to the earlier-turns breakpoint", async () => {
    server.script([
      { type: 'answer', toolUses: [{ id: 'toolu_3', name: 'click', inputText: '{"x":5,"y":6}' }] },
      { type: 'answer', text: 'done' },
    ]);
    const adapter = adapterFor();
    const first = historyWithEarlierTurn();
    const reply = await adapter.complete({ messages: first, tools: [CLICK_TOOL], cacheBoundaries: { earlierTurnsEnd: 5 } });
    const second: Message[] = [
      ...first,
      { role: 'assistant', parts: reply.parts, toolCalls: reply.toolCalls },
      { role: 'tool', toolCallId: 'toolu_3', name: 'click', parts: [{ type: 'text', text: 'Clicked.' }, { type: 'image', mime: 'image/png', data: PIXELS }] },
    ];
    await adapter.complete({ messages: second, tools: [CLICK_TOOL], cacheBoundaries: { earlierTurnsEnd: 5 } });

    const [one, two] = [bodyOf(0), bodyOf(1)];
    expect(breakpointsOf(two)).toEqual(['system[0]', 'messages[4][0]', 'messages[6][0]']);
    // Everything up to and including the earlier-turns breakpoint (messages[4][0]) is the same bytes.
    const prefix = (body: AnthropicBody) =>
      JSON.stringify({ tools: body.tools, system: body.system, messages: [...body.messages.slice(0, 4), { ...body.messages[4], content: body.messages[4]!.content.slice(0, 1) }] });
    expect(prefix(two)).toBe(prefix(one));
    expect(prefix(two)).toContain('cache_control');
  });

  it('retries 429 and 529 with the client backoff, then answers', async () => {
    server.script([
      { type: 'error', status: 429, retryAfter: 0 },
      { type: 'error', status: 529, message: 'Overloaded' },
      { type: 'answer', text: 'finally' },
    ]);
    const reply = await adapterFor({ maxRetries: 2 }).complete({ messages: [userText('hi')] });
    expect(reply.parts).toEqual([{ type: 'text', text: 'finally' }]);
    expect(server.requests).toHaveLength(3);
  });

  it('gives up on 529 after the configured retries, as a retryable error', async () => {
    server.script([
      { type: 'error', status: 529, message: 'Overloaded' },
      { type: 'error', status: 529, message: 'Overloaded' },
    ]);
    const error = await adapterFor({ maxRetries: 1 }).complete({ messages: [userText('hi')] }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelCallError);
    expect((error as ModelCallError).status).toBe(529);
    expect((error as ModelCallError).retryable).toBe(true);
    expect((error as Error).message).toContain('Overloaded');
    expect(server.requests).toHaveLength(2);
  });

  it('says to check ANTHROPIC_API_KEY on a 401, without the key, and does not retry', async () => {
    server.script([{ type: 'error', status: 401, message: `invalid x-api-key ${API_KEY}` }]);
    const error = await adapterFor().complete({ messages: [userText('hi')] }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelCallError);
    const message = (error as Error).message;
    expect(message).toContain('HTTP 401');
    expect(message).toContain('ANTHROPIC_API_KEY');
    expect(message).not.toContain(API_KEY);
    expect((error as ModelCallError).retryable).toBe(false);
    expect(server.requests).toHaveLength(1);
  });

  it('aborts a stream that goes silent, through the idle watchdog', async () => {
    server.script([{ type: 'stall' }]);
    const error = await adapterFor({ timeoutMs: 300, maxRetries: 0 }).complete({ messages: [userText('hi')] }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelCallError);
    expect((error as Error).message).toMatch(/stopped sending mid-answer for 300 ms/);
  });

  it('stops when the caller cancels mid-stream', async () => {
    server.script([{ type: 'stall' }]);
    const controller = new AbortController();
    const call = adapterFor({ timeoutMs: 10_000 }).complete({ messages: [userText('hi')] }, { signal: controller.signal });
    await waitFor(() => server.requests.length === 1, { description: 'the request reaching the fake' });
    controller.abort();
    await expect(call).rejects.toThrow(ModelCallCancelledError);
  });

  it('survives hostile streams: malformed tool input, unknown blocks and deltas, huge strings, missing fields', async () => {
    const huge = 'x'.repeat(2_000_000);
    server.script([
      {
        type: 'events',
        events: [
          { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [], stop_reason: null, usage: { input_tokens: 'many', output_tokens: -1 } } },
          { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '' } },
          { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'hmm' } },
          { type: 'content_block_stop', index: 0 },
          { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'toolu_x', name: 'click', input: {} } },
          { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"x": 1, "y": ' } },
          { type: 'content_block_stop', index: 1 },
          { type: 'content_block_start', index: 2, content_block: { type: 'mystery_block', payload: huge } },
          { type: 'content_block_delta', index: 2, delta: { type: 'mystery_delta', stuff: 1 } },
          { type: 'content_block_delta', index: 9, delta: { type: 'input_json_delta', partial_json: 'orphan' } },
          { type: 'content_block_start', index: 3, content_block: { type: 'text', text: huge } },
          { type: 'content_block_start', index: 4, content_block: { type: 'tool_use', name: 42 } },
          { type: 'unknown_event', anything: true },
          { type: 'message_delta', delta: { stop_reason: 'brand_new_reason' }, usage: { output_tokens: 7 } },
          { type: 'message_stop' },
        ],
      },
    ]);
    const reply = await adapterFor().complete({ messages: [userText('hi')], tools: [CLICK_TOOL] });
    // A thinking block without its signature cannot go back: it is not kept.
    expect(reply.toolCalls[0]).toEqual({ id: 'toolu_x', name: 'click', argumentsText: '{"x": 1, "y": ' });
    expect(reply.toolCalls[1]).toMatchObject({ name: 'unnamed', argumentsText: '{}' });
    expect(reply.parts).toEqual([{ type: 'text', text: huge }]);
    expect(reply.finishReason).toBe('tool-calls');
    expect(reply.usage).toEqual({ inputTokens: 0, outputTokens: 7 });
  });

  it('the fake answers plain (non-streamed) requests in the Message shape the client reads', async () => {
    server.script([{ type: 'answer', text: 'plain', toolUses: [{ id: 'toolu_p', name: 'click', inputText: '{"x":1,"y":2}' }] }]);
    const client = new Anthropic({ apiKey: API_KEY, baseURL: server.baseUrl, maxRetries: 0 });
    const message = await client.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] });
    expect(message.content).toEqual([
      { type: 'text', text: 'plain' },
      { type: 'tool_use', id: 'toolu_p', name: 'click', input: { x: 1, y: 2 } },
    ]);
    expect(message.stop_reason).toBe('tool_use');
  });
});

describe('cacheBreakpoints', () => {
  it('marks the system prompt, the end of the earlier turns and the latest message, ascending', () => {
    expect(cacheBreakpoints(historyWithEarlierTurn(), { earlierTurnsEnd: 5 })).toEqual({ systemPrompt: true, messageIndexes: [5, 6] });
  });

  it('has no earlier-turns breakpoint in a first turn, whose boundary is the system prompt', () => {
    expect(cacheBreakpoints([systemText('S'), userText('go')], { earlierTurnsEnd: 0 })).toEqual({ systemPrompt: true, messageIndexes: [1] });
  });

  it('marks the settled turns, now and as the previous turn saw them, and drops the system prompt only when five ends fall apart', () => {
    const messages = [...historyWithEarlierTurn(), userText('A third request'), userText('A fourth request')];
    // Settled turns end at 5, the previous turn's at 3: room for all but the system prompt, which any read of them includes.
    expect(cacheBreakpoints(messages, { earlierTurnsEnd: 7, settledTurnsEnd: 5, previouslySettledTurnsEnd: 3 })).toEqual({
      systemPrompt: false,
      messageIndexes: [3, 5, 7, 8],
    });
    // When two of them coincide, the system prompt keeps its breakpoint; never more than four in all.
    for (const boundaries of [{ earlierTurnsEnd: 7, settledTurnsEnd: 5, previouslySettledTurnsEnd: 5 }, { earlierTurnsEnd: 7, settledTurnsEnd: 7 }]) {
      const placed = cacheBreakpoints(messages, boundaries);
      expect(placed).toEqual({ systemPrompt: true, messageIndexes: [5, 7, 8].filter((index) => index !== 5 || boundaries.settledTurnsEnd === 5) });
      expect(placed.messageIndexes.length + (placed.systemPrompt ? 1 : 0)).toBeLessThanOrEqual(MAX_CACHE_BREAKPOINTS);
    }
  });

  it('marks only the latest message when the zones are unknown, and merges a boundary on the latest message', () => {
    const messages = historyWithEarlierTurn();
    expect(cacheBreakpoints(messages)).toEqual({ systemPrompt: true, messageIndexes: [6] });
    expect(cacheBreakpoints(messages, { earlierTurnsEnd: 6 })).toEqual({ systemPrompt: true, messageIndexes: [6] });
  });
});

function omitNothing(tool: ModelToolDeclaration): Record<string, unknown> {
  return { name: tool.name, description: tool.description, input_schema: tool.parameters };
}
