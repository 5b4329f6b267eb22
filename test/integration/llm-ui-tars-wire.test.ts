/**
 * The ui-tars wire: the request it sends (no tools, the history in UI-TARS's form) and the calls it reads
 * from UI-TARS text, alone and through the real Chat Completions adapter and `openai` client against the
 * fake server answering as vLLM does, streamed and plain.
 */
import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Message, ToolCall } from '../../src/shared/messages.js';
import { DEFAULT_CONFIG } from '../../src/shared/config.js';
import { ASK_USER_TOOL_NAME } from '../../src/main/agent/tools/ask-user-tool.js';
import { FINISH_TOOL_NAME } from '../../src/main/agent/tools/finish-tool.js';
import { createModelAdapter } from '../../src/main/llm/create-model-adapter.js';
import { withDialectWire } from '../../src/main/llm/dialects/dialect-wire.js';
import { UI_TARS_SYSTEM_TEXT } from '../../src/main/llm/dialects/ui-tars/ui-tars-conversation.js';
import { UI_TARS_GRAMMAR_REMINDER } from '../../src/main/llm/dialects/ui-tars/ui-tars-prompts.js';
import {
  UI_TARS_ASK_USER_TOOL,
  UI_TARS_FINISH_TOOL,
  UI_TARS_WIRE,
  decodeUiTarsReply,
  encodeUiTarsRequest,
} from '../../src/main/llm/dialects/ui-tars/ui-tars-wire.js';
import type { CompletedAssistantMessage } from '../../src/main/llm/model-adapter.js';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../helpers/fake-openai-server.js';
import { README_DEPLOY_ANSWER, THINKING_ANSWER, uiTarsAnswer } from '../fixtures/ui-tars/ui-tars-answers.js';

const PIXELS = { mime: 'image/png', data: 'iVBORw0KGgo=' };

function reply(text: string): CompletedAssistantMessage {
  return { role: 'assistant', parts: [{ type: 'text', text }], toolCalls: [], usage: { inputTokens: 1, outputTokens: 1 }, finishReason: 'stop', model: 'ui-tars-1.5-7b' };
}

function callsOf(text: string): Array<Pick<ToolCall, 'name' | 'inText' | 'invalid'> & { arguments: unknown }> {
  return decodeUiTarsReply(reply(text)).toolCalls.map((call) => ({
    name: call.name,
    inText: call.inText,
    invalid: call.invalid,
    arguments: call.invalid === undefined ? JSON.parse(call.argumentsText) : call.argumentsText,
  }));
}

describe('decoding UI-TARS text into calls', () => {
  it('calls the agent’s own finish and ask_user tools', () => {
    expect(UI_TARS_FINISH_TOOL).toBe(FINISH_TOOL_NAME);
    expect(UI_TARS_ASK_USER_TOOL).toBe(ASK_USER_TOOL_NAME);
  });

  it('turns README_deploy’s answer into one computer click, in the text, the text kept as the message', () => {
    const decoded = decodeUiTarsReply(reply(README_DEPLOY_ANSWER));
    expect(decoded.parts).toEqual([{ type: 'text', text: README_DEPLOY_ANSWER }]);
    expect(decoded.toolCalls).toEqual([{ id: expect.stringMatching(/^call_/), name: 'computer', argumentsText: '{"action":"click","x":177,"y":549}', inText: true }]);
  });

  it('splits a typed trailing \\n into the type and a separate Return', () => {
    expect(callsOf("Thought: Search.\nAction: type(content='weather\\n')")).toEqual([
      { name: 'computer', inText: true, invalid: undefined, arguments: { action: 'type', text: 'weather' } },
      { name: 'computer', inText: true, invalid: undefined, arguments: { action: 'key', keys: 'Return' } },
    ]);
  });

  it('ends the task with finished: its content is the summary, else the thought', () => {
    expect(callsOf("Thought: All saved.\nAction: finished(content='Named \\'Platform\\'.')")[0]).toMatchObject({ name: 'finish', arguments: { summary: "Named 'Platform'.", success: true } });
    expect(callsOf('Thought: All saved.\nAction: finished()')[0]).toMatchObject({ name: 'finish', arguments: { summary: 'All saved.', success: true } });
  });

  it('asks the person with call_user: the thought is the question', () => {
    expect(callsOf('Thought: Which account should I use?\nAction: call_user()')).toEqual([
      { name: 'ask_user', inText: true, invalid: undefined, arguments: { question: 'Which account should I use?' } },
    ]);
  });

  it('turns an answer it cannot read into one invalid call that says what was wrong and what the grammar is', () => {
    const [call, ...rest] = decodeUiTarsReply(reply('I think I should click the button.')).toolCalls;
    expect(rest).toEqual([]);
    expect(call).toMatchObject({ name: 'computer', inText: true, argumentsText: 'I think I should click the button.' });
    expect(call!.invalid).toBe(`Could not read your action: the answer has no "Action:" line. ${UI_TARS_GRAMMAR_REMINDER}`);
  });

  it('never returns an answer without calls, even an empty one', () => {
    expect(decodeUiTarsReply(reply('')).toolCalls).toHaveLength(1);
    expect(decodeUiTarsReply({ ...reply(''), parts: [] }).toolCalls[0]!.invalid).toContain('the answer is empty');
  });
});

