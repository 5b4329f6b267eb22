/**
 * The qwen-computer-use wire, both ways: native tool calls pass through; `<tool_call>` text becomes calls
 * marked inText, and those calls and their results go back as the text Qwen's chat template would have
 * written (the calls after the thought, the results as <tool_response> blocks with their screenshots).
 */
import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/shared/messages.js';
import { toChatCompletionsMessages } from '../../src/main/llm/chat-completions-messages.js';
import { QWEN_COMPUTER_USE_WIRE } from '../../src/main/llm/dialects/qwen-computer-use-wire.js';
import type { CompletedAssistantMessage } from '../../src/main/llm/model-adapter.js';

const PIXELS = 'iVBORw0KGgo=';

function reply(text: string, toolCalls: CompletedAssistantMessage['toolCalls'] = []): CompletedAssistantMessage {
  return {
    role: 'assistant',
    parts: text === '' ? [] : [{ type: 'text', text }],
    toolCalls,
    usage: { inputTokens: 100, outputTokens: 20 },
    finishReason: toolCalls.length > 0 ? 'tool-calls' : 'stop',
    model: 'qwen2.5-vl-7b-instruct',
  };
}

const CLICK_TEXT = 'Action: Click the Team name field.\n<tool_call>\n{"name": "computer_use", "arguments": {"action": "left_click", "coordinate": [320, 116]}}\n</tool_call>';

describe('decodeReply', () => {
  it('passes native tool calls through untouched, text and all', () => {
    const native = reply('<tool_call>{"name": "x"}</tool_call>', [{ id: 'chatcmpl-tool-1', name: 'computer_use', argumentsText: '{"action": "wait"}' }]);
    expect(QWEN_COMPUTER_USE_WIRE.decodeReply(native)).toBe(native);
  });

  it('leaves a plain answer without blocks as it is', () => {
    const plain = reply('The page is loading.');
    expect(QWEN_COMPUTER_USE_WIRE.decodeReply(plain)).toBe(plain);
  });

  it('reads <tool_call> text into calls written in text; the rest is the thought', () => {
    const decoded = QWEN_COMPUTER_USE_WIRE.decodeReply(reply(CLICK_TEXT));
    expect(decoded.parts).toEqual([{ type: 'text', text: 'Action: Click the Team name field.' }]);
    expect(decoded.toolCalls).toEqual([
      { id: expect.stringMatching(/^call_text_/), name: 'computer_use', argumentsText: '{"action": "left_click", "coordinate": [320, 116]}', inText: true },
    ]);
    expect(decoded.finishReason).toBe('tool-calls');
    expect(decoded.usage).toEqual({ inputTokens: 100, outputTokens: 20 });
  });

  it('keeps a block it cannot read as an invalid call, and an answer cut at max tokens stays "length"', () => {
    const decoded = QWEN_COMPUTER_USE_WIRE.decodeReply({ ...reply('<tool_call>\n{"name": "computer_use", "argu'), finishReason: 'length' });
    expect(decoded.parts).toEqual([]);
    expect(decoded.toolCalls).toMatchObject([{ name: 'computer_use', inText: true, invalid: expect.stringContaining('never closed') }]);
    expect(decoded.finishReason).toBe('length');
  });
});

