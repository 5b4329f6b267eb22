/**
 * The fake model server's non-streaming replies, read by the real `openai` client (the adapters always
 * stream, so this is the only place that checks them), and its behaviour when a test under-scripts.
 */
import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FakeOpenAiServer } from '../helpers/fake-openai-server.js';
import { startFakeOpenAiServer } from '../helpers/fake-openai-server.js';
import { qwenNativeReply, qwenTextReply, qwenToolCallText } from '../helpers/qwen-model-replies.js';

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

  it('lets a scripted function answer after work of its own, and fails the request when that work fails', async () => {
    server.script([
      async (request) => {
        // Stands in for decoding the screenshot the request carries before deciding.
        await new Promise((resolve) => setImmediate(resolve));
        return { type: 'answer', text: `Read ${request.rawBody.length} characters.` };
      },
      async () => {
        await new Promise((resolve) => setImmediate(resolve));
        throw new Error('the screenshot could not be decoded');
      },
    ]);
    const completion = await client.chat.completions.create({ model: 'gpt-4.1', messages: [{ role: 'user', content: 'Hi' }] });
    expect(completion.choices[0]?.message.content).toMatch(/^Read \d+ characters\.$/);

    const failure = await client.chat.completions.create({ model: 'gpt-4.1', messages: [{ role: 'user', content: 'Hi' }] }).catch((error: unknown) => error);
    expect(String(failure)).toContain("scripted reply failed: the screenshot could not be decoded");
    expect(server.requests).toHaveLength(2);
  });

  it("replays Qwen's computer_use answers plain and streamed: <tool_call> text, and native calls in vLLM's and Ollama's shapes", async () => {
    const text = qwenToolCallText({ action: 'left_click', coordinate: [320, 116] }, 'Action: Click the field.');
    server.script([qwenTextReply({ action: 'left_click', coordinate: [320, 116] }, 'Action: Click the field.'), qwenNativeReply({ action: 'type', text: 'Hi' }, 'ollama')]);
    const plainText = await client.chat.completions.create({ model: 'qwen2.5-vl-7b-instruct', messages: [{ role: 'user', content: 'Go' }] });
    expect(plainText.choices[0]?.message.content).toBe(text);
    expect(plainText.choices[0]?.finish_reason).toBe('stop');
    const plainNative = await client.chat.completions.create({ model: 'qwen2.5vl:7b', messages: [{ role: 'user', content: 'Go' }] });
    expect(plainNative.choices[0]?.message.tool_calls).toEqual([
      { id: expect.stringMatching(/^call_[0-9a-f]{8}$/), type: 'function', function: { name: 'computer_use', arguments: '{"action":"type","text":"Hi"}' } },
    ]);

    server.script([qwenTextReply({ action: 'left_click', coordinate: [320, 116] }, 'Action: Click the field.'), qwenNativeReply({ action: 'type', text: 'Hi' }, 'ollama'), qwenNativeReply({ action: 'type', text: 'Hi' }, 'vllm')]);
    const streamedText = await streamedDeltas('qwen2.5-vl-7b-instruct');
    expect(streamedText.map((delta) => delta.content ?? '').join('')).toBe(text);
    // Ollama: the call whole in one chunk, without an index.
    const ollama = (await streamedDeltas('qwen2.5vl:7b')).flatMap((delta) => delta.tool_calls ?? []);
    expect(ollama).toEqual([{ id: expect.stringMatching(/^call_/), type: 'function', function: { name: 'computer_use', arguments: '{"action":"type","text":"Hi"}' } }]);
    // vLLM (hermes parser): chatcmpl-tool ids, the name first, the arguments in pieces after it.
    const vllm = (await streamedDeltas('Qwen/Qwen2.5-VL-7B-Instruct')).flatMap((delta) => delta.tool_calls ?? []);
    expect(vllm[0]).toMatchObject({ index: 0, id: expect.stringMatching(/^chatcmpl-tool-/), function: { name: 'computer_use' } });
    expect(vllm.length).toBeGreaterThan(2);
    expect(vllm.map((piece) => piece.function?.arguments ?? '').join('')).toBe('{"action":"type","text":"Hi"}');
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

async function streamedDeltas(model: string): Promise<OpenAI.Chat.Completions.ChatCompletionChunk.Choice.Delta[]> {
  const stream = await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'Go' }], stream: true });
  const deltas: OpenAI.Chat.Completions.ChatCompletionChunk.Choice.Delta[] = [];
  for await (const chunk of stream) for (const choice of chunk.choices) deltas.push(choice.delta);
  return deltas;
}
