/**
 * The ui-tars dialect through the agent: the real loop, storage and Chat Completions adapter against the
 * fake server answering UI-TARS text as vLLM does, a fake operator. A UI-TARS model name selects the
 * dialect through its profile. What the model is sent (no tools, its template, its history with
 * Sightline's memory applied) and what its answers do (actions, finished, call_user, unreadable text).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { isComputerAction } from '../../src/shared/actions.js';
import { userText } from '../../src/shared/messages.js';
import type { AgentEvent } from '../../src/shared/events.js';
import { createAgentToolRegistry } from '../../src/main/agent/agent-tool-registry.js';
import { dialectNamed } from '../../src/main/agent/dialects/dialects.js';
import { MAX_CONSECUTIVE_MALFORMED_REPLIES } from '../../src/main/agent/malformed-output.js';
import type { ToolDefinition } from '../../src/main/agent/tools/tool-definition.js';
import { resolveModelProfile } from '../../src/main/llm/model-profiles.js';
import { UI_TARS_SYSTEM_TEXT } from '../../src/main/llm/dialects/ui-tars/ui-tars-conversation.js';
import { uiTarsPrompt } from '../../src/main/llm/dialects/ui-tars/ui-tars-prompts.js';
import { chatMessages, contentText, startAgentHarness, type AgentHarness, type HarnessOptions } from '../helpers/agent-harness.js';
import { FakeOperator } from '../helpers/fake-operator.js';
import { clickAnswer, finishedAnswer, typeAnswer, uiTarsAnswer } from '../fixtures/ui-tars/ui-tars-answers.js';

const UI_TARS_MODEL = 'ui-tars-1.5-7b';

let harness: AgentHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

function uiTarsHarness(options: HarnessOptions = {}): Promise<AgentHarness> {
  return startAgentHarness({ ...options, config: { ...options.config, model: { name: UI_TARS_MODEL, ...options.config?.model } } });
}

/** Every text of a request's user messages, one string per message. */
function userTexts(index: number): string[] {
  return chatMessages(harness!.server, index)
    .filter((message) => message.role === 'user')
    .map(contentText);
}

