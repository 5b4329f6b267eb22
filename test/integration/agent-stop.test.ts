/**
 * Stopping a turn (Ctrl+C in the CLI: its AbortSignal) at any point ends it cleanly: the turn row says
 * stopped, every step row is whole, every tool call the model made is answered, the turn-end hook runs
 * once, and the session takes the next request as a new turn.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { userText } from '../../src/shared/messages.js';
import type { FakeReply } from '../helpers/fake-openai-server.js';
import { chatMessages, computerCall, finishCall, startAgentHarness, type AgentHarness } from '../helpers/agent-harness.js';

let harness: AgentHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** Everything about the turn's rows that a stop must not leave half done. */
function expectConsistentTurn(turnId: string): void {
  const { storage } = harness!;
  const turn = storage.turns.get(turnId)!;
  expect(turn.status).toBe('stopped');
  expect(turn.endedAt).not.toBeNull();
  expect(storage.sessions.get(turn.sessionId)!.status).toBe('idle');
  for (const step of storage.steps.listByTurn(turnId)) {
    expect(step.latencyMs).not.toBeNull();
    expect(step.result !== null || step.error !== null).toBe(true);
    if (step.screenshotImageId !== null) expect(storage.images.get(step.screenshotImageId)).toBeDefined();
  }
  const messages = storage.messages.listByTurn(turnId).map((record) => record.message);
  const calls = messages.flatMap((message) => (message.role === 'assistant' ? message.toolCalls.map((call) => call.id) : []));
  const answers = messages.flatMap((message) => (message.role === 'tool' ? [message.toolCallId] : []));
  expect(answers.sort()).toEqual(calls.sort());
  expect(storage.steps.listByTurn(turnId)).toHaveLength(calls.length);
  expect(harness!.hookCalls.filter((call) => call.turnId === turnId)).toEqual([
    { sessionId: turn.sessionId, turnId, status: 'stopped' },
  ]);
  const ended = harness!.events.filter((event) => event.type === 'turn-ended' && event.turnId === turnId);
  expect(ended).toMatchObject([{ status: 'stopped', reason: 'stopped' }]);
}

/** The session goes on: a new request is a new turn that finishes, with a valid history. */
async function expectSessionContinues(sessionId: string): Promise<void> {
  const { server, agent } = harness!;
  const before = server.requests.length;
  server.script([finishCall('Carried on.')]);
  const next = await agent.runTurn({ sessionId, request: userText('Carry on') });
  expect(next).toMatchObject({ sessionId, status: 'finished', summary: 'Carried on.' });
  const messages = chatMessages(server, before);
  const calls = messages.flatMap((message) => (message.tool_calls as Array<{ id: string }> | undefined) ?? []);
  const answered = new Set(messages.filter((message) => message.role === 'tool').map((message) => message.tool_call_id));
  expect(calls.every((call) => answered.has(call.id))).toBe(true);
}

describe('stopping a turn', () => {
  it('during a model call', async () => {
    harness = await startAgentHarness();
    const controller = new AbortController();
    const stopWhileAnswering = (): FakeReply => {
      controller.abort();
      return { type: 'hang' };
    };
    harness.server.script([computerCall({ action: 'click', x: 5, y: 5 }), stopWhileAnswering]);
    const outcome = await harness.agent.runTurn({ request: userText('Click twice'), signal: controller.signal });

    expect(outcome).toMatchObject({ status: 'stopped', reason: 'stopped', steps: 1 });
    expect(harness.operator.executed).toHaveLength(1);
    expectConsistentTurn(outcome.turnId);
    await expectSessionContinues(outcome.sessionId);
  });

  it('while the model is streaming its answer', async () => {
    harness = await startAgentHarness({
      extra: {
        onEvent: (event) => {
          harness?.events.push(event);
          if (event.type === 'model-text-delta') controller.abort();
        },
      },
    });
    const controller = new AbortController();
    harness.server.script([{ type: 'stall', textPieces: ['Let me ', 'think'] }]);
    const outcome = await harness.agent.runTurn({ request: userText('Think'), signal: controller.signal });
    expect(outcome).toMatchObject({ status: 'stopped', steps: 0 });
    expectConsistentTurn(outcome.turnId);
    await expectSessionContinues(outcome.sessionId);
  });

  it('between steps, answering the calls that did not run', async () => {
    const controller = new AbortController();
    harness = await startAgentHarness({
      operator: { onExecute: (action) => (action.action === 'click' ? controller.abort() : undefined) },
    });
    harness.server.script([
      {
        type: 'answer',
        text: 'Two actions.',
        toolCalls: [
          { id: 'call_click', name: 'computer', arguments: JSON.stringify({ action: 'click', x: 1, y: 1 }) },
          { id: 'call_type', name: 'computer', arguments: JSON.stringify({ action: 'type', text: 'never typed' }) },
        ],
      },
    ]);
    const outcome = await harness.agent.runTurn({ request: userText('Click and type'), signal: controller.signal });

    expect(outcome).toMatchObject({ status: 'stopped', steps: 2 });
    // The click that was under way finished; the typing never started.
    expect(harness.operator.executed.map((entry) => entry.action.action)).toEqual(['click']);
    const [clickStep, typeStep] = harness.storage.steps.listByTurn(outcome.turnId);
    expect(clickStep!.error).toBeNull();
    expect(typeStep!.error).toBe('Not run: the user stopped the turn.');
    expect(harness.server.requests).toHaveLength(1);
    expectConsistentTurn(outcome.turnId);
    await expectSessionContinues(outcome.sessionId);
  });

  it('while waiting for a confirmation that never comes', async () => {
    const controller = new AbortController();
    harness = await startAgentHarness({
      confirm: () => {
        controller.abort();
        return new Promise<boolean>(() => {});
      },
    });
    harness.server.script([computerCall({ action: 'key', keys: 'alt+F4' })]);
    const outcome = await harness.agent.runTurn({ request: userText('Close it'), signal: controller.signal });
    expect(outcome).toMatchObject({ status: 'stopped', steps: 1 });
    expect(harness.operator.executed).toEqual([]);
    expect(harness.storage.steps.listByTurn(outcome.turnId)[0]!.error).toBe('Interrupted: the user stopped the turn.');
    expectConsistentTurn(outcome.turnId);
    await expectSessionContinues(outcome.sessionId);
  });

  it('before it began: no model call is made', async () => {
    harness = await startAgentHarness();
    const controller = new AbortController();
    controller.abort();
    const outcome = await harness.agent.runTurn({ request: userText('Never mind'), signal: controller.signal });
    expect(outcome).toMatchObject({ status: 'stopped', steps: 0 });
    expect(harness.server.requests).toHaveLength(0);
    expectConsistentTurn(outcome.turnId);
    await expectSessionContinues(outcome.sessionId);
  });
});

describe('one turn at a time', () => {
  it('refuses a second concurrent turn on the same agent, and a session that does not exist', async () => {
    harness = await startAgentHarness();
    const controller = new AbortController();
    harness.server.script([
      () => {
        controller.abort();
        return { type: 'hang' };
      },
    ]);
    const first = harness.agent.runTurn({ request: userText('First'), signal: controller.signal });
    await expect(harness.agent.runTurn({ request: userText('Second') })).rejects.toThrow(/already running a turn/);
    expect((await first).status).toBe('stopped');
    await expect(harness.agent.runTurn({ sessionId: 'ses_000000000000', request: userText('x') })).rejects.toThrow(
      'There is no session ses_000000000000.',
    );
  });
});
