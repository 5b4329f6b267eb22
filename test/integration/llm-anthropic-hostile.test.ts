/**
 * The hostile-output set (test/helpers/hostile-model-replies.ts) replayed as Anthropic streams through the
 * real client and the adapter's decoder: odd tool names, broken or huge input JSON, many calls per answer,
 * errors. The adapter never throws for what the model wrote (only a ModelCallError for an HTTP error), keeps
 * each call's input text exactly as streamed, and the answer goes back in the next request without throwing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userText, type Message } from '../../src/shared/messages.js';
import { createModelAdapter } from '../../src/main/llm/create-model-adapter.js';
import { anthropicMessagesBody } from '../../src/main/llm/anthropic-messages-adapter.js';
import { ModelCallError } from '../../src/main/llm/model-errors.js';
import type { FakeReply } from '../helpers/fake-openai-server.js';
import { startFakeAnthropicServer, type FakeAnthropicReply, type FakeAnthropicServer } from '../helpers/fake-anthropic-server.js';
import { HostileReplies } from '../helpers/hostile-model-replies.js';

let server: FakeAnthropicServer;
beforeAll(async () => {
  server = await startFakeAnthropicServer();
});
afterAll(async () => {
  await server.close();
});

/** The same hostile content, in Anthropic's stream instead of OpenAI's. */
function asAnthropic(reply: FakeReply): FakeAnthropicReply {
  if (reply.type === 'error') return { type: 'error', status: reply.status, message: reply.message ?? 'fuzzed' };
  if (reply.type !== 'answer') throw new Error(`unexpected fuzz reply ${reply.type}`);
  return {
    type: 'answer',
    ...(reply.text === undefined || reply.text === '' ? {} : { text: reply.text }),
    toolUses: (reply.toolCalls ?? []).map((call, index) => ({
      id: `toolu_fuzz_${index}`,
      name: call.name,
      inputText: call.arguments,
      pieces: call.argumentPieces ?? 3,
    })),
  };
}

describe('the Anthropic adapter under hostile answers', () => {
  it('decodes every fuzzed answer without throwing, keeping the input text as streamed', async () => {
    const hostile = new HostileReplies(1414, { screen: { width: 1280, height: 800 }, hugeStringChance: 0.02 });
    const adapter = createModelAdapter({ name: 'claude-sonnet-4-5', baseUrl: server.baseUrl, anthropicApiKey: 'sk-ant-fuzz-000000', api: 'chat-completions', maxRetries: 0, timeoutMs: 10_000 });
    let decoded = 0;
    for (let round = 0; round < 60; round += 1) {
      const reply = asAnthropic(hostile.reply());
      server.script([reply]);
      const outcome = await adapter.complete({ messages: [userText('go')] }).catch((error: unknown) => error);
      if (reply.type === 'error') {
        expect(outcome).toBeInstanceOf(ModelCallError);
        continue;
      }
      if (outcome instanceof Error || reply.type !== 'answer') throw outcome;
      const answer = outcome as Awaited<ReturnType<typeof adapter.complete>>;
      decoded += 1;
      expect(answer.toolCalls.map((call) => call.argumentsText)).toEqual(
        (reply.toolUses ?? []).map((toolUse) => (toolUse.inputText === '' ? '{}' : toolUse.inputText)),
      );
      expect(answer.toolCalls.every((call) => call.name !== '')).toBe(true);
      // What the model wrote goes back in the next request: every input becomes an object, nothing throws.
      const history: Message[] = [userText('go'), { role: 'assistant', parts: answer.parts, toolCalls: answer.toolCalls }];
      const body = anthropicMessagesBody({ messages: history }, { model: 'claude-sonnet-4-5' });
      const toolUses = body.messages.flatMap((message) => (Array.isArray(message.content) ? message.content : [])).filter((block) => block.type === 'tool_use');
      expect(toolUses.every((block) => typeof (block as { input: unknown }).input === 'object' && !Array.isArray((block as { input: unknown }).input))).toBe(true);
    }
    expect(decoded).toBeGreaterThan(40);
  }, 60_000);
});
