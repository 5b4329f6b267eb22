/**
 * OpenAI's computer tool through the Responses adapter, the real `openai` client and the fake server
 * replaying the API's shapes (test/fixtures/openai-computer cites them): how the tool is declared, what
 * a request carries for it (truncation, encrypted reasoning, computer calls and their screenshots back),
 * and how computer_call and reasoning items are read, streamed and whole.
 */
import OpenAI from 'openai';
import type { Response } from 'openai/resources/responses/responses';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Message } from '../../src/shared/messages.js';
import { userText } from '../../src/shared/messages.js';
import { createModelAdapter } from '../../src/main/llm/create-model-adapter.js';
import type { ModelToolDeclaration } from '../../src/main/llm/model-adapter.js';
import { assistantMessageOfResponse } from '../../src/main/llm/responses-adapter.js';
import type { FakeOpenAiServer } from '../helpers/fake-openai-server.js';
import { startFakeOpenAiServer } from '../helpers/fake-openai-server.js';
import { guideClick, MALICIOUS_INSTRUCTIONS_CHECK } from '../fixtures/openai-computer/computer-calls.js';

const API_KEY = 'sk-test-computer-SECRET-7';
const PIXELS = Buffer.from('fake png bytes').toString('base64');
const SCREENSHOT_URL = `data:image/png;base64,${PIXELS}`;

let server: FakeOpenAiServer;

beforeEach(async () => {
  server = await startFakeOpenAiServer();
});

afterEach(async () => {
  await server.close();
});

function adapterFor(name = 'computer-use-preview') {
  return createModelAdapter({ name, baseUrl: server.baseUrl, apiKey: API_KEY, api: 'responses', maxRetries: 0, timeoutMs: 5_000 });
}

function computerTool(toolType: 'computer_use_preview' | 'computer'): ModelToolDeclaration {
  return {
    name: 'computer',
    description: "OpenAI's computer tool",
    parameters: { type: 'object' },
    native: { kind: 'openai-computer', toolType, displayWidth: 640, displayHeight: 400, environment: 'browser' },
  };
}

const ASK_USER: ModelToolDeclaration = { name: 'ask_user', description: 'Ask the user', parameters: { type: 'object', properties: {} } };

type Body = Record<string, unknown> & { input: Array<Record<string, unknown>>; tools?: Array<Record<string, unknown>> };

function bodyOf(index: number): Body {
  return server.requests[index]?.body as Body;
}

/** A history with one computer call that ran (its screenshot acknowledged a check) and one whose arguments were broken. */
function historyWithComputerCalls(): Message[] {
  return [
    { role: 'system', parts: [{ type: 'text', text: 'You are Sightline.' }] },
    { role: 'user', parts: [{ type: 'text', text: 'Search the news' }, { type: 'image', imageId: 'img_00000000000a', mime: 'image/png', data: PIXELS }] },
    {
      role: 'assistant',
      parts: [{ type: 'text', text: 'Clicking on the browser address bar.' }],
      toolCalls: [
        {
          id: 'call_1',
          name: 'computer',
          argumentsText: JSON.stringify({
            action: { type: 'click', button: 'left', x: 156, y: 50 },
            pending_safety_checks: [MALICIOUS_INSTRUCTIONS_CHECK],
          }),
          providerData: {
            itemId: 'cu_1',
            reasoning: [{ id: 'rs_1', encryptedContent: 'gAAAA-sealed', summary: ['Clicking on the browser address bar.'] }],
          },
        },
      ],
    },
    {
      role: 'tool',
      toolCallId: 'call_1',
      name: 'computer',
      parts: [
        { type: 'text', text: 'click at screen (312, 100)' },
        { type: 'text', text: '<img_00000000000b>' },
        { type: 'image', imageId: 'img_00000000000b', mime: 'image/png', data: PIXELS },
      ],
      providerData: { acknowledgedSafetyChecks: [MALICIOUS_INSTRUCTIONS_CHECK], currentUrl: 'http://127.0.0.1:9/sandbox' },
    },
    {
      role: 'assistant',
      parts: [],
      toolCalls: [
        {
          id: 'call_2',
          name: 'computer',
          argumentsText: '{"action": {"type": "teleport"}, "pending_safety_checks": []}',
          providerData: { itemId: 'cu_2', reasoning: [{ id: 'rs_2', encryptedContent: 'gAAAA-other', summary: [] }] },
        },
      ],
    },
    { role: 'tool', toolCallId: 'call_2', name: 'computer', parts: [{ type: 'text', text: 'The arguments of computer do not fit its schema' }], isError: true },
  ];
}

