/**
 * The confirmation gate holds before the action: a refused action never reaches the operator, the model
 * is told why, and the events say who answered.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ComputerAction } from '../../src/shared/actions.js';
import { userText } from '../../src/shared/messages.js';
import { textOfParts } from '../../src/shared/messages.js';
import { chatMessages, computerCall, finishCall, startAgentHarness, type AgentHarness, type FakeAnswer } from '../helpers/agent-harness.js';
import { qwenNativeReply, qwenTextReply } from '../helpers/qwen-model-replies.js';

let harness: AgentHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

function toolResults(index: number): string[] {
  return chatMessages(harness!.server, index)
    .filter((message) => message.role === 'tool')
    .map((message) => message.content as string);
}

describe('the confirmation policy', () => {
  it('refuses a risky key combination when the user says no: nothing runs, the model is told why', async () => {
    harness = await startAgentHarness({ config: { agent: { confirm: 'risky' } }, confirm: async () => false });
    harness.server.script([computerCall({ action: 'key', keys: 'alt+F4' }), finishCall('Could not close.', false)]);
    const outcome = await harness.agent.runTurn({ request: userText('Close the window') });

    expect(outcome).toMatchObject({ status: 'failed', reason: 'failed', summary: 'Could not close.' });
    expect(harness.operator.executed).toEqual([]);
    expect(harness.confirmations).toEqual([
      {
        sessionId: outcome.sessionId,
        turnId: outcome.turnId,
        requestId: expect.any(String),
        action: { action: 'key', keys: 'alt+F4' },
        reason: 'key combination alt+F4 may close a window or tab',
      },
    ]);
    expect(toolResults(1)[0]).toContain('the user refused this action: key combination alt+F4 may close a window or tab');
    const requested = harness.events.find((event) => event.type === 'confirmation-requested');
    const answered = harness.events.find((event) => event.type === 'confirmation-answered');
    expect(requested).toMatchObject({ action: { action: 'key', keys: 'alt+F4' }, reason: 'key combination alt+F4 may close a window or tab' });
    expect(answered).toMatchObject({ approved: false, by: 'user' });
    expect(answered!.type === 'confirmation-answered' && requested!.type === 'confirmation-requested' && answered!.requestId === requested!.requestId).toBe(true);
    // The handler is asked under the id the event announced, so an answer from any window can name it.
    expect(requested).toMatchObject({ requestId: harness.confirmations[0]!.requestId });
    const [step] = harness.storage.steps.listByTurn(outcome.turnId);
    expect(step!.error).toContain('the user refused this action');
    // Refused: no screenshot after it.
    expect(harness.storage.images.listByTurn(outcome.turnId)).toHaveLength(1);
  });

  it('runs the risky action when the user approves, and reports who approved', async () => {
    harness = await startAgentHarness({ confirm: async () => ({ approved: true, by: 'flag' }) });
    harness.server.script([computerCall({ action: 'key', keys: 'ctrl+w' }), finishCall()]);
    const outcome = await harness.agent.runTurn({ request: userText('Close the tab') });
    expect(outcome.status).toBe('finished');
    expect(harness.operator.executed.map((entry) => entry.action)).toEqual([{ action: 'key', keys: 'ctrl+w' }]);
    expect(harness.events.find((event) => event.type === 'confirmation-answered')).toMatchObject({ approved: true, by: 'flag' });
  });

  it('does not ask for ordinary actions under "risky"', async () => {
    harness = await startAgentHarness();
    harness.server.script([computerCall({ action: 'click', x: 3, y: 3 }), computerCall({ action: 'key', keys: 'ctrl+s' }), finishCall()]);
    await harness.agent.runTurn({ request: userText('Save') });
    expect(harness.confirmations).toEqual([]);
    expect(harness.operator.executed).toHaveLength(2);
  });

  it('asks for every action that changes something under "always"', async () => {
    harness = await startAgentHarness({ config: { agent: { confirm: 'always' } }, confirm: async () => true });
    harness.server.script([
      computerCall({ action: 'click', x: 3, y: 3 }),
      computerCall({ action: 'type', text: 'abc' }),
      computerCall({ action: 'screenshot' }),
      finishCall(),
    ]);
    await harness.agent.runTurn({ request: userText('Fill it in') });
    // Every confirmation here is about a computer action (a tool call's would have no `action` field).
    expect(harness.confirmations.map((request) => (request.action as ComputerAction).action)).toEqual(['click', 'type']);
    expect(harness.confirmations[0]!.reason).toContain('"always"');
    expect(harness.operator.executed).toHaveLength(3);
  });

  it('never asks under "never", even for a risky combination', async () => {
    harness = await startAgentHarness({ config: { agent: { confirm: 'never' } } });
    harness.server.script([computerCall({ action: 'key', keys: 'cmd+q' }), finishCall()]);
    await harness.agent.runTurn({ request: userText('Quit') });
    expect(harness.confirmations).toEqual([]);
    expect(harness.operator.executed).toHaveLength(1);
  });

  it('treats typing into a password field as risky', async () => {
    harness = await startAgentHarness({ operator: { focusedFieldKind: 'password' }, confirm: async () => false });
    harness.server.script([computerCall({ action: 'type', text: 'hunter2' }), finishCall('Stopped at the password.', false)]);
    await harness.agent.runTurn({ request: userText('Log in') });
    expect(harness.confirmations.map((request) => request.reason)).toEqual(['typing into a password field']);
    expect(harness.operator.executed).toEqual([]);
    expect(toolResults(1)[0]).toContain('the user refused this action: typing into a password field');
  });

  it('treats a paste into the focused password field as risky on an operator that reads only the focus (the desktop)', async () => {
    const desktop = { kind: 'desktop' as const, focusedFieldKind: 'password' as const, focusedApplication: { name: 'Firefox', isTerminal: false } };
    harness = await startAgentHarness({ operator: desktop, confirm: async () => false });
    harness.server.script([computerCall({ action: 'key', keys: 'ctrl+v' }), finishCall('Stopped at the password.', false)]);
    await harness.agent.runTurn({ request: userText('Log in') });
    expect(harness.confirmations.map(({ action, reason }) => ({ action, reason }))).toEqual([
      { action: { action: 'key', keys: 'ctrl+v' }, reason: 'pasting into a password field' },
    ]);
    expect(harness.operator.executed).toEqual([]);
  });

  it('approved, a paste into a password field it cannot read says so, and how much only where it can tell', async () => {
    const desktop = { kind: 'desktop' as const, focusedFieldKind: 'password' as const, focusedApplication: { name: 'Firefox', isTerminal: false } };
    harness = await startAgentHarness({ operator: desktop, confirm: async () => true });
    harness.server.script([computerCall({ action: 'key', keys: 'shift+Insert' }), finishCall()]);
    const outcome = await harness.agent.runTurn({ request: userText('Log in') });
    const [step] = harness.storage.steps.listByTurn(outcome.turnId);
    expect(step!.action).toEqual({ action: 'key', keys: 'shift+Insert' });
    expect(step!.result).toMatchObject({ ok: true, detail: expect.stringContaining('text pasted into a password field') });
  });

  it('does not ask when the focused field is an ordinary text field', async () => {
    harness = await startAgentHarness({ operator: { focusedFieldKind: 'text' } });
    harness.server.script([computerCall({ action: 'type', text: 'hello' }), finishCall()]);
    await harness.agent.runTurn({ request: userText('Type') });
    expect(harness.confirmations).toEqual([]);
    expect(harness.operator.executed).toHaveLength(1);
  });
});

describe('the confirmation policy across dialects', () => {
  /** What a refused ctrl+w leaves behind: what was asked, what ran, what the step says, what the events say. */
  async function refusedCloseTab(model: string, reply: Parameters<AgentHarness['server']['script']>[0][number]) {
    const own = await startAgentHarness({ config: { model: { name: model } }, confirm: async () => false });
    try {
      own.server.script([reply, finishCall('Could not close.', false)]);
      const outcome = await own.agent.runTurn({ request: userText('Close the tab') });
      const [step] = own.storage.steps.listByTurn(outcome.turnId);
      return {
        confirmations: own.confirmations.map(({ action, reason }) => ({ action, reason })),
        executed: own.operator.executed,
        step: { action: step!.action, error: step!.error },
        answered: own.events.filter((event) => event.type === 'confirmation-answered').map((event) => event.type === 'confirmation-answered' && { approved: event.approved, by: event.by }),
      };
    } finally {
      await own.close();
    }
  }

  it("refuses a UI-TARS hotkey(key='ctrl w') exactly as a ctrl+w from the computer tool", async () => {
    const fromComputerTool = await refusedCloseTab('gpt-4.1', computerCall({ action: 'key', keys: 'ctrl+w' }));
    const fromUiTars = await refusedCloseTab('ui-tars-1.5-7b', { type: 'answer', text: "Thought: Close this tab.\nAction: hotkey(key='ctrl w')", server: 'vllm' });
    expect(fromComputerTool.confirmations).toEqual([{ action: { action: 'key', keys: 'ctrl+w' }, reason: expect.stringContaining('ctrl+w') }]);
    expect(fromComputerTool.executed).toEqual([]);
    expect(fromComputerTool.step.error).toContain('the user refused this action');
    expect(fromUiTars).toEqual(fromComputerTool);
  });
});

