/**
 * What the model gets wrong comes back to it as an error result, and the loop goes on: bad JSON, an
 * unknown tool or action, a missing field, a point off the screenshot. Too many malformed replies in a row,
 * or replies without any tool call, end the turn as failed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { userText } from '../../src/shared/messages.js';
import { MAX_CONSECUTIVE_MALFORMED_REPLIES } from '../../src/main/agent/malformed-output.js';
import { chatMessages, computerCall, finishCall, startAgentHarness, toolCall, type AgentHarness } from '../helpers/agent-harness.js';

let harness: AgentHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** The tool message the model received for its previous call, in request `index`. */
function lastToolResult(index: number): string {
  const tools = chatMessages(harness!.server, index).filter((message) => message.role === 'tool');
  return tools.at(-1)!.content as string;
}

describe('malformed tool calls', () => {
  it.each([
    {
      name: 'invalid JSON arguments',
      reply: () => toolCall('computer', '{"action": "click", "x": 10,'),
      expected: ['not valid JSON', 'one JSON object'],
    },
    {
      name: 'an unknown tool',
      reply: () => toolCall('teleport', { where: 'home' }),
      expected: ['There is no tool named "teleport"', 'computer, finish, ask_user'],
    },
    {
      name: 'an unknown action',
      reply: () => computerCall({ action: 'fly', x: 1, y: 1 }),
      expected: ['action: unknown value "fly"', 'click, double_click'],
    },
    {
      name: 'a missing field',
      reply: () => computerCall({ action: 'click', x: 10 }),
      expected: ['y: Invalid input: expected number, received undefined', 'Expected arguments (JSON schema)'],
    },
    {
      name: 'a missing finish summary',
      reply: () => toolCall('finish', { success: true }),
      expected: ['summary: Invalid input'],
    },
  ])('answers $name with an error result, and the model recovers', async ({ reply, expected }) => {
    harness = await startAgentHarness();
    harness.server.script([reply(), computerCall({ action: 'click', x: 10, y: 10 }), finishCall()]);
    const outcome = await harness.agent.runTurn({ request: userText('Click') });

    expect(outcome.status).toBe('finished');
    const result = lastToolResult(1);
    expect(result.startsWith('The tool failed.')).toBe(true);
    for (const text of expected) expect(result).toContain(text);
    // Nothing ran for the malformed call; the corrected one ran.
    expect(harness.operator.executed.map((entry) => entry.action)).toEqual([{ action: 'click', x: 10, y: 10 }]);
    const [malformedStep] = harness.storage.steps.listByTurn(outcome.turnId);
    expect(malformedStep!.error).toContain(expected[0]!);
    expect(harness.events.find((event) => event.type === 'step')).toMatchObject({ ok: false });
  });

  it('accepts null for the fields an action does not use', async () => {
    harness = await startAgentHarness();
    harness.server.script([computerCall({ action: 'type', text: 'hi', x: null, y: null, keys: null }), finishCall()]);
    const outcome = await harness.agent.runTurn({ request: userText('Type hi') });
    expect(outcome.status).toBe('finished');
    expect(harness.operator.executed.map((entry) => entry.action)).toEqual([{ action: 'type', text: 'hi' }]);
  });

  it(`ends the turn as failed after more than ${MAX_CONSECUTIVE_MALFORMED_REPLIES} malformed replies in a row`, async () => {
    harness = await startAgentHarness();
    const replies = Array.from({ length: MAX_CONSECUTIVE_MALFORMED_REPLIES + 1 }, () => toolCall('computer', 'not json'));
    harness.server.script([...replies, finishCall()]);
    const outcome = await harness.agent.runTurn({ request: userText('Do something') });

    expect(outcome).toMatchObject({ status: 'failed', reason: 'failed', steps: MAX_CONSECUTIVE_MALFORMED_REPLIES + 1 });
    expect(outcome.summary).toContain('malformed in 4 replies in a row');
    expect(harness.server.requests).toHaveLength(MAX_CONSECUTIVE_MALFORMED_REPLIES + 1);
    expect(harness.server.remainingReplies()).toBe(1);
    expect(harness.hookCalls).toHaveLength(1);
  });

  it('counts only consecutive malformed replies: a good one in between resets the count', async () => {
    harness = await startAgentHarness();
    const bad = () => toolCall('computer', '{');
    harness.server.script([bad(), bad(), bad(), computerCall({ action: 'click', x: 1, y: 1 }), bad(), bad(), bad(), finishCall()]);
    const outcome = await harness.agent.runTurn({ request: userText('Persist') });
    expect(outcome.status).toBe('finished');
    expect(outcome.steps).toBe(8);
  });
});

