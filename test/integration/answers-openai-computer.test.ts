/**
 * Answer turns in the `openai-computer` dialect, through the real agent, the Responses adapter and the fake server:
 * the computer tool is left out and `answer` is a function tool beside the looking tools; the earlier turn's
 * computer calls go back as text (a computer_call needs the tool, and its reasoning must be followed by it); a reply
 * without a call is nudged instead of ending the turn (as it would while acting); an answer that does not fit is sent
 * back once, and a second ends the turn as failed, saying why.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { userText } from '../../src/shared/messages.js';
import { startAgentHarness, toolCall, type AgentHarness } from '../helpers/agent-harness.js';
import { assertion, extraction, value, verdict } from '../helpers/answer-turns.js';
import type { FakeReply } from '../helpers/fake-openai-server.js';
import { guideClick } from '../fixtures/openai-computer/computer-calls.js';

let harness: AgentHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

type Item = Record<string, unknown>;

function startOpenAiComputer(): Promise<AgentHarness> {
  return startAgentHarness({
    operator: { kind: 'browser', screen: { width: 1280, height: 800 } },
    config: { model: { name: 'computer-use-preview', api: 'responses' }, perception: { maxImageEdge: 640 } },
  });
}

function done(summary: string): FakeReply {
  return { type: 'answer', text: summary };
}

function body(index: number): { tools: Item[]; input: Item[] } & Item {
  return harness!.server.requests[index]!.body as { tools: Item[]; input: Item[] } & Item;
}

describe('answers in the openai-computer dialect', () => {
  it('asserts after acting: answer as a function tool, no computer tool, the earlier computer call sent back as text', async () => {
    harness = await startOpenAiComputer();
    harness.server.script([
      { type: 'answer', responsesItems: guideClick({ x: 320, y: 116 }, 'call_1') },
      done('Clicked the name field.'),
      toolCall('answer', verdict(true, 'The name field has the focus ring.')),
    ]);
    const acted = await harness.agent.runTurn({ request: userText('Click the name field') });
    expect(acted.status).toBe('finished');
    const outcome = await assertion(harness.agent, acted.sessionId, 'The name field has the focus');

    expect(outcome).toMatchObject({ status: 'finished', answer: { kind: 'verdict', value: true, reason: 'The name field has the focus ring.' } });
    expect(outcome.answer!.evidence).toHaveLength(1);
    const asked = body(2);
    expect(asked.tools.map((tool) => [tool.type, tool.name])).toEqual([
      ['function', 'answer'],
      ['function', 'get_history_image'],
      ['function', 'crop_image'],
    ]);
    expect(asked.tools[0]!.parameters).toMatchObject({ required: ['verdict', 'reason', 'evidence'] });
    // Nothing of the computer tool: no declaration, no computer_call items, no reasoning left without its call.
    expect(asked.truncation).toBeUndefined();
    const types = asked.input.map((item) => item.type ?? item.role);
    expect(types).not.toContain('computer_call');
    expect(types).not.toContain('computer_call_output');
    expect(types).not.toContain('reasoning');
    expect(asked.input.filter((item) => item.type === 'function_call')).toEqual([]);
    const text = JSON.stringify(asked.input);
    expect(text).toContain('Computer call call_1: {\\"action\\":{\\"type\\":\\"click\\"');
    expect(text).toContain('Result of computer call call_1:');
    expect(harness.storage.turns.get(outcome.turnId)).toMatchObject({ stepKind: 'assert', answer: outcome.answer });
  });

  it('nudges a reply without a call, sends a misfit back once, and takes the value that fits the schema', async () => {
    harness = await startOpenAiComputer();
    harness.server.script([
      done('The total is $12.50.'),
      toolCall('answer', value({ amount: 'twelve fifty' }, 'The total reads $12.50.')),
      toolCall('answer', value({ amount: 12.5 }, 'The total reads $12.50.')),
    ]);
    const outcome = await extraction(harness.agent, undefined, 'the cart total');

    expect(outcome).toMatchObject({ status: 'finished', answer: { kind: 'value', value: { amount: 12.5 } } });
    expect(harness.server.requests).toHaveLength(3);
    expect(body(0).tools[0]!.parameters).toMatchObject({ properties: { value: { properties: { amount: { type: 'number' } } } } });
    expect(JSON.stringify(body(1).input)).toContain('You replied without calling answer');
    const misfit = body(2).input.find((item) => item.type === 'function_call_output')!;
    expect(misfit.output).toMatch(/^The tool failed\.\nThe answer does not fit, so it was not taken: "value" does not match its schema: .*amount/);
  });

  it('fails the turn on a second answer that does not fit, saying why', async () => {
    harness = await startOpenAiComputer();
    harness.server.script([
      toolCall('answer', value({ amount: 'twelve' }, 'It says twelve.')),
      toolCall('answer', { value: { amount: 12 }, evidence: [] }),
    ]);
    const outcome = await extraction(harness.agent, undefined, 'the cart total');

    expect(outcome).toMatchObject({ status: 'failed', summary: `The model's answer did not fit twice: "reason" must be a sentence saying why.` });
    expect(outcome.answer).toBeUndefined();
    expect(harness.server.requests).toHaveLength(2);
  });
});
