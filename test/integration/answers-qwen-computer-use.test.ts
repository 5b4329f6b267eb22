/**
 * Answer turns in the `qwen-computer-use` dialect, through the real agent, the Chat Completions adapter and the fake
 * server: `answer` is a function beside the looking tools (computer_use left out), called natively (a server with a
 * tool parser) or written as `<tool_call>` text (one without), which the prompt teaches; an answer that does not fit
 * goes back once, in the form the call came in.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { userText } from '../../src/shared/messages.js';
import { chatMessages, contentText, startAgentHarness, toolCall, type AgentHarness } from '../helpers/agent-harness.js';
import { assertion, extraction, value, verdict } from '../helpers/answer-turns.js';
import { qwenNativeReply, qwenToolCallText } from '../helpers/qwen-model-replies.js';

let harness: AgentHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

function startQwen(): Promise<AgentHarness> {
  return startAgentHarness({
    operator: { screen: { width: 1280, height: 800 } },
    config: { model: { name: 'qwen2.5-vl-7b-instruct' }, perception: { maxImageEdge: 640 } },
  });
}

const toolNames = (index: number) =>
  ((harness!.server.requests[index]!.body as { tools: Array<{ function: { name: string } }> }).tools ?? []).map((tool) => tool.function.name);

describe('answers in the qwen-computer-use dialect', () => {
  it('asserts after acting, answer called natively; the prompt also teaches the <tool_call> form', async () => {
    harness = await startQwen();
    harness.server.script([
      qwenNativeReply({ action: 'left_click', coordinate: [320, 116] }),
      qwenNativeReply({ action: 'terminate', status: 'success' }),
      toolCall('answer', verdict(true, 'The name field has the focus ring.')),
    ]);
    const acted = await harness.agent.runTurn({ request: userText('Click the name field') });
    expect(acted.status).toBe('finished');
    const outcome = await assertion(harness.agent, acted.sessionId, 'The name field has the focus');

    expect(outcome).toMatchObject({ status: 'finished', answer: { kind: 'verdict', value: true, reason: 'The name field has the focus ring.' } });
    expect(toolNames(2)).toEqual(['answer', 'get_history_image', 'crop_image']);
    const system = contentText(chatMessages(harness.server, 2)[0]!);
    expect(system).toContain('Call answer once you know');
    expect(system).toContain('<tool_call>{"name": <function-name>, "arguments": <args-json-object>}</tool_call>');
  });

  it('extracts through <tool_call> text: a misfit goes back as a <tool_response>, the value that fits is taken', async () => {
    harness = await startQwen();
    harness.server.script([
      { type: 'answer', text: qwenToolCallText(value({ amount: '12.50' }, 'The total reads $12.50.'), 'The total is shown at the bottom.', 'answer') },
      { type: 'answer', text: qwenToolCallText(value({ amount: 12.5 }, 'The total reads $12.50.'), undefined, 'answer') },
    ]);
    const outcome = await extraction(harness.agent, undefined, 'the cart total');

    expect(outcome).toMatchObject({ status: 'finished', answer: { kind: 'value', value: { amount: 12.5 }, reason: 'The total reads $12.50.' } });
    const sentBack = chatMessages(harness.server, 1);
    expect(sentBack.some((message) => message.tool_calls !== undefined)).toBe(false);
    const response = contentText(sentBack.at(-1)!);
    expect(response).toMatch(/^<tool_response>\nThe call failed\.\nThe answer does not fit, so it was not taken: "value" does not match its schema/);
    expect(contentText(sentBack.at(-2)!)).toContain('<tool_call>\n{"name": "answer", "arguments": {"value": {"amount": "12.50"}');
  });
});