describe('coordinates off the screenshot', () => {
  it('refuses the point with an error result and executes nothing', async () => {
    harness = await startAgentHarness({ operator: { screen: { width: 640, height: 400 } } });
    harness.server.script([computerCall({ action: 'click', x: 2100, y: 50 }), computerCall({ action: 'click', x: 600, y: 50 }), finishCall()]);
    const outcome = await harness.agent.runTurn({ request: userText('Click far right') });

    expect(outcome.status).toBe('finished');
    const result = lastToolResult(1);
    expect(result).toContain('x=2100 is outside the screenshot (0–639)');
    expect(result).toContain('Nothing was done');
    expect(harness.operator.executed.map((entry) => entry.action)).toEqual([{ action: 'click', x: 600, y: 50 }]);
    const steps = harness.storage.steps.listByTurn(outcome.turnId);
    expect(steps[0]).toMatchObject({ action: { action: 'click', x: 2100, y: 50 }, dedupOfImageId: null });
    expect(steps[0]!.error).toContain('outside the screenshot');
    // No screenshot was taken for the refused click.
    expect(harness.storage.images.listByTurn(outcome.turnId)).toHaveLength(2);
  });

  it('checks normalized coordinates against 0–1000 for models that use them', async () => {
    harness = await startAgentHarness({
      operator: { screen: { width: 640, height: 400 } },
      // Gemini names points 0–1000 through the computer tool (Qwen3-VL does too, but speaks its own computer_use).
      config: { model: { name: 'gemini-2.5-flash' } },
    });
    harness.server.script([computerCall({ action: 'click', x: 1200, y: 500 }), computerCall({ action: 'click', x: 500, y: 500 }), finishCall()]);
    const outcome = await harness.agent.runTurn({ request: userText('Click the middle') });
    expect(outcome.status).toBe('finished');
    expect(lastToolResult(1)).toContain('x=1200 is outside the screenshot (0–1000, normalized coordinates)');
    expect(harness.operator.executed[0]!.screen).toEqual([{ x: 320, y: 200 }]);
    expect(chatMessages(harness.server, 0)[0]!.content).toContain('normalized to 0–1000');
  });
});

describe('replies without a tool call', () => {
  it('nudges the model once, and the turn continues when it then calls a tool', async () => {
    harness = await startAgentHarness();
    harness.server.script([{ type: 'answer', text: 'I think it is done.' }, finishCall()]);
    const outcome = await harness.agent.runTurn({ request: userText('Check it') });
    expect(outcome.status).toBe('finished');
    const nudge = chatMessages(harness.server, 1).at(-1)!;
    expect(nudge.role).toBe('user');
    expect(nudge.content).toContain('call finish when the task is done');
    expect(nudge.content).toContain('ask_user');
  });

  it('ends the turn as failed when the model again calls no tool after the nudge', async () => {
    harness = await startAgentHarness();
    harness.server.script([{ type: 'answer', text: 'Hmm.' }, { type: 'answer', text: 'All good, I am done.' }]);
    const outcome = await harness.agent.runTurn({ request: userText('Check it') });
    expect(outcome).toMatchObject({ status: 'failed', reason: 'failed', steps: 0 });
    expect(outcome.summary).toContain('All good, I am done.');
    expect(harness.storage.turns.get(outcome.turnId)!.status).toBe('failed');
  });
});
