/**
 * Assembling a message from Chat Completions chunks in the shapes some compatible servers send that
 * OpenAI's own does not (the fake server speaks OpenAI's; these are the others).
 */
import { describe, expect, it } from 'vitest';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { ChatCompletionsStreamAssembler } from '../../src/main/llm/chat-completions-adapter.js';
import type { ModelStreamEvent } from '../../src/main/llm/model-adapter.js';

function chunk(delta: Record<string, unknown>, finishReason: string | null = null): ChatCompletionChunk {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 0,
    model: 'local-model',
    choices: [{ index: 0, delta, finish_reason: finishReason, logprobs: null }],
  } as ChatCompletionChunk;
}

describe('Chat Completions stream assembly', () => {
  it('separates tool calls that come without an index by their ids', () => {
    const assembler = new ChatCompletionsStreamAssembler('local-model', undefined);
    assembler.add(chunk({ tool_calls: [{ id: 'a', function: { name: 'click', arguments: '{"x":' } }] }));
    assembler.add(chunk({ tool_calls: [{ function: { arguments: '1}' } }] }));
    assembler.add(chunk({ tool_calls: [{ id: 'b', function: { name: 'wait', arguments: '{}' } }] }));
    // Ending with "stop" despite tool calls, as some local servers do.
    assembler.add(chunk({}, 'stop'));
    const message = assembler.finish();
    expect(message.toolCalls).toEqual([
      { id: 'a', name: 'click', argumentsText: '{"x":1}' },
      { id: 'b', name: 'wait', argumentsText: '{}' },
    ]);
    expect(message.finishReason).toBe('tool-calls');
  });

  it('does not double a tool name repeated in every piece, and invents an id when none is given', () => {
    const assembler = new ChatCompletionsStreamAssembler('local-model', undefined);
    assembler.add(chunk({ tool_calls: [{ index: 0, function: { name: 'type_text', arguments: '{"text":' } }] }));
    assembler.add(chunk({ tool_calls: [{ index: 0, function: { name: 'type_text', arguments: '"hi"}' } }] }));
    const [call] = assembler.finish().toolCalls;
    expect(call?.name).toBe('type_text');
    expect(call?.argumentsText).toBe('{"text":"hi"}');
    expect(call?.id).toMatch(/^call_/);
  });

  it('collects streamed audio into one media event at the end, its transcript as text', () => {
    const events: ModelStreamEvent[] = [];
    const assembler = new ChatCompletionsStreamAssembler('gpt-4o-audio-preview', (event) => events.push(event));
    assembler.add(chunk({ audio: { id: 'audio_1', transcript: 'Hello' } }));
    assembler.add(chunk({ audio: { data: 'AAAA' } }));
    assembler.add(chunk({ audio: { data: 'BBBB' } }, 'stop'));
    const message = assembler.finish();
    const audio = { type: 'audio', mime: 'audio/L16;rate=24000;channels=1', data: 'AAAABBBB' };
    expect(events).toEqual([{ type: 'text-delta', text: 'Hello' }, { type: 'media', part: audio }]);
    expect(message.parts).toEqual([{ type: 'text', text: 'Hello' }, audio]);
    expect(message.usage).toEqual({ inputTokens: 0, outputTokens: 0 });
  });
});
