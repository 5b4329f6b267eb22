/**
 * Issue 33, finding 4, through the agent loop with a fake operator whose focus moves as a page's would: a key
 * sequence is judged key by key against the focus each key meets. `key "Tab s e c r e t"` from a user name
 * field types into the password field after it, so its typing is asked about like typing into a password
 * field, and stored masked; so are shift+Tab and a paste after Tab. Where the operator's reading may lag
 * behind the key (the desktop's), what follows the key counts as typed into an unknown field. A middle click
 * over a password field pastes the primary selection on Linux, and is asked about like a paste.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ComputerAction } from '../../src/shared/actions.js';
import type { FocusedFieldKind } from '../../src/main/operators/operator.js';
import { userText } from '../../src/shared/messages.js';
import { computerCall, finishCall, startAgentHarness, TEST_API_KEY, type AgentHarness } from '../helpers/agent-harness.js';
import type { FakeOperatorOptions } from '../helpers/fake-operator.js';

let harness: AgentHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** A form of three fields, the password field in the middle: Tab moves to the next, shift+Tab to the one before. */
function form(start: 0 | 2, reading: Pick<FakeOperatorOptions, 'focusCurrentAfterKeys'> = { focusCurrentAfterKeys: true }): FakeOperatorOptions {
  const fields: FocusedFieldKind[] = ['text', 'password', 'text'];
  let at: number = start;
  return {
    ...reading,
    focusedFieldKind: fields[start],
    focusAfter: (action: ComputerAction, focused) => {
      if (action.action !== 'key') return focused;
      for (const combination of action.keys.trim().split(/\s+/)) {
        if (/^shift\+tab$/i.test(combination)) at = Math.max(0, at - 1);
        else if (/^tab$/i.test(combination)) at = Math.min(fields.length - 1, at + 1);
      }
      // The desktop's reading lags: it still says what had the focus before the key.
      return reading.focusCurrentAfterKeys === true ? fields[at] : focused;
    },
  };
}

function storedText(turnId: string): string {
  const steps = harness!.storage.steps.listByTurn(turnId);
  const messages = harness!.storage.messages.listBySession(steps[0]!.sessionId).map((message) => JSON.stringify(message.message));
  const stepEvents = harness!.events.filter((event) => event.type === 'step' || event.type.startsWith('confirmation'));
  return JSON.stringify(steps) + messages.join('\n') + JSON.stringify(stepEvents);
}

describe('a key sequence that moves the focus into a password field (issue 33, finding 4)', () => {
  it.each([
    ['Tab', 0],
    ['shift+Tab', 2],
  ] as const)('asks before the keys after %s, and refused types nothing there', async (move, start) => {
    harness = await startAgentHarness({ operator: form(start), confirm: async () => false });
    harness.server.script([computerCall({ action: 'key', keys: `${move} s 3 c r e t` }, 'To the password.'), finishCall('Stopped.', false)]);
    const outcome = await harness.agent.runTurn({ request: userText('Log in') });

    expect(harness.confirmations.map((request) => request.reason)).toEqual(['typing into a password field']);
    // The person is shown how much would be typed, never what.
    expect(harness.confirmations[0]!.action).toEqual({ action: 'key', keys: '[password: 6 characters]' });
    expect(harness.operator.executed.map((entry) => entry.action)).toEqual([{ action: 'key', keys: move }]);
    const [step] = harness.storage.steps.listByTurn(outcome.turnId);
    expect(step!.action).toEqual({ action: 'key', keys: '[password]' });
    expect(step!.result).toMatchObject({ ok: false, refused: true });
    expect(storedText(outcome.turnId)).not.toContain('s 3 c r e t');
  });

  it('approved, types there, and every stored row holds the keys masked', async () => {
    harness = await startAgentHarness({ operator: form(0), confirm: async () => true });
    harness.server.script([computerCall({ action: 'key', keys: 'Tab s 3 c r e t' }, 'Typing s3cret into the password.'), finishCall()]);
    const outcome = await harness.agent.runTurn({ request: userText('Log in') });

    expect(harness.operator.executed.map((entry) => entry.action)).toEqual([
      { action: 'key', keys: 'Tab' },
      { action: 'key', keys: 's 3 c r e t' },
    ]);
    const [step] = harness.storage.steps.listByTurn(outcome.turnId);
    expect(step!.action).toEqual({ action: 'key', keys: '[password]' });
    expect(step!.thought).toBe('Typing [password] into the password.');
    const stored = storedText(outcome.turnId);
    expect(stored).not.toContain('s 3 c r e t');
    expect(stored).not.toContain('s3cret');
  });

  it('asks before a paste chord after Tab, as a paste into the password field', async () => {
    harness = await startAgentHarness({ operator: form(0), confirm: async () => false });
    harness.server.script([computerCall({ action: 'key', keys: 'Tab ctrl+v' }), finishCall('Stopped.', false)]);
    await harness.agent.runTurn({ request: userText('Log in') });

    expect(harness.confirmations.map((request) => request.reason)).toEqual(['pasting into a password field']);
    expect(harness.operator.executed.map((entry) => entry.action)).toEqual([{ action: 'key', keys: 'Tab' }]);
  });

  it('asks nothing for keys that stay in ordinary fields, and performs the sequence as written', async () => {
    harness = await startAgentHarness({ operator: { ...form(0), focusAfter: (_action, focused) => focused } });
    harness.server.script([computerCall({ action: 'key', keys: 'h i Tab t h e r e' }), finishCall()]);
    const outcome = await harness.agent.runTurn({ request: userText('Fill in') });

    expect(harness.confirmations).toEqual([]);
    expect(harness.operator.executed.map((entry) => entry.action)).toEqual([
      { action: 'key', keys: 'h i Tab' },
      { action: 'key', keys: 't h e r e' },
    ]);
    expect(harness.storage.steps.listByTurn(outcome.turnId)[0]!.action).toEqual({ action: 'key', keys: 'h i Tab t h e r e' });
  });

  it('under "always" asks once for the whole sequence, and again only where the focus it meets makes a part risky', async () => {
    harness = await startAgentHarness({ operator: form(0), config: { agent: { confirm: 'always' } }, confirm: async () => true });
    harness.server.script([computerCall({ action: 'key', keys: 'a Tab s 3 c r e t' }), finishCall()]);
    await harness.agent.runTurn({ request: userText('Log in') });

    expect(harness.confirmations.map((request) => request.reason)).toEqual([
      'the confirmation policy is "always": every key needs approval',
      'typing into a password field',
    ]);
    expect(harness.confirmations[0]!.action).toEqual({ action: 'key', keys: 'a Tab s 3 c r e t' });
  });

  it('where the reading may lag behind the key (the desktop), judges what follows as typed into an unknown field', async () => {
    harness = await startAgentHarness({ operator: form(0, {}), confirm: async () => false });
    const spelled = [...TEST_API_KEY].join(' ');
    harness.server.script([computerCall({ action: 'key', keys: `Tab ${spelled}` }), finishCall('Stopped.', false)]);
    await harness.agent.runTurn({ request: userText('Log in') });

    expect(harness.confirmations.map((request) => request.reason)).toEqual([
      'typing text that contains a configured secret where the focused field cannot be told',
    ]);
    expect(harness.operator.executed.map((entry) => entry.action)).toEqual([{ action: 'key', keys: 'Tab' }]);
  });

  it('asks before a combination that presses Tab together with keys that type', async () => {
    harness = await startAgentHarness({ operator: form(0), confirm: async () => false });
    harness.server.script([computerCall({ action: 'key', keys: 'Tab+s' }), finishCall('Stopped.', false)]);
    await harness.agent.runTurn({ request: userText('Log in') });

    expect(harness.confirmations.map((request) => request.reason)).toEqual([
      'key combination Tab+s types together with a key that may move the focus, into a field that cannot be told before it lands',
    ]);
    expect(harness.operator.executed).toEqual([]);
  });
});