describe('the computer tool in a Responses request', () => {
  it('declares computer_use_preview with the display and environment, beside function tools, with truncation and encrypted reasoning', async () => {
    server.script([{ type: 'answer', text: 'Done.' }]);
    await adapterFor().complete({ messages: [userText('Go')], tools: [computerTool('computer_use_preview'), ASK_USER], toolChoice: 'auto' });
    const body = bodyOf(0);
    expect(body.tools).toEqual([
      { type: 'computer_use_preview', display_width: 640, display_height: 400, environment: 'browser' },
      { type: 'function', name: 'ask_user', description: 'Ask the user', parameters: { type: 'object', properties: {} }, strict: false },
    ]);
    expect(body).toMatchObject({ truncation: 'auto', include: ['reasoning.encrypted_content'], reasoning: { summary: 'concise' }, store: false, tool_choice: 'auto' });
  });

  it('declares the GA computer tool for newer models, which takes no display', async () => {
    server.script([{ type: 'answer', text: 'Done.' }]);
    await adapterFor('gpt-5.4').complete({ messages: [userText('Go')], tools: [computerTool('computer')] });
    const body = bodyOf(0);
    expect(body.tools).toEqual([{ type: 'computer' }]);
    expect(body).toMatchObject({ truncation: 'auto', include: ['reasoning.encrypted_content'] });
    expect(body.reasoning).toBeUndefined();
  });

  it('sends neither truncation nor include without a computer tool', async () => {
    server.script([{ type: 'answer', text: 'Done.' }]);
    await adapterFor('gpt-5').complete({ messages: [userText('Go')], tools: [ASK_USER] });
    expect(bodyOf(0).truncation).toBeUndefined();
    expect(bodyOf(0).include).toBeUndefined();
  });

  it('sends a call back as reasoning + computer_call and its result as computer_call_output with the acknowledged checks', async () => {
    server.script([{ type: 'answer', text: 'Done.' }]);
    await adapterFor().complete({ messages: historyWithComputerCalls(), tools: [computerTool('computer_use_preview')] });
    expect(bodyOf(0).input).toEqual([
      { role: 'system', content: 'You are Sightline.' },
      {
        role: 'user',
        content: [
          { type: 'input_text', text: 'Search the news' },
          { type: 'input_image', image_url: SCREENSHOT_URL, detail: 'auto' },
        ],
      },
      { role: 'assistant', content: 'Clicking on the browser address bar.' },
      { type: 'reasoning', id: 'rs_1', encrypted_content: 'gAAAA-sealed', summary: [{ type: 'summary_text', text: 'Clicking on the browser address bar.' }] },
      {
        type: 'computer_call',
        id: 'cu_1',
        call_id: 'call_1',
        status: 'completed',
        action: { type: 'click', button: 'left', x: 156, y: 50 },
        pending_safety_checks: [MALICIOUS_INSTRUCTIONS_CHECK],
      },
      {
        type: 'computer_call_output',
        call_id: 'call_1',
        output: { type: 'computer_screenshot', image_url: SCREENSHOT_URL, current_url: 'http://127.0.0.1:9/sandbox' },
        acknowledged_safety_checks: [MALICIOUS_INSTRUCTIONS_CHECK],
      },
      { role: 'user', content: 'Computer call call_1:\nclick at screen (312, 100)\n<img_00000000000b>' },
      // Broken arguments ran nothing and have no screenshot: the call and its answer go back as text, without its reasoning.
      { role: 'assistant', content: 'Computer call call_2: {"action": {"type": "teleport"}, "pending_safety_checks": []}' },
      {
        role: 'user',
        content: [
          { type: 'input_text', text: 'The computer call call_2 failed:' },
          { type: 'input_text', text: 'The arguments of computer do not fit its schema' },
        ],
      },
    ]);
  });

  it('sends no current_url with the GA tool, whose reference has none', async () => {
    server.script([{ type: 'answer', text: 'Done.' }]);
    await adapterFor('gpt-5.4').complete({ messages: historyWithComputerCalls(), tools: [computerTool('computer')] });
    const output = bodyOf(0).input.find((item) => item.type === 'computer_call_output');
    expect(output?.output).toEqual({ type: 'computer_screenshot', image_url: SCREENSHOT_URL });
  });

  it('sends a computer call whose screenshot was folded into a placeholder as text', async () => {
    const history = historyWithComputerCalls().slice(0, 4);
    const result = history[3] as Extract<Message, { role: 'tool' }>;
    result.parts = [{ type: 'text', text: 'click at screen (312, 100)' }, { type: 'text', text: '[Visual_Placeholder: img_00000000000b] step 1 · click' }];
    server.script([{ type: 'answer', text: 'Done.' }]);
    await adapterFor().complete({ messages: history, tools: [computerTool('computer_use_preview')] });
    const input = bodyOf(0).input;
    expect(input.some((item) => item.type === 'computer_call' || item.type === 'computer_call_output' || item.type === 'reasoning')).toBe(false);
    expect(input.at(-2)).toMatchObject({ role: 'assistant', content: expect.stringContaining('Computer call call_1: {"action":{"type":"click"') });
    expect(JSON.stringify(input.at(-1))).toContain('Visual_Placeholder: img_00000000000b');
  });
});