describe('the confirmation policy, whatever the dialect', () => {
  // What the gate saw and said for a ctrl+w from our computer tool, and from Qwen's computer_use key action.
  async function refusedCtrlW(model: string, reply: FakeAnswer): Promise<{ request: unknown; refusal: string; executed: number }> {
    harness = await startAgentHarness({ config: { model: { name: model } }, confirm: async () => false });
    harness.server.script([reply, model === 'gpt-4.1' ? finishCall('Kept the tab.', false) : qwenNativeReply({ action: 'terminate', status: 'failure' })]);
    const outcome = await harness.agent.runTurn({ request: userText('Close the tab') });
    const { requestId: _requestId, sessionId: _sessionId, turnId: _turnId, ...request } = harness.confirmations[0]!;
    const messages = harness.storage.messages.listByTurn(outcome.turnId).map((record) => record.message);
    const refusal = messages.find((message) => message.role === 'tool' && message.isError === true);
    const result = { request, refusal: refusal === undefined ? '' : textOfParts(refusal.parts), executed: harness.operator.executed.length };
    await harness.close();
    harness = undefined;
    return result;
  }

  it("refuses a ctrl+w from Qwen's key action exactly as one from the computer tool", async () => {
    const computer = await refusedCtrlW('gpt-4.1', computerCall({ action: 'key', keys: 'ctrl+w' }));
    expect(computer).toEqual({
      request: { action: { action: 'key', keys: 'ctrl+w' }, reason: 'key combination ctrl+w may close a window or tab' },
      refusal: expect.stringContaining('the user refused this action: key combination ctrl+w may close a window or tab'),
      executed: 0,
    });
    expect(await refusedCtrlW('qwen2.5-vl-7b-instruct', qwenNativeReply({ action: 'key', keys: ['ctrl', 'w'] }))).toEqual(computer);
    expect(await refusedCtrlW('qwen3-vl:8b', qwenTextReply({ action: 'key', keys: ['ctrl', 'w'] }, 'Action: Close the tab.'))).toEqual(computer);
  });
});

