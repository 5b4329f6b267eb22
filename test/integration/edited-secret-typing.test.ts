/**
 * Issue 33, finding 7: the configured key typed out of order (its second half, Home, its first half) or with
 * corrections (a wrong key, BackSpace, the rest) is in no call, and in no join of the calls in order, but it is
 * what the field holds. Through the real agent loop, every piece that typed a character of it is masked in
 * every stored row, read as SQLite holds it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { REDACTED } from '../../src/shared/secret-redaction.js';
import { userText } from '../../src/shared/messages.js';
import { computerCall, finishCall, startAgentHarness, TEST_API_KEY, type AgentHarness } from '../helpers/agent-harness.js';
import { everythingStored } from '../helpers/raw-database.js';

let harness: AgentHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const FIRST = TEST_API_KEY.slice(0, 15);
const SECOND = TEST_API_KEY.slice(15);
const spelled = (text: string) => [...text].join(' ');

async function typeInto(calls: Array<Record<string, unknown>>): Promise<string> {
  // A plain text field has the focus: typing the key there is not asked about, only stored.
  harness = await startAgentHarness({ operator: { focusedFieldKind: 'text' } });
  harness.server.script([...calls.map((action) => computerCall(action, 'Typing.')), finishCall()]);
  const outcome = await harness.agent.runTurn({ request: userText('Fill in the key') });
  expect(outcome.status).toBe('finished');
  return outcome.turnId;
}

function expectNoPieceLeft(stored: string, pieces: readonly string[]): void {
  expect(stored).not.toContain(TEST_API_KEY);
  for (const piece of pieces) expect(stored).not.toContain(piece);
}

describe('the configured key typed out of order (issue 33, finding 7)', () => {
  it('second half, Home, first half in three calls: both halves are masked where they were stored', async () => {
    const turnId = await typeInto([
      { action: 'type', text: SECOND },
      { action: 'key', keys: 'Home' },
      { action: 'type', text: FIRST },
    ]);
    const steps = harness!.storage.steps.listByTurn(turnId);
    expect(steps.slice(0, 3).map((step) => step.action)).toEqual([
      { action: 'type', text: REDACTED },
      { action: 'key', keys: 'Home' },
      { action: 'type', text: REDACTED },
    ]);
    expectNoPieceLeft(everythingStored(harness!.home.databaseFile), [FIRST, SECOND]);
  });

  it('spelled key by key in one call, with Home between the halves: the call is masked', async () => {
    const turnId = await typeInto([{ action: 'key', keys: `${spelled(SECOND)} Home ${spelled(FIRST)}` }]);
    expect(harness!.storage.steps.listByTurn(turnId)[0]!.action).toEqual({ action: 'key', keys: REDACTED });
    expectNoPieceLeft(everythingStored(harness!.home.databaseFile), [spelled(FIRST), spelled(SECOND)]);
  });

  it('with Left arrows back over the second half before the first is typed', async () => {
    const turnId = await typeInto([
      { action: 'type', text: SECOND },
      { action: 'key', keys: Array.from({ length: SECOND.length }, () => 'Left').join(' ') },
      { action: 'type', text: FIRST },
    ]);
    expect(harness!.storage.steps.listByTurn(turnId)[0]!.action).toEqual({ action: 'type', text: REDACTED });
    expectNoPieceLeft(everythingStored(harness!.home.databaseFile), [FIRST, SECOND]);
  });
});

describe('the configured key typed with corrections (issue 33, finding 7)', () => {
  it('a wrong key, then BackSpace in a call of its own, then the rest: both typed pieces are masked', async () => {
    const turnId = await typeInto([
      { action: 'type', text: `${FIRST}X` },
      { action: 'key', keys: 'BackSpace' },
      { action: 'type', text: SECOND },
    ]);
    const steps = harness!.storage.steps.listByTurn(turnId);
    expect([steps[0]!.action, steps[2]!.action]).toEqual([
      { action: 'type', text: REDACTED },
      { action: 'type', text: REDACTED },
    ]);
    expectNoPieceLeft(everythingStored(harness!.home.databaseFile), [`${FIRST}X`, SECOND]);
  });

  it('spelled in one call with a typo and BackSpace: the call is masked', async () => {
    const turnId = await typeInto([{ action: 'key', keys: `${spelled(FIRST)} q w BackSpace BackSpace ${spelled(SECOND)}` }]);
    expect(harness!.storage.steps.listByTurn(turnId)[0]!.action).toEqual({ action: 'key', keys: REDACTED });
    expectNoPieceLeft(everythingStored(harness!.home.databaseFile), [spelled(FIRST), spelled(SECOND)]);
  });

  it('leaves ordinary typing with corrections as it was typed', async () => {
    const turnId = await typeInto([
      { action: 'type', text: 'helo' },
      { action: 'key', keys: 'BackSpace l o' },
    ]);
    const steps = harness!.storage.steps.listByTurn(turnId);
    expect(steps.slice(0, 2).map((step) => step.action)).toEqual([
      { action: 'type', text: 'helo' },
      { action: 'key', keys: 'BackSpace l o' },
    ]);
  });
});
