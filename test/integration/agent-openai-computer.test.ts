/**
 * The `openai-computer` dialect through the real agent loop: the Responses adapter against the fake server
 * replaying computer_call and reasoning items (test/fixtures/openai-computer cites their shapes), the fake
 * operator on a screen shown downscaled. A computer_call lands where the model pointed; a message without a
 * call ends the turn with its text as the summary; OpenAI's pending safety checks go through the
 * confirmation gate before anything runs; the policy refuses a ctrl+w from it as from any computer call;
 * every result goes back with a screenshot.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ConfirmationHandler } from '../../src/main/agent/index.js';
import { userText } from '../../src/shared/messages.js';
import type { FakeReply, FakeResponsesItem } from '../helpers/fake-openai-server.js';
import { startAgentHarness, type AgentHarness } from '../helpers/agent-harness.js';
import { guideClick, MALICIOUS_INSTRUCTIONS_CHECK } from '../fixtures/openai-computer/computer-calls.js';

let harness: AgentHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** A 1280x800 browser page shown to the model at 640x400. */
async function openAiComputerHarness(confirm?: ConfirmationHandler, policy: 'risky' | 'never' = 'risky'): Promise<AgentHarness> {
  return startAgentHarness({
    operator: { kind: 'browser', screen: { width: 1280, height: 800 } },
    config: { model: { name: 'computer-use-preview', api: 'responses' }, perception: { maxImageEdge: 640 }, agent: { confirm: policy } },
    ...(confirm === undefined ? {} : { confirm }),
  });
}

function answer(items: FakeResponsesItem[], text?: string): FakeReply {
  return { type: 'answer', responsesItems: items, ...(text === undefined ? {} : { text }) };
}

function done(summary: string): FakeReply {
  return { type: 'answer', text: summary };
}

type Item = Record<string, unknown>;

/** Where a point of the 640x400 image lands on the 1280x800 page: the centre of its pixel, scaled (operators/coordinates.ts). */
function onPage(x: number, y: number): { x: number; y: number } {
  const point = { x: Math.floor(((x + 0.5) / 640) * 1280), y: Math.floor(((y + 0.5) / 400) * 800) };
  expect(Math.abs(point.x - 2 * x)).toBeLessThanOrEqual(1);
  expect(Math.abs(point.y - 2 * y)).toBeLessThanOrEqual(1);
  return point;
}

function inputOf(index: number): Item[] {
  return (harness!.server.requests[index]!.body as { input: Item[] }).input;
}

function itemsOfType(index: number, type: string): Item[] {
  return inputOf(index).filter((item) => item.type === type);
}

function checkCall(callId: string, action: Record<string, unknown>): FakeResponsesItem {
  return { type: 'computer_call', id: `cu_${callId}`, callId, action, pendingSafetyChecks: [MALICIOUS_INSTRUCTIONS_CHECK] };
}