describe('encoding the request the UI-TARS way', () => {
  const history: Message[] = [
    { role: 'system', parts: [{ type: 'text', text: 'TEMPLATE with the instruction' }] },
    { role: 'user', parts: [{ type: 'text', text: 'Name the team.' }] },
    { role: 'user', parts: [{ type: 'text', text: 'The screen now:' }, { type: 'text', text: '<img_000000000001>' }, { type: 'image', imageId: 'img_000000000001', ...PIXELS }] },
    {
      role: 'assistant',
      parts: [{ type: 'text', text: "Thought: Field, then type.\nAction: click(start_box='(640,233)')\n\ntype(content='Platform\\n')" }],
      toolCalls: [
        { id: 'c1', name: 'computer', argumentsText: '{"action":"click","x":640,"y":233}', inText: true },
        { id: 'c2', name: 'computer', argumentsText: '{"action":"type","text":"Platform"}', inText: true },
        { id: 'c3', name: 'computer', argumentsText: '{"action":"key","keys":"Return"}', inText: true },
      ],
    },
    { role: 'tool', toolCallId: 'c1', name: 'computer', parts: [{ type: 'text', text: 'click done' }, { type: 'text', text: '<img_000000000002>' }, { type: 'image', imageId: 'img_000000000002', ...PIXELS }] },
    { role: 'tool', toolCallId: 'c2', name: 'computer', parts: [{ type: 'text', text: 'type done' }, { type: 'text', text: 'unchanged: same as img_000000000002' }] },
    { role: 'tool', toolCallId: 'c3', name: 'computer', isError: true, parts: [{ type: 'text', text: 'the user refused this action' }] },
    { role: 'assistant', parts: [{ type: 'text', text: 'Hmm.' }], toolCalls: [{ id: 'c4', name: 'computer', argumentsText: 'Hmm.', invalid: 'Could not read your action', inText: true }] },
    { role: 'tool', toolCallId: 'c4', name: 'computer', isError: true, parts: [{ type: 'text', text: 'Could not read your action' }] },
  ];

  it('declares no tools, and sends the template as the first user message after UI-TARS’s system message', () => {
    const encoded = encodeUiTarsRequest({ messages: history, tools: [{ name: 'computer', description: 'x', parameters: {} }], toolChoice: 'auto', temperature: 0 });
    expect(encoded.tools).toBeUndefined();
    expect(encoded.toolChoice).toBeUndefined();
    expect(encoded.temperature).toBe(0);
    expect(encoded.messages.slice(0, 2)).toEqual([
      { role: 'system', parts: [{ type: 'text', text: UI_TARS_SYSTEM_TEXT }] },
      { role: 'user', parts: [{ type: 'text', text: 'TEMPLATE with the instruction' }] },
    ]);
  });

  it('sends an assistant message as its text, box tokens restored, and its results as ONE user message', () => {
    const messages = encodeUiTarsRequest({ messages: history }).messages;
    expect(messages.map((message) => message.role)).toEqual(['system', 'user', 'user', 'user', 'assistant', 'user', 'assistant', 'user']);
    expect(messages[4]).toEqual({
      role: 'assistant',
      parts: [{ type: 'text', text: "Thought: Field, then type.\nAction: click(start_box='<|box_start|>(640,233)<|box_end|>')\n\ntype(content='Platform\\n')" }],
      toolCalls: [],
    });
    expect(messages[5]).toEqual({
      role: 'user',
      parts: [
        { type: 'text', text: 'click done' },
        { type: 'text', text: '<img_000000000002>' },
        { type: 'image', imageId: 'img_000000000002', ...PIXELS },
        { type: 'text', text: 'type done' },
        { type: 'text', text: 'unchanged: same as img_000000000002' },
        { type: 'text', text: 'the user refused this action' },
      ],
    });
    expect(messages[7]).toEqual({ role: 'user', parts: [{ type: 'text', text: 'Could not read your action' }] });
    expect(messages.some((message) => message.role === 'tool')).toBe(false);
  });

  it('writes out calls made as tools (a session begun in another dialect), so the text says what was done', () => {
    const messages = encodeUiTarsRequest({
      messages: [{ role: 'assistant', parts: [], toolCalls: [{ id: 'f1', name: 'computer', argumentsText: '{"action":"click","x":1,"y":2}' }] }],
    }).messages;
    expect(messages).toEqual([{ role: 'assistant', parts: [{ type: 'text', text: 'Called computer {"action":"click","x":1,"y":2}' }], toolCalls: [] }]);
  });
});