describe('encodeRequest', () => {
  const textCall = { id: 'call_text_1', name: 'computer_use', argumentsText: '{"action":"left_click","coordinate":[320,116]}', inText: true };
  const brokenCall = { id: 'call_text_2', name: 'computer_use', argumentsText: '<tool_call>{"name": ', invalid: 'The JSON … is not valid.', inText: true };
  const nativeCall = { id: 'chatcmpl-tool-9', name: 'computer_use', argumentsText: '{"action": "type", "text": "Platform"}' };
  const history: Message[] = [
    { role: 'system', parts: [{ type: 'text', text: 'You are Sightline.' }] },
    { role: 'user', parts: [{ type: 'text', text: 'Name the team.' }, { type: 'text', text: '<img_a>' }, { type: 'image', mime: 'image/png', data: PIXELS }] },
    { role: 'assistant', parts: [{ type: 'text', text: 'Action: Click the Team name field.' }], toolCalls: [textCall, brokenCall] },
    {
      role: 'tool',
      toolCallId: 'call_text_1',
      name: 'computer_use',
      parts: [{ type: 'text', text: 'click at screen (640, 233)' }, { type: 'text', text: '<img_b>' }, { type: 'image', mime: 'image/png', data: PIXELS }],
    },
    { role: 'tool', toolCallId: 'call_text_2', name: 'computer_use', parts: [{ type: 'text', text: 'The JSON … is not valid.' }], isError: true },
    { role: 'assistant', parts: [], toolCalls: [nativeCall] },
    { role: 'tool', toolCallId: 'chatcmpl-tool-9', name: 'computer_use', parts: [{ type: 'text', text: 'typed 8 characters' }] },
  ];

  it('writes calls made in text back as text, and their results as one user message of <tool_response> blocks', () => {
    const encoded = QWEN_COMPUTER_USE_WIRE.encodeRequest({ messages: history, toolChoice: 'auto' });
    expect(encoded.toolChoice).toBe('auto');
    expect(encoded.messages.slice(0, 2)).toEqual(history.slice(0, 2));
    expect(encoded.messages[2]).toEqual({
      role: 'assistant',
      parts: [
        {
          type: 'text',
          text:
            'Action: Click the Team name field.\n<tool_call>\n{"name": "computer_use", "arguments": {"action":"left_click","coordinate":[320,116]}}\n</tool_call>\n' +
            '<tool_call>{"name": ',
        },
      ],
      toolCalls: [],
    });
    expect(encoded.messages[3]).toEqual({
      role: 'user',
      parts: [
        { type: 'text', text: '<tool_response>\nclick at screen (640, 233)\n<img_b>' },
        { type: 'image', mime: 'image/png', data: PIXELS },
        { type: 'text', text: '</tool_response>\n<tool_response>\nThe call failed.\nThe JSON … is not valid.\n</tool_response>' },
      ],
    });
    // Native calls and their results go back natively.
    expect(encoded.messages.slice(4)).toEqual(history.slice(5));
  });

  it('is what the Chat Completions request carries: no tool_calls for text calls, the screenshot in the user message', () => {
    const sent = toChatCompletionsMessages(QWEN_COMPUTER_USE_WIRE.encodeRequest({ messages: history }).messages);
    expect(sent.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'user', 'assistant', 'tool']);
    expect(sent[2]).toEqual({ role: 'assistant', content: expect.stringContaining('<tool_call>\n{"name": "computer_use"') });
    expect(sent[3]).toMatchObject({
      role: 'user',
      content: [
        { type: 'text', text: expect.stringContaining('<tool_response>') },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${PIXELS}` } },
        { type: 'text', text: expect.stringContaining('</tool_response>') },
      ],
    });
    expect(sent[4]).toMatchObject({ role: 'assistant', tool_calls: [{ id: 'chatcmpl-tool-9', function: { name: 'computer_use' } }] });
  });

  it('round-trips: an answer read from text is written back as the model wrote it', () => {
    const decoded = QWEN_COMPUTER_USE_WIRE.decodeReply(reply(CLICK_TEXT));
    const { role, parts, toolCalls } = decoded;
    const encoded = QWEN_COMPUTER_USE_WIRE.encodeRequest({ messages: [{ role, parts, toolCalls }] });
    expect(encoded.messages[0]).toEqual({ role: 'assistant', parts: [{ type: 'text', text: CLICK_TEXT }], toolCalls: [] });
  });

  it('leaves a history without text calls exactly as it was', () => {
    const native = history.filter((message, index) => index < 2 || index >= 5);
    expect(QWEN_COMPUTER_USE_WIRE.encodeRequest({ messages: native }).messages).toEqual(native);
  });
});
