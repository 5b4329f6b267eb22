/**
 * The fake model server's non-streaming replies, read by the real `openai` client (the adapters always
 * stream, so this is the only place that checks them), and its behaviour when a test under-scripts.
 */
import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FakeOpenAiServer } from '../helpers/fake-openai-server.js';
import { startFakeOpenAiServer } from '../helpers/fake-openai-server.js';

let server: FakeOpenAiServer;
let client: OpenAI;

beforeEach(async () => {
  server = await startFakeOpenAiServer();
  client = new OpenAI({ apiKey: 'sk-test-fake', baseURL: server.baseUrl, maxRetries: 0 });
});

afterEach(async () => {
  await server.close();
});

describe('fake OpenAI server', () => {
  it('answers a non-streaming chat completion with text, tool calls and usage', async () => {
    server.script([{ type: 'answer', text: 'Sure.', toolCalls: [{ id: 'call_1', name: 'click', arguments: '{"x":1}' }] }]);
    const completion = await client.chat.completions.create({ model: 'gpt-4.1', messages: [{ role: 'user', content: 'Hi' }] });
    const message = completion.choices[0]?.message;
    expect(message?.content).toBe('Sure.');
    expect(message?.tool_calls).toEqual([{ id: 'call_1', type: 'function', function: { name: 'click', arguments: '{"x":1}' } }]);
    expect(completion.choices[0]?.finish_reason).toBe('tool_calls');
    expect(completion.usage?.prompt_tokens).toBe(10);
  });

  it('answers a non-streaming response, which the client reads as output_text', async () => {
    server.script([{ type: 'answer', text: 'Hello there.' }]);
    const response = await client.responses.create({ model: 'gpt-5', input: 'Hi' });
    expect(response.output_text).toBe('Hello there.');
    expect(response.usage?.output_tokens).toBe(5);
  });

  it('lets a scripted function answer from the request it receives', async () => {
    server.script([
      (request) => ({ type: 'answer', text: `You sent ${(request.body as { messages: unknown[] }).messages.length} messages.` }),
    ]);
    const completion = await client.chat.completions.create({
      model: 'gpt-4.1',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi' },
      ],
    });
    expect(completion.choices[0]?.message.content).toBe('You sent 2 messages.');
  });

  it('fails a request that has no scripted reply, without inviting a retry', async () => {
    const failure = await client.chat.completions
      .create({ model: 'gpt-4.1', messages: [{ role: 'user', content: 'Hi' }] })
      .catch((error: unknown) => error);
    expect(String(failure)).toContain('no scripted reply left for request 1');
    expect(server.requests).toHaveLength(1);
    expect(server.remainingReplies()).toBe(0);
  });
});