describe('the ui-tars wire through the Chat Completions adapter and a vLLM-shaped server', () => {
  let server: FakeOpenAiServer;
  beforeEach(async () => {
    server = await startFakeOpenAiServer();
  });
  afterEach(async () => {
    await server.close();
  });

  function uiTarsModel() {
    const adapter = createModelAdapter({ ...DEFAULT_CONFIG.model, name: 'ui-tars-1.5-7b', baseUrl: server.baseUrl, apiKey: 'sk-test', maxRetries: 0 });
    return withDialectWire(adapter, UI_TARS_WIRE);
  }

  it('streams a UI-TARS answer and reads it into calls; the request carries no tools and no tool messages', async () => {
    server.script([uiTarsAnswer(THINKING_ANSWER)]);
    const answer = await uiTarsModel().complete({
      messages: [
        { role: 'system', parts: [{ type: 'text', text: 'TEMPLATE' }] },
        { role: 'user', parts: [{ type: 'text', text: 'Search news.' }] },
      ],
      tools: [{ name: 'computer', description: 'x', parameters: { type: 'object' } }],
      toolChoice: 'auto',
    });
    expect(answer.parts).toEqual([{ type: 'text', text: THINKING_ANSWER }]);
    expect(answer.toolCalls.map((call) => [call.name, call.argumentsText, call.inText])).toEqual([['computer', '{"action":"click","x":510,"y":150}', true]]);
    expect(answer.usage.inputTokens).toBe(1200);
    const body = server.requests[0]!.body as { tools?: unknown; tool_choice?: unknown; stream?: boolean; messages: Array<{ role: string; content: unknown }> };
    expect(body.stream).toBe(true);
    expect(body.tools).toBeUndefined();
    expect(body.tool_choice).toBeUndefined();
    expect(body.messages).toEqual([
      { role: 'system', content: UI_TARS_SYSTEM_TEXT },
      { role: 'user', content: 'TEMPLATE' },
      { role: 'user', content: 'Search news.' },
    ]);
  });

  it('answers a plain (non-streamed) request in vLLM’s shape, which the openai client reads', async () => {
    server.script([uiTarsAnswer(README_DEPLOY_ANSWER)]);
    const client = new OpenAI({ apiKey: 'sk-test', baseURL: server.baseUrl, maxRetries: 0 });
    const completion = await client.chat.completions.create({ model: 'ui-tars-1.5-7b', messages: [{ role: 'user', content: 'Hi' }] });
    // The client hands back the body as the server wrote it.
    const raw = completion as unknown as { system_fingerprint?: unknown; choices: Array<Record<string, unknown>> };
    expect(completion.choices[0]?.message.content).toBe(README_DEPLOY_ANSWER);
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    expect(raw.system_fingerprint).toBeUndefined();
    expect(raw.choices[0]).toMatchObject({ stop_reason: null, message: { role: 'assistant', tool_calls: [], reasoning_content: null } });
    expect(decodeUiTarsReply(reply(completion.choices[0]!.message.content!)).toolCalls.map((call) => call.argumentsText)).toEqual(['{"action":"click","x":177,"y":549}']);
  });
});
