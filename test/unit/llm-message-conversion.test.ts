/**
 * Provider-neutral messages to each API's wire shapes, and the capability check that runs first.
 */
import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/shared/messages.js';
import { userText } from '../../src/shared/messages.js';
import { toChatCompletionsMessages } from '../../src/main/llm/chat-completions-messages.js';
import { ModelCapabilityError, ModelRequestError } from '../../src/main/llm/model-errors.js';
import { resolveModelProfile } from '../../src/main/llm/model-profiles.js';
import { assertRequestFitsProfile } from '../../src/main/llm/request-capabilities.js';
import { toResponsesInput } from '../../src/main/llm/responses-input.js';

const PNG = 'iVBORw0KGgo=';

/** An assistant turn with two tool calls, both answered with images. */
const TOOL_TURN: Message[] = [
  userText('Find the login button'),
  {
    role: 'assistant',
    parts: [],
    toolCalls: [
      { id: 'call_1', name: 'screenshot', argumentsText: '{}' },
      { id: 'call_2', name: 'crop_image', argumentsText: '{"image_id":"img_0000000000a1"}' },
    ],
  },
  {
    role: 'tool',
    toolCallId: 'call_1',
    name: 'screenshot',
    parts: [
      { type: 'text', text: 'img_0000000000a1' },
      { type: 'image', imageId: 'img_0000000000a1', mime: 'image/png', data: PNG },
    ],
  },
  {
    role: 'tool',
    toolCallId: 'call_2',
    name: 'crop_image',
    parts: [{ type: 'image', imageId: 'img_0000000000a2', mime: 'image/png', url: 'https://example.test/crop.png' }],
  },
  userText('Go on'),
];

describe('Chat Completions conversion', () => {
  it('answers every tool call first, then carries the tool images in one user message', () => {
    const converted = toChatCompletionsMessages(TOOL_TURN);
    expect(converted.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'user', 'user']);
    expect(converted[1]).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'call_1', type: 'function', function: { name: 'screenshot', arguments: '{}' } },
        { id: 'call_2', type: 'function', function: { name: 'crop_image', arguments: '{"image_id":"img_0000000000a1"}' } },
      ],
    });
    expect(converted[2]).toEqual({
      role: 'tool',
      tool_call_id: 'call_1',
      content: 'img_0000000000a1\n(1 image returned: see the next user message.)',
    });
    expect(converted[4]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'Attachment returned by tool "screenshot" (call call_1):' },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
        { type: 'text', text: 'Attachment returned by tool "crop_image" (call call_2):' },
        { type: 'image_url', image_url: { url: 'https://example.test/crop.png' } },
      ],
    });
    expect(converted[5]).toEqual({ role: 'user', content: 'Go on' });
  });

  it('marks failed tools, sends audio and files as input parts, and keeps text-only content a string', () => {
    const converted = toChatCompletionsMessages([
      { role: 'system', parts: [{ type: 'text', text: 'Be brief.' }] },
      {
        role: 'user',
        parts: [
          { type: 'audio', mime: 'audio/wav', data: 'UklGRg==' },
          { type: 'file', name: 'report.pdf', mime: 'application/pdf', data: 'JVBERi0=' },
        ],
      },
      { role: 'assistant', parts: [{ type: 'text', text: 'Clicking.' }], toolCalls: [{ id: 'c', name: 'click', argumentsText: '{' }] },
      { role: 'tool', toolCallId: 'c', name: 'click', parts: [{ type: 'text', text: 'Invalid JSON' }], isError: true },
    ]);
    expect(converted[0]).toEqual({ role: 'system', content: 'Be brief.' });
    expect(converted[1]).toEqual({
      role: 'user',
      content: [
        { type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } },
        { type: 'file', file: { filename: 'report.pdf', file_data: 'data:application/pdf;base64,JVBERi0=' } },
      ],
    });
    expect(converted[2]).toMatchObject({ role: 'assistant', content: 'Clicking.' });
    expect(converted[3]).toEqual({ role: 'tool', tool_call_id: 'c', content: 'The tool failed.\nInvalid JSON' });
  });

  it('refuses an image that holds only its stored id', () => {
    expect(() =>
      toChatCompletionsMessages([{ role: 'user', parts: [{ type: 'image', imageId: 'img_0000000000a3' }] }]),
    ).toThrow(ModelRequestError);
  });
});

describe('Responses conversion', () => {
  it('keeps tool images in the function call output as input_image', () => {
    const input = toResponsesInput(TOOL_TURN, 'gpt-5');
    expect(input).toEqual([
      { role: 'user', content: 'Find the login button' },
      { type: 'function_call', call_id: 'call_1', name: 'screenshot', arguments: '{}' },
      { type: 'function_call', call_id: 'call_2', name: 'crop_image', arguments: '{"image_id":"img_0000000000a1"}' },
      {
        type: 'function_call_output',
        call_id: 'call_1',
        output: [
          { type: 'input_text', text: 'img_0000000000a1' },
          { type: 'input_image', image_url: `data:image/png;base64,${PNG}`, detail: 'auto' },
        ],
      },
      {
        type: 'function_call_output',
        call_id: 'call_2',
        output: [{ type: 'input_image', image_url: 'https://example.test/crop.png', detail: 'auto' }],
      },
      { role: 'user', content: 'Go on' },
    ]);
  });

  it('sends text-only tool output as a string, marking failures', () => {
    const input = toResponsesInput(
      [{ role: 'tool', toolCallId: 'c', name: 'click', parts: [{ type: 'text', text: 'out of bounds' }], isError: true }],
      'gpt-5',
    );
    expect(input).toEqual([{ type: 'function_call_output', call_id: 'c', output: 'The tool failed.\nout of bounds' }]);
  });
});

describe('capability check', () => {
  const screenshotResult: Message = {
    role: 'tool',
    toolCallId: 'call_1',
    name: 'screenshot',
    parts: [{ type: 'image', imageId: 'img_0000000000a1', mime: 'image/png', data: PNG }],
  };

  it('refuses an image for a model without image input, naming the model and the image', () => {
    const profile = resolveModelProfile('deepseek-chat');
    expect(() => assertRequestFitsProfile({ messages: [screenshotResult] }, profile)).toThrow(ModelCapabilityError);
    expect(() => assertRequestFitsProfile({ messages: [screenshotResult] }, profile)).toThrow(
      /Model "deepseek-chat" does not accept images .*image img_0000000000a1 in the result of tool "screenshot"/,
    );
  });

  it('accepts images for a vision model, and audio only where the profile allows it', () => {
    expect(() => assertRequestFitsProfile({ messages: [screenshotResult] }, resolveModelProfile('gpt-4.1'))).not.toThrow();
    const audio: Message = { role: 'user', parts: [{ type: 'audio', mime: 'audio/mpeg', data: 'AAAA' }] };
    expect(() => assertRequestFitsProfile({ messages: [audio] }, resolveModelProfile('gpt-4.1'))).toThrow(/does not accept audio/);
    expect(() => assertRequestFitsProfile({ messages: [audio] }, resolveModelProfile('gpt-4o-audio-preview'))).not.toThrow();
  });

  it('ignores media the assistant generated earlier (it is not sent back)', () => {
    const generated: Message = { role: 'assistant', parts: [{ type: 'image', mime: 'image/png', data: PNG }], toolCalls: [] };
    expect(() => assertRequestFitsProfile({ messages: [generated] }, resolveModelProfile('gpt-3.5-turbo'))).not.toThrow();
  });
});