describe('the openai-computer dialect', () => {
  it('declares the computer tool at the size shown, lands a click where the model pointed, and ends on a message', async () => {
    harness = await openAiComputerHarness();
    harness.server.script([
      answer(guideClick({ x: 320, y: 116 }, 'call_1')),
      answer([{ type: 'computer_call', id: 'cu_2', callId: 'call_2', action: { type: 'type', text: 'Platform' } }]),
      done('The team name field says Platform.'),
    ]);
    const outcome = await harness.agent.runTurn({ request: userText('Name the team Platform') });

    expect(outcome).toMatchObject({ status: 'finished', reason: 'finished', summary: 'The team name field says Platform.', steps: 2 });
    // Shown at half size: (320, 116) in the image is about (641, 233) on the page.
    expect(harness.operator.executed.map((entry) => [entry.action, entry.screen])).toEqual([
      [{ action: 'click', x: 320, y: 116 }, [onPage(320, 116)]],
      [{ action: 'type', text: 'Platform' }, []],
    ]);
    const first = harness.server.requests[0]!.body as Record<string, unknown>;
    expect(first.tools).toEqual([
      { type: 'computer_use_preview', display_width: 640, display_height: 400, environment: 'browser' },
      expect.objectContaining({ type: 'function', name: 'ask_user' }),
      expect.objectContaining({ type: 'function', name: 'get_history_image' }),
      expect.objectContaining({ type: 'function', name: 'crop_image' }),
    ]);
    expect(first).toMatchObject({ model: 'computer-use-preview', truncation: 'auto', include: ['reasoning.encrypted_content'] });
    expect(JSON.stringify(first.tools)).not.toContain('"finish"');

    // The second request sends the call back as the model made it, after its reasoning, and the screenshot after it.
    const second = inputOf(1);
    const reasoningAt = second.findIndex((item) => item.type === 'reasoning');
    expect(second[reasoningAt]).toEqual({
      type: 'reasoning',
      id: 'rs_call_1',
      encrypted_content: 'gAAAAABencrypted-reasoning-1',
      summary: [{ type: 'summary_text', text: 'Clicking on the browser address bar.' }],
    });
    expect(second[reasoningAt + 1]).toMatchObject({ type: 'computer_call', id: 'cu_call_1', call_id: 'call_1', action: { type: 'click', button: 'left', x: 320, y: 116 } });
    expect(second[reasoningAt + 2]).toMatchObject({
      type: 'computer_call_output',
      call_id: 'call_1',
      output: { type: 'computer_screenshot', image_url: expect.stringMatching(/^data:image\/png;base64,/), current_url: 'http://fake.test/' },
    });
    expect(second[reasoningAt + 2]!.acknowledged_safety_checks).toBeUndefined();
    const landed = onPage(320, 116);
    expect(second[reasoningAt + 3]).toMatchObject({ role: 'user', content: expect.stringMatching(new RegExp(`^Computer call call_1:\nclick done at \\(${landed.x}, ${landed.y}\\)`)) });

    // The step keeps the model's thought (the reasoning summary) and the action as Sightline's.
    const steps = harness.storage.steps.listByTurn(outcome.turnId);
    expect(steps.map((step) => [step.action, step.thought])).toEqual([
      [{ action: 'click', x: 320, y: 116 }, 'Clicking on the browser address bar.'],
      [{ action: 'type', text: 'Platform' }, undefined],
    ].map(([action, thought]) => [action, thought ?? null]));
  });

  it('sends the unchanged screenshot again by its id: computer_call_output always holds one', async () => {
    harness = await openAiComputerHarness();
    harness.server.script([answer([{ type: 'computer_call', id: 'cu_m', callId: 'call_m', action: { type: 'move', x: 10, y: 10 } }]), done('Moved.')]);
    const outcome = await harness.agent.runTurn({ request: userText('Move the pointer') });
    expect(outcome.status).toBe('finished');
    const [step] = harness.storage.steps.listByTurn(outcome.turnId);
    const [firstImage] = harness.storage.images.listByTurn(outcome.turnId);
    expect(step!.dedupOfImageId).toBe(firstImage!.id);
    const output = itemsOfType(1, 'computer_call_output')[0]!;
    expect(output.output).toMatchObject({ type: 'computer_screenshot', image_url: expect.stringMatching(/^data:image\/png;base64,/) });
    expect(JSON.stringify(inputOf(1).at(-1))).toContain(`unchanged: same as ${firstImage!.id}`);
  });

  it('folds the older copies of an unchanged screenshot to fit the budget; those calls go back as text', async () => {
    harness = await startAgentHarness({
      operator: { kind: 'browser', screen: { width: 1280, height: 800 } },
      config: { model: { name: 'computer-use-preview', api: 'responses' }, perception: { maxImageEdge: 640 }, context: { tokenBudget: 2200 } },
    });
    const moves = Array.from({ length: 6 }, (_, index) =>
      answer([{ type: 'computer_call', id: `cu_m${index}`, callId: `call_m${index}`, action: { type: 'move', x: 10 + index, y: 10 } }]),
    );
    harness.server.script([...moves, done('Moved around.')]);
    const outcome = await harness.agent.runTurn({ request: userText('Move the pointer around') });
    // Every result shows the first screenshot again; only its first copy is an anchor that must stay whole.
    expect(outcome).toMatchObject({ status: 'finished', summary: 'Moved around.' });
    const last = harness.server.requests.length - 1;
    expect(itemsOfType(last, 'computer_call').map((item) => item.call_id)).toEqual(['call_m3', 'call_m4', 'call_m5']);
    expect(JSON.stringify(inputOf(last))).toContain('Computer call call_m0:');
  });

  it('refuses an unacknowledged safety check before the action: nothing runs, the model is told, the turn goes on', async () => {
    harness = await openAiComputerHarness(async () => ({ approved: false, by: 'policy' }));
    harness.server.script([answer([checkCall('call_s', { type: 'click', button: 'left', x: 100, y: 100 })]), done('I stopped: the check was not acknowledged.')]);
    const outcome = await harness.agent.runTurn({ request: userText('Click the link') });

    expect(outcome).toMatchObject({ status: 'finished', summary: 'I stopped: the check was not acknowledged.' });
    expect(harness.operator.executed).toEqual([]);
    expect(harness.confirmations).toEqual([
      expect.objectContaining({ action: { action: 'click', x: 100, y: 100 }, reason: expect.stringContaining('malicious_instructions') }),
    ]);
    const [step] = harness.storage.steps.listByTurn(outcome.turnId);
    expect(step!.result).toMatchObject({ ok: false, refused: true, safetyChecks: { acknowledged: false, by: 'policy', checks: [MALICIOUS_INSTRUCTIONS_CHECK] } });
    // Nothing ran, so nothing is acknowledged: the call goes back as text with the refusal.
    expect(itemsOfType(1, 'computer_call')).toEqual([]);
    expect(itemsOfType(1, 'computer_call_output')).toEqual([]);
    expect(JSON.stringify(inputOf(1))).toContain("OpenAI's safety check was not acknowledged");
  });

  it('does not count a yes from a rule as an acknowledgement', async () => {
    harness = await openAiComputerHarness(async () => ({ approved: true, by: 'policy' }));
    harness.server.script([answer([checkCall('call_r', { type: 'screenshot' })]), done('Stopped.')]);
    const outcome = await harness.agent.runTurn({ request: userText('Look') });
    const [step] = harness.storage.steps.listByTurn(outcome.turnId);
    expect(step!.result).toMatchObject({ refused: true, safetyChecks: { acknowledged: false } });
  });

  it('acknowledges a safety check with --yes: the action runs and the next request carries acknowledged_safety_checks', async () => {
    harness = await openAiComputerHarness(async () => ({ approved: true, by: 'flag' }), 'never');
    harness.server.script([answer([checkCall('call_y', { type: 'click', button: 'left', x: 100, y: 100 })]), done('Clicked.')]);
    const outcome = await harness.agent.runTurn({ request: userText('Click the link') });

    expect(outcome.status).toBe('finished');
    // Asked even under the "never" policy: OpenAI's checks need a person's (or the flag's) acknowledgement.
    expect(harness.confirmations).toHaveLength(1);
    expect(harness.operator.executed.map((entry) => entry.screen)).toEqual([[onPage(100, 100)]]);
    const [step] = harness.storage.steps.listByTurn(outcome.turnId);
    expect(step!.result).toMatchObject({ ok: true, safetyChecks: { acknowledged: true, by: 'flag', checks: [MALICIOUS_INSTRUCTIONS_CHECK] } });
    expect(itemsOfType(1, 'computer_call')[0]).toMatchObject({ call_id: 'call_y', pending_safety_checks: [MALICIOUS_INSTRUCTIONS_CHECK] });
    expect(itemsOfType(1, 'computer_call_output')[0]).toMatchObject({ call_id: 'call_y', acknowledged_safety_checks: [MALICIOUS_INSTRUCTIONS_CHECK] });
    const stored = harness.storage.messages.listByTurn(outcome.turnId).map((record) => record.message).find((message) => message.role === 'tool');
    expect(stored).toMatchObject({ providerData: { acknowledgedSafetyChecks: [MALICIOUS_INSTRUCTIONS_CHECK], currentUrl: 'http://fake.test/' } });
  });

  it('refuses a ctrl+w keypress through the safety policy, as from the computer tool, and still shows the screen', async () => {
    harness = await openAiComputerHarness(async () => false);
    harness.server.script([answer([{ type: 'computer_call', id: 'cu_w', callId: 'call_w', action: { type: 'keypress', keys: ['CTRL', 'W'] } }]), done('Not closed.')]);
    const outcome = await harness.agent.runTurn({ request: userText('Close the tab') });

    expect(harness.operator.executed).toEqual([]);
    expect(harness.confirmations).toEqual([expect.objectContaining({ action: { action: 'key', keys: 'CTRL+W' }, reason: 'key combination CTRL+W may close a window or tab' })]);
    const [step] = harness.storage.steps.listByTurn(outcome.turnId);
    expect(step!.error).toContain('the user refused this action: key combination CTRL+W may close a window or tab');
    // The refusal came from Sightline's policy after no check was pending: the screen goes back with it.
    expect(itemsOfType(1, 'computer_call_output')).toHaveLength(1);
    expect(JSON.stringify(inputOf(1).at(-1))).toContain('The computer call call_w failed');
  });

  it('runs a batched actions list in order and stops at the first that fails', async () => {
    harness = await openAiComputerHarness();
    harness.server.script([
      answer([
        {
          type: 'computer_call',
          id: 'cu_b',
          callId: 'call_b',
          actions: [
            { type: 'click', button: 'left', x: 10, y: 10 },
            { type: 'click', button: 'wheel', x: 5000, y: 10 },
            { type: 'type', text: 'never typed' },
          ],
        },
      ]),
      done('Partly done.'),
    ]);
    const outcome = await harness.agent.runTurn({ request: userText('Do three things') });
    expect(harness.operator.executed.map((entry) => entry.action)).toEqual([{ action: 'click', x: 10, y: 10 }]);
    const [step] = harness.storage.steps.listByTurn(outcome.turnId);
    expect(step!.action).toEqual({ action: 'middle_click', x: 5000, y: 10 });
    expect(step!.result).toMatchObject({ ok: false, actions: [{ ok: true }, { ok: false, error: expect.stringContaining('x=5000') }] });
    expect(JSON.stringify(inputOf(1).at(-1))).toContain('Actions 3 to 3 were not run');
    expect(itemsOfType(1, 'computer_call')[0]).toMatchObject({ actions: [{ type: 'click' }, { type: 'click', button: 'wheel' }, { type: 'type' }] });
  });

  it('answers an action it cannot do as malformed, which counts as a step, and nothing runs', async () => {
    harness = await openAiComputerHarness();
    harness.server.script([
      answer([{ type: 'computer_call', id: 'cu_t', callId: 'call_t', action: { type: 'teleport', x: 1, y: 1 } }]),
      answer([{ type: 'computer_call', id: 'cu_k', callId: 'call_k', action: { type: 'click', button: 'back', x: 1, y: 1 } }]),
      done('Gave up.'),
    ]);
    const outcome = await harness.agent.runTurn({ request: userText('Go back') });
    expect(outcome).toMatchObject({ status: 'finished', steps: 2 });
    expect(harness.operator.executed).toEqual([]);
    const steps = harness.storage.steps.listByTurn(outcome.turnId);
    expect(steps.map((step) => step.error)).toEqual([expect.stringContaining('action.type'), expect.stringContaining('no back button')]);
    expect(JSON.stringify(inputOf(1))).toContain('The computer call call_t failed');
  });
});