describe('ask_user', () => {
  it('returns the answer to the model as the tool result', async () => {
    harness = await startAgentHarness({ askUser: async (question) => (question.includes('Which') ? 'The blue one' : 'no idea') });
    harness.server.script([
      { type: 'answer', text: '', toolCalls: [{ name: 'ask_user', arguments: JSON.stringify({ question: 'Which file?' }) }] },
      finishCall(),
    ]);
    const outcome = await harness.agent.runTurn({ request: userText('Open the file') });
    expect(outcome.status).toBe('finished');
    expect(toolResults(1)[0]).toBe('The user answered: The blue one');
    expect(harness.events.filter((event) => event.type === 'ask-user' || event.type === 'ask-user-answered')).toMatchObject([
      { type: 'ask-user', question: 'Which file?' },
      { type: 'ask-user-answered', answer: 'The blue one' },
    ]);
  });

  it('tells the model to decide itself when nobody can answer', async () => {
    harness = await startAgentHarness({ askUser: async () => undefined });
    harness.server.script([
      { type: 'answer', text: '', toolCalls: [{ name: 'ask_user', arguments: JSON.stringify({ question: 'Which file?' }) }] },
      finishCall(),
    ]);
    await harness.agent.runTurn({ request: userText('Open the file') });
    expect(toolResults(1)[0]).toContain('no user is available to answer; decide yourself or finish');
  });
});
