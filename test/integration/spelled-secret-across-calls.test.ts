/**
 * Issue 24, finding 4: the configured key spelled over several actions, none of which holds it, through the
 * real agent loop and each dialect's own shape: OpenAI's computer tool with one `keypress` per key in one
 * batched call (each key its own string of the step's result) and in one call each, UI-TARS's `hotkey(key=…)`
 * written in the reply's text, function tools over two turns, and the confirmation of the call that completes
 * it. Every piece is masked in every stored row once the key is complete, and what the completing call
 * emits or shows a person is masked as it goes out. Each test reads every row of every table as SQLite holds it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { REDACTED } from '../../src/shared/secret-redaction.js';
import { userText } from '../../src/shared/messages.js';
import { computerCall, finishCall, startAgentHarness, TEST_API_KEY, type AgentHarness } from '../helpers/agent-harness.js';
import { everythingStored } from '../helpers/raw-database.js';
import type { FakeReply } from '../helpers/fake-openai-server.js';
import { uiTarsAnswer } from '../fixtures/ui-tars/ui-tars-answers.js';

let harness: AgentHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const KEYS = [...TEST_API_KEY];

/** Every key the stored rows still name, at any depth of JSON in JSON: a `keys` string or list entry other than the masks. */
function keysLeft(stored: string): string[] {
  const plain = stored.replaceAll('\\', '');
  const single = [...plain.matchAll(/"keys":\s*"([^"]*)"/g)].map((match) => match[1]!);
  const listed = [...plain.matchAll(/"keys":\s*\[((?:"[^"]*",?)*)\]/g)].flatMap((match) => [...match[1]!.matchAll(/"([^"]*)"/g)].map((key) => key[1]!));
  return [...single, ...listed].filter((keys) => keys !== REDACTED);
}

function openAiAnswer(items: Array<Record<string, unknown>>, text?: string): FakeReply {
  return { type: 'answer', responsesItems: items as never, ...(text === undefined ? {} : { text }) };
}

function openAiHarness(apiKey = TEST_API_KEY): Promise<AgentHarness> {
  return startAgentHarness({
    operator: { kind: 'browser', screen: { width: 1280, height: 800 } },
    config: { model: { name: 'computer-use-preview', api: 'responses', apiKey }, perception: { maxImageEdge: 640 } },
  });
}

/** A key short enough for one batch (OpenAI's computer tool takes at most 20 actions a call). */
const BATCHED_KEY = 'sk-qzxwvJKQZXWVB';

describe("OpenAI's computer tool", () => {
  it('masks a batch of one-key keypresses in the step, its result, the stored call and the step event', async () => {
    harness = await openAiHarness(BATCHED_KEY);
    const actions = [...BATCHED_KEY].map((key) => ({ type: 'keypress', keys: [key] }));
    harness.server.script([openAiAnswer([{ type: 'computer_call', id: 'cu_1', callId: 'call_1', actions }]), openAiAnswer([], 'Typed.')]);
    const outcome = await harness.agent.runTurn({ request: userText('Type the key') });

    expect(outcome.status).toBe('finished');
    expect(harness.operator.executed).toHaveLength(actions.length);
    const [step] = harness.storage.steps.listByTurn(outcome.turnId);
    expect(step!.action).toEqual({ action: 'key', keys: REDACTED });
    const batch = (step!.result as { actions: Array<{ action: unknown }> }).actions;
    expect(batch).toHaveLength(actions.length);
    for (const each of batch) expect(each.action).toEqual({ action: 'key', keys: REDACTED });
    const stored = everythingStored(harness!.home.databaseFile);
    expect(keysLeft(stored)).toEqual([]);
    expect(stored).not.toContain('"keys":["s"]');
    const event = harness.events.find((each) => each.type === 'step');
    expect(event).toMatchObject({ action: { action: 'key', keys: REDACTED } });
    // The history goes back to OpenAI in its own shape, each keypress masked.
    const sent = harness.server.requests[1]!.rawBody;
    expect(sent).toContain('"keys":["[redacted]"]');
    expect(sent).not.toContain('"keys":["s"]');
  });

  it('masks one keypress a call in every call before the last, and the last before its step goes out', async () => {
    harness = await openAiHarness();
    harness.server.script([
      ...KEYS.map((key, index) => openAiAnswer([{ type: 'computer_call', id: `cu_${index}`, callId: `call_${index}`, action: { type: 'keypress', keys: [key] } }])),
      openAiAnswer([], 'Typed.'),
    ]);
    const outcome = await harness.agent.runTurn({ request: userText('Type the key') });

    expect(outcome.status).toBe('finished');
    const steps = harness.storage.steps.listByTurn(outcome.turnId);
    expect(steps.map((step) => step.action)).toEqual(KEYS.map(() => ({ action: 'key', keys: REDACTED })));
    expect(keysLeft(everythingStored(harness!.home.databaseFile))).toEqual([]);
    const stepEvents = harness.events.filter((event) => event.type === 'step');
    expect(stepEvents.at(-1)).toMatchObject({ action: { action: 'key', keys: REDACTED } });
    // The history the model is sent after the last key names none of them.
    const sent = harness.server.requests.at(-1)!.rawBody;
    expect(sent).not.toMatch(/"keys":\["(?!\[redacted\])/);
  });
});

describe('UI-TARS', () => {
  it("masks each hotkey(key=…) of one key written in the replies' text", async () => {
    harness = await startAgentHarness({ config: { model: { name: 'ui-tars-1.5-7b' } } });
    harness.server.script([
      ...KEYS.map((key) => uiTarsAnswer(`Thought: The next key.\nAction: hotkey(key='${key}')`)),
      uiTarsAnswer("Thought: Typed.\nAction: finished(content='Typed.')"),
    ]);
    const outcome = await harness.agent.runTurn({ request: userText('Type the key') });

    expect(outcome, outcome.summary).toMatchObject({ status: 'finished' });
    const replies = harness.storage.messages
      .listByTurn(outcome.turnId)
      .flatMap((record) => (record.message.role === 'assistant' ? record.message.parts : []))
      .flatMap((part) => (part.type === 'text' ? [part.text] : []));
    const presses = replies.filter((text) => text.includes('Action: hotkey'));
    expect(presses).toHaveLength(KEYS.length);
    for (const text of presses) expect(text).toBe(`Thought: The next key.\nAction: hotkey(key='${REDACTED}')`);
    const stored = everythingStored(harness!.home.databaseFile);
    expect(keysLeft(stored)).toEqual([]);
    expect(stored).not.toMatch(/hotkey\(key='(?!\[redacted\])/);
  });
});

describe('function tools', () => {
  it('masks a key begun in one turn and finished in the next, and the confirmation of the call that completes it', async () => {
    harness = await startAgentHarness({ confirm: async () => true, config: { agent: { confirm: 'always' } } });
    const half = Math.floor(KEYS.length / 2);
    harness.server.script([
      ...KEYS.slice(0, half).map((key) => computerCall({ action: 'key', keys: key })),
      finishCall('Half of it.'),
      computerCall({ action: 'screenshot' }),
      computerCall({ action: 'type', text: KEYS.slice(half, -3).join('') }),
      ...KEYS.slice(-3).map((key) => computerCall({ action: 'key', keys: key })),
      finishCall('The rest.'),
    ]);
    const first = await harness.agent.runTurn({ request: userText('Type the first half of the key') });
    const second = await harness.agent.runTurn({ sessionId: first.sessionId, request: userText('Type the rest') });

    expect(second.status).toBe('finished');
    const steps = [...harness.storage.steps.listByTurn(first.turnId), ...harness.storage.steps.listByTurn(second.turnId)];
    const typing = steps.flatMap((step) => ('action' in step.action && (step.action.action === 'key' || step.action.action === 'type') ? [step.action] : []));
    expect(typing).toEqual([
      ...KEYS.slice(0, half).map(() => ({ action: 'key', keys: REDACTED })),
      { action: 'type', text: REDACTED },
      ...KEYS.slice(-3).map(() => ({ action: 'key', keys: REDACTED })),
    ]);
    const stored = everythingStored(harness!.home.databaseFile);
    expect(keysLeft(stored)).toEqual([]);
    expect(stored).not.toContain(KEYS.slice(half, -3).join(''));
    // Each call was asked about; the one that completed the key, and every event from it on, show it masked.
    const asked = harness.confirmations.map((request) => request.action);
    expect(asked.at(-1)).toEqual({ action: 'key', keys: REDACTED });
    const requested = harness.events.filter((event) => event.type === 'confirmation-requested');
    expect(requested.at(-1)).toMatchObject({ action: { action: 'key', keys: REDACTED } });
    const completing = harness.events.indexOf(requested.at(-1)!);
    expect(JSON.stringify(harness.events.slice(completing))).not.toMatch(/"keys":"(?!\[redacted\])/);
  });
});