describe('the ui-tars dialect', () => {
  it('is what the UI-TARS families speak', () => {
    expect(resolveModelProfile('ui-tars-1.5-7b').dialect).toBe('ui-tars');
    expect(resolveModelProfile('ByteDance-Seed/UI-TARS-1.5-7B').dialect).toBe('ui-tars');
    expect(resolveModelProfile('bytedance-research/UI-TARS-72B-DPO').dialect).toBe('ui-tars');
    expect(dialectNamed('ui-tars').name).toBe('ui-tars');
  });

  it('offers computer, finish and ask_user only: no recall tools, no outside tools', () => {
    const operator = new FakeOperator();
    const outside: ToolDefinition = { name: 'web_search', description: 'Search', arguments: undefined as never, execute: async () => ({ parts: [] }) };
    const registry = createAgentToolRegistry({
      operator,
      screen: undefined as never,
      policy: 'risky',
      confirm: async () => false,
      askUser: async () => undefined,
      extraTools: [outside],
      dialect: dialectNamed('ui-tars'),
    });
    expect(registry.names()).toEqual(['computer', 'finish', 'ask_user']);
  });

  it('runs a turn: template with the task, no tools declared, click, type with Enter, finished', async () => {
    harness = await uiTarsHarness();
    const { server, operator, agent } = harness;
    server.script([
      uiTarsAnswer(clickAnswer(320, 100, 'The name field is empty; I click it.')),
      uiTarsAnswer(typeAnswer('Platform\n', 'I type the name and submit.')),
      uiTarsAnswer(finishedAnswer('The team is named Platform.')),
    ]);
    const outcome = await agent.runTurn({ request: userText('Name the team "Platform".') });

    expect(outcome).toMatchObject({ status: 'finished', summary: 'The team is named Platform.' });
    expect(operator.executed.map((entry) => entry.action)).toEqual([
      { action: 'click', x: 320, y: 100 },
      { action: 'type', text: 'Platform' },
      { action: 'key', keys: 'Return' },
    ]);
    for (const request of server.requests) expect((request.body as { tools?: unknown }).tools).toBeUndefined();
    const first = chatMessages(server, 0);
    expect(first.map((message) => message.role)).toEqual(['system', 'user', 'user', 'user']);
    expect(first[0]!.content).toBe(UI_TARS_SYSTEM_TEXT);
    expect(first[1]!.content).toBe(uiTarsPrompt('desktop', 'Name the team "Platform".'));
    const last = chatMessages(server, 2);
    expect(last.map((message) => message.role)).toEqual(['system', 'user', 'user', 'user', 'assistant', 'user', 'assistant', 'user']);
    expect(last[4]!.content).toBe("Thought: The name field is empty; I click it.\nAction: click(start_box='<|box_start|>(320,100)<|box_end|>')");
    // The type and its Return were two steps: their results are one user message, the screenshot after each.
    // The screen before the present goes as a reduced view, named so (issue 15's active zone).
    expect(contentText(last[7]!)).toMatch(
      /^type done\n<(img_[0-9a-f]{12})> \(reduced view; get_history_image \1 shows it in full\)\n\[image data:image\/png;base64,.*\]\nkey done\n<img_[0-9a-f]{12}>\n\[image /s,
    );
    // Every step shows the thought and the action, as for any dialect.
    const steps = harness.storage.steps.listByTurn(outcome.turnId);
    expect(steps.map((step) => (isComputerAction(step.action) ? step.action.action : step.action.tool))).toEqual(['click', 'type', 'key', 'finish']);
    expect(steps[0]!.thought).toContain('The name field is empty; I click it.');
  });

  it('sends the browser template on a browser', async () => {
    harness = await uiTarsHarness({ operator: { kind: 'browser' } });
    harness.server.script([uiTarsAnswer(finishedAnswer('Nothing to do.'))]);
    await harness.agent.runTurn({ request: userText('Look at the page.') });
    expect(chatMessages(harness.server, 0)[1]!.content).toBe(uiTarsPrompt('browser', 'Look at the page.'));
    expect(uiTarsPrompt('browser', 'x')).toContain("click(point='<point>x1 y1</point>')");
    expect(uiTarsPrompt('desktop', 'x')).toContain("click(start_box='<|box_start|>(x1,y1)<|box_end|>')");
  });

  it('asks the person on call_user: the thought is the question, the answer comes back as a user text', async () => {
    const questions: string[] = [];
    harness = await uiTarsHarness({ askUser: async (question) => (questions.push(question), 'Use the work account.') });
    harness.server.script([
      uiTarsAnswer('Thought: Two accounts are signed in; which one should I use?\nAction: call_user()'),
      uiTarsAnswer(finishedAnswer('Used the work account.')),
    ]);
    const outcome = await harness.agent.runTurn({ request: userText('Send the report.') });
    expect(outcome.status).toBe('finished');
    expect(questions).toEqual(['Two accounts are signed in; which one should I use?']);
    expect(userTexts(1).at(-1)).toBe('The user answered: Use the work account.');
  });

  it('tells the model in a user text when its answer cannot be read; the step counts, and the turn fails after a few', async () => {
    harness = await uiTarsHarness();
    harness.server.script(Array.from({ length: MAX_CONSECUTIVE_MALFORMED_REPLIES + 1 }, () => uiTarsAnswer('I will click the Save button now.')));
    const outcome = await harness.agent.runTurn({ request: userText('Save.') });
    expect(outcome).toMatchObject({ status: 'failed', reason: 'failed' });
    expect(outcome.summary).toContain('the answer has no "Action:" line');
    expect(harness.operator.executed).toEqual([]);
    expect(harness.server.requests).toHaveLength(MAX_CONSECUTIVE_MALFORMED_REPLIES + 1);
    expect(userTexts(1).at(-1)).toMatch(/^Could not read your action: the answer has no "Action:" line\. Answer with a "Thought: \.\.\." line/);
    expect(harness.storage.steps.listByTurn(outcome.turnId)).toHaveLength(MAX_CONSECUTIVE_MALFORMED_REPLIES + 1);
  });
});

describe('Sightline’s memory under the ui-tars dialect', () => {
  it('dedups ("unchanged"), and the next turn shows the first turn’s folded images as placeholders in text', async () => {
    harness = await uiTarsHarness();
    const { server, agent } = harness;
    server.script([
      uiTarsAnswer(clickAnswer(10, 10)),
      uiTarsAnswer('Thought: The page may still be loading.\nAction: wait()'),
      uiTarsAnswer(clickAnswer(20, 20)),
      uiTarsAnswer(clickAnswer(30, 30)),
      uiTarsAnswer(finishedAnswer('Clicked three times.')),
    ]);
    const first = await agent.runTurn({ request: userText('Click around.') });
    const images = harness.storage.images.listByTurn(first.turnId);
    expect(images).toHaveLength(4);
    // The wait changed nothing: its result says so instead of holding a screenshot.
    expect(userTexts(2).at(-1)).toContain(`unchanged: same as ${images[1]!.id}`);

    server.script([uiTarsAnswer(finishedAnswer('Done again.'))]);
    await agent.runTurn({ request: userText('Once more.'), sessionId: first.sessionId });
    const request = chatMessages(server, 5);
    expect(request.some((message) => message.role === 'tool')).toBe(false);
    const placeholders = request.filter((message) => message.role === 'user').map(contentText).join('\n').match(/\[Visual_Placeholder: img_[0-9a-f]{12}\]/g) ?? [];
    // The earlier turn's anchors (its first and last screenshots) stay whole, the one before its last goes as a
    // reduced view (the handover, so a turn's first request still shows the three latest screens); the other is folded.
    expect(placeholders).toEqual([`[Visual_Placeholder: ${images[1]!.id}]`]);
    expect(request.map(contentText).join('\n')).toContain(`<${images[2]!.id}> (reduced view; get_history_image ${images[2]!.id} shows it in full)`);
    const assistantTexts = request.filter((message) => message.role === 'assistant').map(contentText);
    expect(assistantTexts[0]).toBe("Thought: I click the field.\nAction: click(start_box='<|box_start|>(10,10)<|box_end|>')");
  });

  it('folds the active turn’s oldest screenshots into placeholders, and a budget below what is left ends the turn saying so', async () => {
    const clicks = Array.from({ length: 7 }, (_, index) => uiTarsAnswer(clickAnswer(10 + index * 20, 50)));
    const lastTokenReport = (events: AgentEvent[]) => events.filter((event) => event.type === 'step' && event.tokenReport !== undefined).at(-1) as Extract<AgentEvent, { type: 'step' }>;

    harness = await uiTarsHarness();
    harness.server.script([...clicks, uiTarsAnswer(finishedAnswer('Done.'))]);
    await harness.agent.runTurn({ request: userText('Click seven times.') });
    // With no cache (a local model), the active zone folds each older screen as soon as it leaves the three latest
    // (issue 15): what a budget used to do, it does without one.
    const unbounded = lastTokenReport(harness.events).tokenReport!;
    expect(unbounded.imagesFolded).toBeGreaterThan(0);
    const lastRequest = chatMessages(harness.server, harness.server.requests.length - 1);
    const texts = lastRequest.filter((message) => message.role === 'user').map(contentText).join('\n');
    expect(texts).toMatch(/\[Visual_Placeholder: img_[0-9a-f]{12}\] step \d+ · click/);
    await harness.close();

    // The three latest screens never fold: a budget below what is left ends the turn as failed, naming the setting.
    harness = await uiTarsHarness({ config: { context: { tokenBudget: unbounded.sentTokens - 30 } } });
    harness.server.script([...clicks, uiTarsAnswer(finishedAnswer('Done.'))]);
    const outcome = await harness.agent.runTurn({ request: userText('Click seven times.') });
    expect(outcome.status).toBe('failed');
    expect(outcome.summary).toContain('context.tokenBudget');
  });
});