describe('a middle click over a password field (issue 33, finding 4)', () => {
  const overPassword = (place: { x: number; y: number } | 'pointer'): FocusedFieldKind => (place !== 'pointer' && place.y > 100 ? 'password' : 'text');

  it('is asked about like a paste where a middle click pastes the selection, and refused does nothing', async () => {
    harness = await startAgentHarness({ operator: { focusedFieldKind: 'text', middleClickPastes: true, fieldKindAt: overPassword }, confirm: async () => false });
    harness.server.script([computerCall({ action: 'middle_click', x: 50, y: 200 }), finishCall('Stopped.', false)]);
    const outcome = await harness.agent.runTurn({ request: userText('Log in') });

    expect(harness.confirmations.map((request) => request.reason)).toEqual(['pasting the selection into a password field (a middle click pastes it on Linux)']);
    expect(harness.operator.executed).toEqual([]);
    expect(harness.storage.steps.listByTurn(outcome.turnId)[0]!.result).toMatchObject({ ok: false, refused: true });
  });

  it('approved, is told as a paste into a password field', async () => {
    harness = await startAgentHarness({ operator: { focusedFieldKind: 'text', middleClickPastes: true, fieldKindAt: overPassword }, confirm: async () => true });
    harness.server.script([computerCall({ action: 'middle_click', x: 50, y: 200 }), finishCall()]);
    const outcome = await harness.agent.runTurn({ request: userText('Log in') });

    expect(harness.operator.executed).toHaveLength(1);
    expect(harness.storage.steps.listByTurn(outcome.turnId)[0]!.result).toMatchObject({ ok: true, detail: expect.stringContaining('text pasted into a password field') });
  });

  it('is judged by the focused field where the field under the point cannot be told (the desktop)', async () => {
    harness = await startAgentHarness({ operator: { focusedFieldKind: 'password', middleClickPastes: true }, confirm: async () => false });
    harness.server.script([computerCall({ action: 'middle_click', x: 50, y: 200 }), finishCall('Stopped.', false)]);
    await harness.agent.runTurn({ request: userText('Log in') });
    expect(harness.confirmations.map((request) => request.reason)).toEqual(['pasting the selection into a password field (a middle click pastes it on Linux)']);
  });

  it('is a click like any other where a middle click pastes nothing, or over an ordinary field', async () => {
    harness = await startAgentHarness({ operator: { focusedFieldKind: 'text', fieldKindAt: overPassword } });
    harness.server.script([computerCall({ action: 'middle_click', x: 50, y: 200 }), computerCall({ action: 'middle_click', x: 50, y: 20 }), finishCall()]);
    await harness.agent.runTurn({ request: userText('Open in a new tab') });
    expect(harness.confirmations).toEqual([]);
    expect(harness.operator.executed).toHaveLength(2);
  });
});
