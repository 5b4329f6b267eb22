/**
 * The Chat Completions adapter driving the real `openai` client against the fake model server: what is
 * sent (tools, image data URLs, the follow-up image message), what is assembled from the stream, and
 * how retries, cancellation and failures behave.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { userText } from '../../src/shared/messages.js';
import type { Message } from '../../src/shared/messages.js';
import { createModelAdapter } from '../../src/main/llm/create-model-adapter.js';
import type { ModelConfig } from '../../src/main/llm/create-model-adapter.js';
import type { ModelStreamEvent, ModelToolDeclaration } from '../../src/main/llm/model-adapter.js';
import {
  ModelCallCancelledError,
  ModelCallError,
  ModelCapabilityError,
} from '../../src/main/llm/model-errors.js';
import type { FakeOpenAiServer } from '../helpers/fake-openai-server.js';
import { startFakeOpenAiServer } from '../helpers/fake-openai-server.js';
import { waitFor } from '../helpers/wait-for.js';

const API_KEY = 'sk-test-0123456789abcdefSECRET';
const PIXELS = Buffer.from('fake png bytes').toString('base64');
const CLICK_TOOL: ModelToolDeclaration = {
  name: 'click',
  description: 'Click at a point on the screen',
  parameters: { type: 'object', properties: { x: { type: 'number' }, y: { type: 'number' } }, required: ['x', 'y'] },
};

let server: FakeOpenAiServer;

beforeEach(async () => {
  server = await startFakeOpenAiServer();
});

afterEach(async () => {
  await server.close();
});

function adapterFor(overrides: Partial<ModelConfig> = {}) {
  return createModelAdapter({
    name: 'gpt-4.1',
    baseUrl: server.baseUrl,
    apiKey: API_KEY,
    api: 'chat-completions',
    maxRetries: 2,
    timeoutMs: 5_000,
    ...overrides,
  });
}

interface ChatBody {
  model: string;
  stream: boolean;
  stream_options?: { include_usage?: boolean };
  tools?: Array<{ type: string; function: { name: string; description: string; parameters: unknown } }>;
  messages: Array<{ role: string; content: unknown; tool_call_id?: string; tool_calls?: unknown[] }>;
  max_tokens?: number;
}

function bodyOf(index: number): ChatBody {
  return server.requests[index]?.body as ChatBody;
}

describe('Chat Completions adapter through a fake OpenAI-compatible server', () => {
  it('sends the model, the messages, the key and the tools as function tools, streaming with usage', async () => {
    server.script([{ type: 'answer', text: 'Done.' }]);
    const reply = await adapterFor().complete({
      messages: [userText('Open the settings')],
      tools: [CLICK_TOOL],
      maxOutputTokens: 300,
    });

    expect(reply.parts).toEqual([{ type: 'text', text: 'Done.' }]);
    const request = server.requests[0];
    expect(request?.path).toBe('/v1/chat/completions');
    expect(request?.headers.authorization).toBe(`Bearer ${API_KEY}`);
    const body = bodyOf(0);
    expect(body.model).toBe('gpt-4.1');
    expect(body.stream).toBe(true);
    expect(body.stream_options).toEqual({ include_usage: true });
    expect(body.messages).toEqual([{ role: 'user', content: 'Open the settings' }]);
    expect(body.tools).toEqual([
      { type: 'function', function: { name: 'click', description: CLICK_TOOL.description, parameters: CLICK_TOOL.parameters } },
    ]);
    // A compatible server (not api.openai.com) gets the widely understood max_tokens.
    expect(body.max_tokens).toBe(300);
  });

  it('sends user images as data URLs and tool images in a user message after the tool messages', async () => {
    server.script([{ type: 'answer', text: 'I see it.' }]);
    const messages: Message[] = [
      { role: 'system', parts: [{ type: 'text', text: 'You operate a computer.' }] },
      {
        role: 'user',
        parts: [
          { type: 'text', text: 'What is on screen?' },
          { type: 'image', imageId: 'img_000000000001', mime: 'image/png', data: PIXELS },
        ],
      },
      {
        role: 'assistant',
        parts: [],
        toolCalls: [
          { id: 'call_a', name: 'screenshot', argumentsText: '{}' },
          { id: 'call_b', name: 'zoom', argumentsText: '{"x":1}' },
        ],
      },
      {
        role: 'tool',
        toolCallId: 'call_a',
        name: 'screenshot',
        parts: [{ type: 'image', imageId: 'img_000000000002', mime: 'image/jpeg', data: PIXELS }],
      },
      { role: 'tool', toolCallId: 'call_b', name: 'zoom', parts: [{ type: 'text', text: 'zoomed' }] },
    ];
    await adapterFor().complete({ messages });

    const sent = bodyOf(0).messages;
    expect(sent.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'tool', 'tool', 'user']);
    expect(sent[1]?.content).toEqual([
      { type: 'text', text: 'What is on screen?' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${PIXELS}` } },
    ]);
    expect(sent[2]?.tool_calls).toEqual([
      { id: 'call_a', type: 'function', function: { name: 'screenshot', arguments: '{}' } },
      { id: 'call_b', type: 'function', function: { name: 'zoom', arguments: '{"x":1}' } },
    ]);
    expect(sent[3]).toMatchObject({ role: 'tool', tool_call_id: 'call_a' });
    expect(sent[3]?.content).toContain('next user message');
    expect(sent[5]?.content).toEqual([
      { type: 'text', text: 'Attachment returned by tool "screenshot" (call call_a):' },
      { type: 'image_url', image_url: { url: `data:image/jpeg;base64,${PIXELS}` } },
    ]);
  });

  it('streams text deltas to the caller and records usage', async () => {
    server.script([
      { type: 'answer', textPieces: ['The ', 'button ', 'is blue.'], usage: { inputTokens: 1200, outputTokens: 7, cachedInputTokens: 1024 } },
    ]);
    const events: ModelStreamEvent[] = [];
    const reply = await adapterFor().complete({ messages: [userText('Describe')] }, { onEvent: (event) => events.push(event) });

    expect(events).toEqual([
      { type: 'text-delta', text: 'The ' },
      { type: 'text-delta', text: 'button ' },
      { type: 'text-delta', text: 'is blue.' },
    ]);
    expect(reply.parts).toEqual([{ type: 'text', text: 'The button is blue.' }]);
    expect(reply.usage).toEqual({ inputTokens: 1200, outputTokens: 7, cachedInputTokens: 1024 });
    expect(reply.finishReason).toBe('stop');
    expect(reply.model).toBe('gpt-4.1');
  });

  it('assembles several tool calls whose arguments arrive split across chunks, even interleaved', async () => {
    const first = '{"x": 120, "y": 455}';
    const second = '{"text": "hello world", "submit": true}';
    server.script([
      {
        type: 'answer',
        toolCalls: [
          { id: 'call_1', name: 'click', arguments: first, argumentPieces: 4 },
          { id: 'call_2', name: 'type_text', arguments: second, argumentPieces: 5 },
        ],
        interleaveToolCalls: true,
      },
      { type: 'answer', toolCalls: [{ id: 'call_3', name: 'click', arguments: '{"x": 1,', argumentPieces: 2 }] },
    ]);
    const adapter = adapterFor();
    const reply = await adapter.complete({ messages: [userText('Go')], tools: [CLICK_TOOL] });
    expect(reply.toolCalls).toEqual([
      { id: 'call_1', name: 'click', argumentsText: first },
      { id: 'call_2', name: 'type_text', argumentsText: second },
    ]);
    expect(reply.finishReason).toBe('tool-calls');

    // Malformed arguments are kept verbatim, so the agent can tell the model what was wrong.
    const malformed = await adapter.complete({ messages: [userText('Go')], tools: [CLICK_TOOL] });
    expect(malformed.toolCalls).toEqual([{ id: 'call_3', name: 'click', argumentsText: '{"x": 1,' }]);
  });

  it('retries a 429 (honouring its retry header) and then succeeds', async () => {
    server.script([{ type: 'error', status: 429, message: 'Rate limit reached' }, { type: 'answer', text: 'ok' }]);
    const reply = await adapterFor().complete({ messages: [userText('Hi')] });
    expect(reply.parts).toEqual([{ type: 'text', text: 'ok' }]);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]?.headers['x-stainless-retry-count']).toBe('1');
    expect(server.requests[1]?.rawBody).toBe(server.requests[0]?.rawBody);
  });

  it('retries 500s and reports the last one once retries run out', async () => {
    server.script([
      { type: 'error', status: 500, message: 'Upstream exploded' },
      { type: 'error', status: 503, message: 'Overloaded' },
      { type: 'answer', text: 'recovered' },
    ]);
    const recovered = await adapterFor().complete({ messages: [userText('Hi')] });
    expect(recovered.parts).toEqual([{ type: 'text', text: 'recovered' }]);
    expect(server.requests).toHaveLength(3);

    server.script([
      { type: 'error', status: 500 },
      { type: 'error', status: 500 },
      { type: 'error', status: 502, message: 'Bad gateway' },
    ]);
    const failure = await adapterFor().complete({ messages: [userText('Hi')] }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ModelCallError);
    expect((failure as ModelCallError).status).toBe(502);
    expect((failure as ModelCallError).retryable).toBe(true);
    expect((failure as Error).message).toContain('HTTP 502 after 3 attempts: Bad gateway');
    expect(server.requests).toHaveLength(6);
  });

  it('does not retry a 400, and says what the endpoint said', async () => {
    server.script([{ type: 'error', status: 400, message: "Invalid value for 'tools'" }]);
    const failure = await adapterFor().complete({ messages: [userText('Hi')] }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ModelCallError);
    expect((failure as Error).message).toContain("HTTP 400: Invalid value for 'tools'");
    expect(server.requests).toHaveLength(1);
  });

  it('a base URL without /v1 (as vLLM and Ollama users often write it) 404s, and the message says to add /v1', async () => {
    const bare = server.baseUrl.replace(/\/v1$/, '');
    // The fake serves only /v1/…; anything else is its 404, as a real vLLM or Ollama server answers.
    server.script([{ type: 'answer', textPieces: ['unused'] }]);
    const failure = await adapterFor({ baseUrl: bare }).complete({ messages: [userText('Hi')] }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ModelCallError);
    expect((failure as Error).message).toContain('HTTP 404');
    expect((failure as Error).message).toContain(`so try --base-url ${bare}/v1`);
    // With the version in place, a 404 (an unknown model) suggests nothing about the path.
    server.script([{ type: 'error', status: 404, message: 'The model `gpt-9` does not exist' }]);
    const unknown = await adapterFor().complete({ messages: [userText('Hi')] }).catch((error: unknown) => error);
    expect((unknown as Error).message).toMatch(/HTTP 404: The model `gpt-9` does not exist \(check the model name and the base URL\)$/);
  });

  it('retries a call that times out before answering, then reports the timeout', async () => {
    server.script([{ type: 'hang' }, { type: 'hang' }]);
    const failure = await adapterFor({ timeoutMs: 300, maxRetries: 1 })
      .complete({ messages: [userText('Hi')] })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ModelCallError);
    expect((failure as Error).message).toContain('did not answer in time (2 attempts)');
    expect(server.requests).toHaveLength(2);
  });

  it('ends a stream that goes silent mid-answer with a clear error', async () => {
    server.script([{ type: 'stall', textPieces: ['Thinking'] }]);
    const failure = await adapterFor({ timeoutMs: 300 })
      .complete({ messages: [userText('Hi')] })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ModelCallError);
    expect((failure as Error).message).toContain('stopped sending mid-answer');
    expect(await server.requests[0]?.closed).toBe('aborted');
  });

  it('cancels mid-stream when the signal aborts, closing the connection', async () => {
    server.script([{ type: 'stall', textPieces: ['Working ', 'on it'] }]);
    const controller = new AbortController();
    const events: ModelStreamEvent[] = [];
    const failure = await adapterFor()
      .complete(
        { messages: [userText('Hi')] },
        {
          signal: controller.signal,
          onEvent: (event) => {
            events.push(event);
            if (events.length === 2) controller.abort();
          },
        },
      )
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ModelCallCancelledError);
    expect((failure as Error).message).toBe('The call to model "gpt-4.1" was cancelled.');
    expect(await server.requests[0]?.closed).toBe('aborted');
  });

  it('cancels a call that is waiting for the first byte, and one aborted before it starts', async () => {
    server.script([{ type: 'hang' }]);
    const controller = new AbortController();
    const pending = adapterFor().complete({ messages: [userText('Hi')] }, { signal: controller.signal });
    await waitFor(() => server.requests.length > 0, { description: 'the call to reach the model server', intervalMs: 5 });
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(ModelCallCancelledError);

    const alreadyAborted = AbortSignal.abort();
    await expect(adapterFor().complete({ messages: [userText('Hi')] }, { signal: alreadyAborted })).rejects.toBeInstanceOf(
      ModelCallCancelledError,
    );
    expect(server.requests).toHaveLength(1);
  });

  it('refuses an image for a text-only model before any request, naming the model', async () => {
    const adapter = adapterFor({ name: 'gpt-3.5-turbo' });
    const failure = await adapter
      .complete({
        messages: [
          { role: 'tool', toolCallId: 'call_1', name: 'screenshot', parts: [{ type: 'image', mime: 'image/png', data: PIXELS }] },
        ],
      })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ModelCapabilityError);
    expect((failure as Error).message).toContain('Model "gpt-3.5-turbo" does not accept images');
    expect(server.requests).toHaveLength(0);
  });

  it('never puts the API key in an error message, even when the endpoint echoes it', async () => {
    server.script([
      { type: 'error', status: 401, message: `Incorrect API key provided: ${API_KEY}` },
      { type: 'error', status: 400, message: 'Key local-vllm-secret is not allowed to use this model' },
    ]);
    const unauthorized = await adapterFor().complete({ messages: [userText('Hi')] }).catch((error: unknown) => error);
    expect(unauthorized).toBeInstanceOf(ModelCallError);
    expect((unauthorized as Error).message).toContain('HTTP 401');
    expect((unauthorized as Error).message).toContain('OPENAI_API_KEY');
    expect(JSON.stringify(unauthorized, Object.getOwnPropertyNames(unauthorized))).not.toContain(API_KEY);
    expect(String((unauthorized as Error).stack)).not.toContain(API_KEY);

    // Keys of other shapes (a vLLM server's own) are removed too: the adapter knows the configured key.
    const badRequest = await adapterFor({ apiKey: 'local-vllm-secret' })
      .complete({ messages: [userText('Hi')] })
      .catch((error: unknown) => error);
    expect((badRequest as Error).message).toContain('HTTP 400');
    expect((badRequest as Error).message).not.toContain('local-vllm-secret');
  });

  it('passes generated images on as one media event each', async () => {
    server.script([{ type: 'answer', text: 'Here it is.', images: [PIXELS] }]);
    const events: ModelStreamEvent[] = [];
    const adapter = createModelAdapter(
      { name: 'google/gemini-2.5-flash-image', baseUrl: server.baseUrl, apiKey: API_KEY, api: 'chat-completions', maxRetries: 0, timeoutMs: 5_000 },
      { modalities: { output: ['text', 'image'] } },
    );
    const reply = await adapter.complete({ messages: [userText('Draw a cat')] }, { onEvent: (event) => events.push(event) });
    const media = { type: 'image', mime: 'image/png', data: PIXELS };
    expect(events.filter((event) => event.type === 'media')).toEqual([{ type: 'media', part: media }]);
    expect(reply.parts).toEqual([{ type: 'text', text: 'Here it is.' }, media]);
    expect((bodyOf(0) as unknown as { modalities: string[] }).modalities).toEqual(['image', 'text']);
  });
});
