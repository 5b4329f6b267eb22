/**
 * Typing through the gate (issue 17): a key sequence that spells a secret is judged like typing it, a
 * newline is an Enter that passes the gate on its own, text that looks like a secret is risky where the
 * focus cannot be told, and what is typed into a password field is never stored.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ComputerAction } from '../../src/shared/actions.js';
import { userText } from '../../src/shared/messages.js';
import { chatMessages, computerCall, finishCall, startAgentHarness, type AgentHarness } from '../helpers/agent-harness.js';

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

function storedText(turnId: string): string {
  const steps = harness!.storage.steps.listByTurn(turnId);
  const messages = harness!.storage.messages.listBySession(steps[0]!.sessionId).map((message) => JSON.stringify(message.message));
  return JSON.stringify(steps) + messages.join('\n');
}

describe('a key sequence that spells a secret into a password field', () => {
  it('is asked for like typing it, and refused nothing is pressed', async () => {
    harness = await startAgentHarness({ operator: { focusedFieldKind: 'password' }, confirm: async () => false });
    harness.server.script([computerCall({ action: 'key', keys: 's 3 c r e t' }), finishCall('Stopped at the password.', false)]);
    const outcome = await harness.agent.runTurn({ request: userText('Log in') });
    expect(harness.confirmations.map((request) => request.reason)).toEqual(['typing into a password field']);
    expect(harness.operator.executed).toEqual([]);
    expect(toolResults(1)[0]).toContain('the user refused this action: typing into a password field');
    const [step] = harness.storage.steps.listByTurn(outcome.turnId);
    expect(step!.action).toEqual({ action: 'key', keys: '[password]' });
  });

  it('is stored masked when approved: the step, the tool result, the model\'s call and its thought', async () => {
    harness = await startAgentHarness({ operator: { focusedFieldKind: 'password' }, confirm: async () => true });
    harness.server.script([
      computerCall({ action: 'key', keys: 's 3 c r e t' }, 'Spelling s3cret.'),
      computerCall({ action: 'type', text: 'hunter2' }, 'Typing hunter2 now.'),
      finishCall(),
    ]);
    const outcome = await harness.agent.runTurn({ request: userText('Log in') });
    expect(harness.operator.executed.map((entry) => entry.action)).toEqual([
      { action: 'key', keys: 's 3 c r e t' },
      { action: 'type', text: 'hunter2' },
    ]);
    const steps = harness.storage.steps.listByTurn(outcome.turnId);
    expect(steps.slice(0, 2).map((step) => step.action)).toEqual([
      { action: 'key', keys: '[password]' },
      { action: 'type', text: '[password]' },
    ]);
    expect(steps[0]!.result).toMatchObject({ ok: true, detail: 'pressed keys into a password field' });
    const stored = storedText(outcome.turnId);
    expect(stored).not.toContain('s 3 c r e t');
    expect(stored).not.toContain('s3cret');
    expect(stored).not.toContain('hunter2');
    expect(steps.slice(0, 2).map((step) => step.thought)).toEqual(['Spelling [password].', 'Typing [password] now.']);
    const calls = harness.storage.messages
      .listByTurn(outcome.turnId)
      .flatMap((message) => (message.message.role === 'assistant' ? message.message.toolCalls : []));
    expect(calls.slice(0, 2).map((call) => JSON.parse(call.argumentsText) as unknown)).toEqual([
      { action: 'key', keys: '[password]' },
      { action: 'type', text: '[password]' },
    ]);
  });

  it('is not asked for, nor masked, into an ordinary text field', async () => {
    harness = await startAgentHarness({ operator: { focusedFieldKind: 'text' } });
    harness.server.script([computerCall({ action: 'key', keys: 'h i' }), finishCall()]);
    const outcome = await harness.agent.runTurn({ request: userText('Say hi') });
    expect(harness.confirmations).toEqual([]);
    expect(harness.storage.steps.listByTurn(outcome.turnId)[0]!.action).toEqual({ action: 'key', keys: 'h i' });
  });
});

describe('a newline in typed text', () => {
  it('is a key Return of its own: under "always" the text and the Enter are asked for separately', async () => {
    harness = await startAgentHarness({ config: { agent: { confirm: 'always' } }, confirm: async () => true });
    harness.server.script([computerCall({ action: 'type', text: 'ls -l\n' }), finishCall()]);
    const outcome = await harness.agent.runTurn({ request: userText('List the files') });
    expect(harness.confirmations.map((request) => request.action)).toEqual([
      { action: 'type', text: 'ls -l' },
      { action: 'key', keys: 'Return' },
    ]);
    expect(harness.operator.executed.map((entry) => entry.action)).toEqual<ComputerAction[]>([
      { action: 'type', text: 'ls -l' },
      { action: 'key', keys: 'Return' },
    ]);
    const [step] = harness.storage.steps.listByTurn(outcome.turnId);
    expect(step!.action).toEqual({ action: 'type', text: 'ls -l\n' });
    expect(step!.result).toMatchObject({ ok: true, detail: 'type done; key done' });
  });

  it('is not pressed when the Enter is refused: the text before it is typed, and the model is told', async () => {
    harness = await startAgentHarness({
      config: { agent: { confirm: 'always' } },
      confirm: async (request) => (request.action as ComputerAction).action === 'type',
    });
    harness.server.script([computerCall({ action: 'type', text: 'rm -rf ~\n' }), finishCall('Not run.', false)]);
    const outcome = await harness.agent.runTurn({ request: userText('Clean up') });
    expect(harness.operator.executed.map((entry) => entry.action)).toEqual([{ action: 'type', text: 'rm -rf ~' }]);
    expect(toolResults(1)[0]).toContain('type done; then stopped: the user refused this action');
    const [step] = harness.storage.steps.listByTurn(outcome.turnId);
    expect(step!.result).toMatchObject({ ok: false, refused: true });
  });

  it('asks nothing more under "risky" for ordinary text', async () => {
    harness = await startAgentHarness();
    harness.server.script([computerCall({ action: 'type', text: 'hello\nworld' }), finishCall()]);
    await harness.agent.runTurn({ request: userText('Write two lines') });
    expect(harness.confirmations).toEqual([]);
    expect(harness.operator.executed.map((entry) => entry.action)).toEqual([
      { action: 'type', text: 'hello' },
      { action: 'key', keys: 'Return' },
      { action: 'type', text: 'world' },
    ]);
  });
});

describe('where the operator cannot tell what has the focus', () => {
  it('asks before typing the configured key, typed or spelled', async () => {
    harness = await startAgentHarness({ config: { model: { apiKey: 'plainconfiguredword' } }, confirm: async () => false });
    harness.server.script([
      computerCall({ action: 'type', text: 'plainconfiguredword' }),
      computerCall({ action: 'key', keys: 'p l a i n c o n f i g u r e d w o r d' }),
      finishCall('Refused.', false),
    ]);
    await harness.agent.runTurn({ request: userText('Paste the key') });
    const reason = 'typing text that contains a configured secret where the focused field cannot be told';
    expect(harness.confirmations.map((request) => request.reason)).toEqual([reason, reason]);
    expect(harness.operator.executed).toEqual([]);
  });

  it('asks before typing what looks like a credential, and not for ordinary text', async () => {
    harness = await startAgentHarness({ confirm: async () => false });
    harness.server.script([
      computerCall({ action: 'type', text: 'export TOKEN=ghp_16C7e42F292c6912E7710c838347Ae178B4a' }),
      computerCall({ action: 'type', text: 'hello world' }),
      finishCall(),
    ]);
    await harness.agent.runTurn({ request: userText('Set the token') });
    expect(harness.confirmations.map((request) => request.reason)).toEqual([
      'typing text that looks like an API key or credential where the focused field cannot be told',
    ]);
    expect(harness.operator.executed.map((entry) => entry.action)).toEqual([{ action: 'type', text: 'hello world' }]);
  });
});

describe('Enter while a terminal has the focus (an operator that can tell the application)', () => {
  const xterm = { name: 'XTerm', isTerminal: true };

  it('is refused without a person under risky: the line is typed, the Enter split from it is not pressed', async () => {
    harness = await startAgentHarness({ operator: { focusedApplication: xterm }, confirm: async () => false });
    harness.server.script([computerCall({ action: 'type', text: 'rm -rf ~/scratch\n' }), finishCall('Stopped.', false)]);
    await harness.agent.runTurn({ request: userText('Clean up') });
    expect(harness.confirmations.map((request) => request.reason)).toEqual(['pressing Enter in a terminal (XTerm) runs the command line']);
    expect(harness.confirmations.map((request) => request.action)).toEqual([{ action: 'key', keys: 'Return' }]);
    expect(harness.operator.executed.map((entry) => entry.action)).toEqual([{ action: 'type', text: 'rm -rf ~/scratch' }]);
    expect(toolResults(1)[0]).toContain('then stopped: the user refused this action: pressing Enter in a terminal (XTerm)');
  });

  it('as a key action is refused too; the same Enter into an editor is not asked for', async () => {
    harness = await startAgentHarness({ operator: { focusedApplication: xterm }, confirm: async () => false });
    harness.server.script([computerCall({ action: 'key', keys: 'KP_Enter' }), finishCall('Stopped.', false)]);
    await harness.agent.runTurn({ request: userText('Run it') });
    expect(harness.confirmations.map((request) => request.reason)).toEqual(['pressing Enter in a terminal (XTerm) runs the command line']);
    expect(harness.operator.executed).toEqual([]);
    await harness.close();

    harness = await startAgentHarness({ operator: { focusedApplication: { name: 'gedit', isTerminal: false } }, confirm: async () => false });
    harness.server.script([computerCall({ action: 'type', text: 'first line\nsecond line' }), finishCall()]);
    await harness.agent.runTurn({ request: userText('Write two lines') });
    expect(harness.confirmations).toEqual([]);
    expect(harness.operator.executed.map((entry) => entry.action)).toEqual([
      { action: 'type', text: 'first line' },
      { action: 'key', keys: 'Return' },
      { action: 'type', text: 'second line' },
    ]);
  });
});
