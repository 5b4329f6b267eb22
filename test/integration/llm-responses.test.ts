/**
 * The Responses API adapter driving the real `openai` client against the fake model server.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Message } from '../../src/shared/messages.js';
import { userText } from '../../src/shared/messages.js';
import { createModelAdapter } from '../../src/main/llm/create-model-adapter.js';
import type { ModelConfig } from '../../src/main/llm/create-model-adapter.js';
import type { ModelStreamEvent } from '../../src/main/llm/model-adapter.js';
import { ModelCallCancelledError, ModelCallError, ModelCapabilityError } from '../../src/main/llm/model-errors.js';
import type { FakeOpenAiServer } from '../helpers/fake-openai-server.js';
import { startFakeOpenAiServer } from '../helpers/fake-openai-server.js';

const API_KEY = 'sk-test-responses-SECRET-42';
const PIXELS = Buffer.from('fake png bytes').toString('base64');

let server: FakeOpenAiServer;

beforeEach(async () => {
  server = await startFakeOpenAiServer();
});

afterEach(async () => {
  await server.close();
});

function adapterFor(overrides: Partial<ModelConfig> = {}) {
  return createModelAdapter({
    name: 'gpt-5',
    baseUrl: server.baseUrl,
    apiKey: API_KEY,
    api: 'responses',
    maxRetries: 2,
    timeoutMs: 5_000,
    ...overrides,
  });
}

interface ResponsesBody {
  model: string;
  stream: boolean;
  store: boolean;
  input: Array<Record<string, unknown>>;
  tools?: Array<Record<string, unknown>>;
  max_output_tokens?: number;
}

function bodyOf(index: number): ResponsesBody {
  return server.requests[index]?.body as ResponsesBody;
}

describe('Responses adapter through a fake OpenAI-compatible server', () => {
  it('sends function tools and the history as input items, with tool images as input_image', async () => {
    server.script([{ type: 'answer', text: 'The dialog is open.' }]);
    const messages: Message[] = [
      { role: 'system', parts: [{ type: 'text', text: 'You operate a computer.' }] },
      {
        role: 'user',
        parts: [
          { type: 'text', text: 'Look' },
          { type: 'image', mime: 'image/png', data: PIXELS },
        ],
      },
      {
        role: 'assistant',
        parts: [{ type: 'text', text: 'Taking a screenshot.' }],
        toolCalls: [{ id: 'call_a', name: 'screenshot', argumentsText: '{}' }],
      },
      {
        role: 'tool',
        toolCallId: 'call_a',
        name: 'screenshot',
        parts: [
          { type: 'text', text: 'Screenshot img_0000000000aa' },
          { type: 'image', imageId: 'img_0000000000aa', mime: 'image/png', data: PIXELS },
        ],
      },
    ];
    await adapterFor().complete({
      messages,
      tools: [{ name: 'screenshot', description: 'Capture the screen', parameters: { type: 'object', properties: {} } }],
      maxOutputTokens: 500,
    });

    const request = server.requests[0];
    expect(request?.path).toBe('/v1/responses');
    expect(request?.headers.authorization).toBe(`Bearer ${API_KEY}`);
    const body = bodyOf(0);
    expect(body).toMatchObject({ model: 'gpt-5', stream: true, store: false, max_output_tokens: 500 });
    expect(body.tools).toEqual([
      { type: 'function', name: 'screenshot', description: 'Capture the screen', parameters: { type: 'object', properties: {} }, strict: false },
    ]);
    expect(body.input).toEqual([
      { role: 'system', content: 'You operate a computer.' },
      {
        role: 'user',
        content: [
          { type: 'input_text', text: 'Look' },
          { type: 'input_image', image_url: `data:image/png;base64,${PIXELS}`, detail: 'auto' },
        ],
      },
      { role: 'assistant', content: 'Taking a screenshot.' },
      { type: 'function_call', call_id: 'call_a', name: 'screenshot', arguments: '{}' },
      {
        type: 'function_call_output',
        call_id: 'call_a',
        output: [
          { type: 'input_text', text: 'Screenshot img_0000000000aa' },
          { type: 'input_image', image_url: `data:image/png;base64,${PIXELS}`, detail: 'auto' },
        ],
      },
    ]);
  });

  it('streams text deltas, assembles function calls from their events and records usage', async () => {
    server.script([
      {
        type: 'answer',
        textPieces: ['Clicking ', 'the button.'],
        toolCalls: [
          { id: 'call_1', name: 'click', arguments: '{"x": 10, "y": 20}', argumentPieces: 4 },
          { id: 'call_2', name: 'wait', arguments: '{"seconds": 1}' },
        ],
        usage: { inputTokens: 900, outputTokens: 40, cachedInputTokens: 512 },
      },
    ]);
    const events: ModelStreamEvent[] = [];
    const reply = await adapterFor().complete({ messages: [userText('Click it')] }, { onEvent: (event) => events.push(event) });

    expect(events).toEqual([
      { type: 'text-delta', text: 'Clicking ' },
      { type: 'text-delta', text: 'the button.' },
    ]);
    expect(reply.parts).toEqual([{ type: 'text', text: 'Clicking the button.' }]);
    expect(reply.toolCalls).toEqual([
      { id: 'call_1', name: 'click', argumentsText: '{"x": 10, "y": 20}' },
      { id: 'call_2', name: 'wait', argumentsText: '{"seconds": 1}' },
    ]);
    expect(reply.usage).toEqual({ inputTokens: 900, outputTokens: 40, cachedInputTokens: 512 });
    expect(reply.finishReason).toBe('tool-calls');
  });

  it('reports an answer cut by the output limit as finishing for length', async () => {
    server.script([{ type: 'answer', text: 'A long story that', truncated: true }]);
    const reply = await adapterFor().complete({ messages: [userText('Tell me')] });
    expect(reply.finishReason).toBe('length');
    expect(reply.parts).toEqual([{ type: 'text', text: 'A long story that' }]);
  });

  it('retries 429 and 500, then succeeds', async () => {
    server.script([{ type: 'error', status: 429 }, { type: 'error', status: 500 }, { type: 'answer', text: 'ok' }]);
    const reply = await adapterFor().complete({ messages: [userText('Hi')] });
    expect(reply.parts).toEqual([{ type: 'text', text: 'ok' }]);
    expect(server.requests).toHaveLength(3);
  });

  it('cancels mid-stream', async () => {
    server.script([{ type: 'stall', textPieces: ['Half an '] }]);
    const controller = new AbortController();
    const pending = adapterFor().complete(
      { messages: [userText('Hi')] },
      { signal: controller.signal, onEvent: () => controller.abort() },
    );
    await expect(pending).rejects.toBeInstanceOf(ModelCallCancelledError);
    expect(await server.requests[0]?.closed).toBe('aborted');
  });

  it('refuses audio before any request: the Responses API takes none', async () => {
    const adapter = adapterFor({ name: 'gpt-4o-audio-preview' });
    const failure = await adapter
      .complete({ messages: [{ role: 'user', parts: [{ type: 'audio', mime: 'audio/wav', data: PIXELS }] }] })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ModelCapabilityError);
    expect((failure as Error).message).toContain('chat-completions');
    expect(server.requests).toHaveLength(0);
  });

  it('passes a generated image on as a media event when the profile allows image output', async () => {
    server.script([{ type: 'answer', text: 'Drawn.', images: [PIXELS] }]);
    const adapter = createModelAdapter(
      { name: 'gpt-5', baseUrl: server.baseUrl, apiKey: API_KEY, api: 'responses', maxRetries: 0, timeoutMs: 5_000 },
      { modalities: { output: ['text', 'image'] } },
    );
    const events: ModelStreamEvent[] = [];
    const reply = await adapter.complete({ messages: [userText('Draw')] }, { onEvent: (event) => events.push(event) });
    const media = { type: 'image', mime: 'image/png', data: PIXELS };
    expect(events.at(-1)).toEqual({ type: 'media', part: media });
    expect(reply.parts).toEqual([{ type: 'text', text: 'Drawn.' }, media]);
    expect(bodyOf(0).tools).toEqual([{ type: 'image_generation' }]);
  });

  it('keeps the key out of a failure message', async () => {
    server.script([{ type: 'error', status: 403, message: `Key ${API_KEY} lacks access to gpt-5` }]);
    const failure = await adapterFor().complete({ messages: [userText('Hi')] }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ModelCallError);
    expect((failure as Error).message).toContain('HTTP 403');
    expect((failure as Error).message).not.toContain(API_KEY);
  });
});
