/**
 * Answer turns in the `anthropic-computer` dialect, through the real agent, the Anthropic Messages adapter (the
 * official SDK) and the fake Anthropic server: Claude's computer tool is left out, and with it its beta header;
 * `answer` is a custom tool whose input schema is the answer's; the earlier turn's computer calls stay in the
 * history as the tool_use blocks Claude wrote; an answer that does not fit is sent back once as an error result.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { userText } from '../../src/shared/messages.js';
import { startAgentHarness, type AgentHarness } from '../helpers/agent-harness.js';
import { assertion, extraction, value, verdict } from '../helpers/answer-turns.js';
import { startFakeAnthropicServer, type FakeAnthropicReply, type FakeAnthropicServer } from '../helpers/fake-anthropic-server.js';

let anthropic: FakeAnthropicServer;
let harness: AgentHarness | undefined;
beforeEach(async () => {
  anthropic = await startFakeAnthropicServer();
});
afterEach(async () => {
  await harness?.close();
  harness = undefined;
  await anthropic.close();
});

function startClaude(): Promise<AgentHarness> {
  return startAgentHarness({
    operator: { kind: 'browser', screen: { width: 1280, height: 800 } },
    config: { model: { name: 'claude-sonnet-4-5', baseUrl: anthropic.baseUrl, anthropicApiKey: 'sk-ant-test-0123456789' }, perception: { maxImageEdge: 640 } },
  });
}

let uses = 0;
function call(name: string, input: unknown, text?: string): FakeAnthropicReply {
  uses += 1;
  return { type: 'answer', ...(text === undefined ? {} : { text }), toolUses: [{ id: `toolu_${String(uses).padStart(4, '0')}`, name, inputText: JSON.stringify(input) }] };
}

type Block = Record<string, unknown>;
const toolsOf = (index: number) => anthropic.requests[index]!.body.tools as Block[];
const messagesOf = (index: number) => anthropic.requests[index]!.body.messages as Array<{ role: string; content: Block[] | string }>;

describe('answers in the anthropic-computer dialect', () => {
  it('asserts after acting: answer as a custom tool, no computer tool nor its beta, the earlier tool_use kept', async () => {
    harness = await startClaude();
    anthropic.script([
      call('computer', { action: 'left_click', coordinate: [320, 116] }, 'I click the name field.'),
      call('finish', { summary: 'Clicked the name field.', success: true }),
      call('answer', verdict(true, 'The name field has the focus ring.'), 'The field is focused.'),
    ]);
    const acted = await harness.agent.runTurn({ request: userText('Click the name field') });
    expect(acted.status).toBe('finished');
    expect(String(anthropic.requests[0]!.headers['anthropic-beta'])).toContain('computer-use');
    const outcome = await assertion(harness.agent, acted.sessionId, 'The name field has the focus');

    expect(outcome).toMatchObject({ status: 'finished', answer: { kind: 'verdict', value: true, reason: 'The name field has the focus ring.' } });
    expect(toolsOf(2).map((tool) => [tool.type ?? 'custom', tool.name])).toEqual([
      ['custom', 'answer'],
      ['custom', 'get_history_image'],
      ['custom', 'crop_image'],
    ]);
    expect(toolsOf(2)[0]!.input_schema).toMatchObject({ properties: { verdict: { type: 'boolean' } }, required: ['verdict', 'reason', 'evidence'] });
    expect(String(anthropic.requests[2]!.headers['anthropic-beta'] ?? '')).not.toContain('computer-use');
    const history = messagesOf(2).flatMap((message) => (typeof message.content === 'string' ? [] : message.content));
    expect(history).toContainEqual(expect.objectContaining({ type: 'tool_use', name: 'computer', input: { action: 'left_click', coordinate: [320, 116] } }));
    const system = JSON.stringify(anthropic.requests[2]!.body.system);
    expect(system).toContain('Call answer once you know');
  });

  it('sends a misfit back once as an error result, then takes the value that fits the schema', async () => {
    harness = await startClaude();
    anthropic.script([
      call('answer', value('$12.50', 'The total reads $12.50.')),
      call('answer', value({ amount: 12.5 }, 'The total reads $12.50.')),
    ]);
    const outcome = await extraction(harness.agent, undefined, 'the cart total');

    expect(outcome).toMatchObject({ status: 'finished', answer: { kind: 'value', value: { amount: 12.5 }, reason: 'The total reads $12.50.' } });
    const sentBack = messagesOf(1).at(-1)!.content as Block[];
    const result = sentBack.find((block) => block.type === 'tool_result')!;
    expect(result.is_error).toBe(true);
    expect(JSON.stringify(result.content)).toContain('The answer does not fit, so it was not taken: \\"value\\" does not match its schema');
  });
});