/** The call read from the guide's click (guideClick({ x: 156, y: 50 }, 'call_zw3')), streamed or whole. */
const GUIDE_CLICK_CALL = {
  id: 'call_zw3',
  name: 'computer',
  argumentsText: JSON.stringify({ action: { type: 'click', button: 'left', x: 156, y: 50 }, pending_safety_checks: [] }),
  providerData: {
    itemId: 'cu_call_zw3',
    reasoning: [{ id: 'rs_call_zw3', encryptedContent: 'gAAAAABencrypted-reasoning-1', summary: ['Clicking on the browser address bar.'] }],
  },
};

describe('computer_call and reasoning items in the answer', () => {
  it('reads a streamed computer call with the encrypted reasoning before it, whose summary is the thought', async () => {
    server.script([{ type: 'answer', responsesItems: [...guideClick({ x: 156, y: 50 }, 'call_zw3'), { type: 'computer_call', id: 'cu_2', callId: 'call_b', actions: [{ type: 'type', text: 'hi' }, { type: 'keypress', keys: ['ENTER'] }], pendingSafetyChecks: [MALICIOUS_INSTRUCTIONS_CHECK] }] }]);
    const reply = await adapterFor().complete({ messages: [userText('Go')], tools: [computerTool('computer_use_preview')] });
    expect(reply.parts).toEqual([{ type: 'text', text: 'Clicking on the browser address bar.' }]);
    expect(reply.finishReason).toBe('tool-calls');
    expect(reply.toolCalls).toEqual([
      GUIDE_CLICK_CALL,
      {
        id: 'call_b',
        name: 'computer',
        argumentsText: JSON.stringify({
          actions: [{ type: 'type', text: 'hi' }, { type: 'keypress', keys: ['ENTER'] }],
          pending_safety_checks: [MALICIOUS_INSTRUCTIONS_CHECK],
        }),
        providerData: { itemId: 'cu_2' },
      },
    ]);
  });

  it('reads the same answer whole, as the API returns it without streaming', async () => {
    server.script([{ type: 'answer', responsesItems: guideClick({ x: 156, y: 50 }, 'call_zw3') }]);
    const client = new OpenAI({ apiKey: API_KEY, baseURL: server.baseUrl, maxRetries: 0 });
    const response = (await client.responses.create({ model: 'computer-use-preview', input: 'Go', stream: false })) as Response;
    const reply = assistantMessageOfResponse(response, 'computer');
    expect(reply.finishReason).toBe('tool-calls');
    expect(reply.parts).toEqual([{ type: 'text', text: 'Clicking on the browser address bar.' }]);
    expect(reply.toolCalls).toEqual([GUIDE_CLICK_CALL]);
  });

  it('ends with a message and no call when the task is done, the reasoning without a call dropped', async () => {
    server.script([{ type: 'answer', text: 'The team is named Platform.', responsesItems: [{ type: 'reasoning', summary: ['Checking.'], encryptedContent: 'gAAAA-x' }] }]);
    const reply = await adapterFor().complete({ messages: [userText('Go')], tools: [computerTool('computer_use_preview')] });
    expect(reply.toolCalls).toEqual([]);
    expect(reply.parts).toEqual([{ type: 'text', text: 'The team is named Platform.' }]);
    expect(reply.finishReason).toBe('stop');
  });

  it('keeps reasoning before a function call with it, and drops reasoning that cannot go back', async () => {
    server.script([
      {
        type: 'answer',
        responsesItems: [{ type: 'reasoning', id: 'rs_plain', summary: ['no content'] }, { type: 'reasoning', id: 'rs_sealed', encryptedContent: 'gAAAA-y' }],
        toolCalls: [{ id: 'call_q', name: 'ask_user', arguments: '{"question": "Which team?"}' }],
      },
    ]);
    const reply = await adapterFor().complete({ messages: [userText('Go')], tools: [computerTool('computer_use_preview'), ASK_USER] });
    expect(reply.toolCalls).toEqual([
      { id: 'call_q', name: 'ask_user', argumentsText: '{"question": "Which team?"}', providerData: { reasoning: [{ id: 'rs_sealed', encryptedContent: 'gAAAA-y', summary: [] }] } },
    ]);
  });

  it('marks a computer call it cannot answer as invalid instead of failing the answer', async () => {
    server.script([
      { type: 'answer', responsesItems: [{ type: 'raw', item: { id: 'cu_x', type: 'computer_call', action: { type: 'click', x: 'left' }, status: 'completed' } }] },
      { type: 'answer', responsesItems: [{ type: 'computer_call', callId: 'call_c', action: { type: 'wait' } }] },
    ]);
    const withoutCallId = await adapterFor().complete({ messages: [userText('Go')], tools: [computerTool('computer_use_preview')] });
    expect(withoutCallId.toolCalls).toEqual([
      {
        id: 'cu_x',
        name: 'computer',
        argumentsText: '{"action":{"type":"click","x":"left"},"pending_safety_checks":[]}',
        providerData: { itemId: 'cu_x' },
        invalid: expect.stringContaining('no call_id'),
      },
    ]);
    const unoffered = await adapterFor().complete({ messages: [userText('Go')], tools: [ASK_USER] });
    expect(unoffered.toolCalls[0]).toMatchObject({ id: 'call_c', name: 'computer', invalid: expect.stringContaining('offered no computer tool') });
  });
});
