/**
 * Issue 17, "text typed into a password field is stored masked, on every operator": in every dialect's own
 * shape (OpenAI's keypress keys one letter per entry, Claude's text, Qwen's key list, UI-TARS's written
 * action), in the reply's thought and its other calls, in the steps the turn stored before the focus was
 * known, in what the model writes afterwards, and in what a person is asked to confirm. Each test reads
 * every row of every table as SQLite holds it, and what the next request sent the model.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ComputerAction } from '../../src/shared/actions.js';
import { REDACTED } from '../../src/shared/secret-redaction.js';
import { userText } from '../../src/shared/messages.js';
import { chatMessages, computerCall, finishCall, startAgentHarness, TEST_API_KEY, toolCall, type AgentHarness, type HarnessOptions } from '../helpers/agent-harness.js';
import { everythingStored } from '../helpers/raw-database.js';
import type { FakeReply } from '../helpers/fake-openai-server.js';
import { qwenNativeReply } from '../helpers/qwen-model-replies.js';
import { claudeComputer, claudeFinish, scriptedClaude } from '../helpers/scripted-claude-model.js';
import { uiTarsAnswer } from '../fixtures/ui-tars/ui-tars-answers.js';
import { startAppApiHarness, type AppApiHarness } from '../helpers/app-api-harness.js';
import { MALICIOUS_INSTRUCTIONS_CHECK } from '../fixtures/openai-computer/computer-calls.js';
import { DEFAULT_CONFIG } from '../../src/shared/config.js';
import { createSearchTools } from '../../src/main/agent/search/create-search-tools.js';
import { createModelAdapter } from '../../src/main/llm/create-model-adapter.js';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../helpers/fake-openai-server.js';
import { page, searchResults, startFakeTavilyServer, type FakeTavilyServer } from '../helpers/fake-tavily-server.js';

const PASSWORD = 'hunter2';

let harness: AgentHarness | undefined;
let researchModel: FakeOpenAiServer | undefined;
let tavily: FakeTavilyServer | undefined;
let api: AppApiHarness | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
  await harness?.close();
  await researchModel?.close();
  await tavily?.close();
  harness = researchModel = tavily = undefined;
});

/** The stored calls of a turn, arguments parsed. */
function storedCalls(turnId: string): unknown[] {
  return harness!.storage.messages
    .listByTurn(turnId)
    .flatMap((record) => (record.message.role === 'assistant' ? record.message.toolCalls : []))
    .map((call) => JSON.parse(call.argumentsText) as unknown);
}

function assistantTexts(turnId: string): string[] {
  return harness!.storage.messages
    .listByTurn(turnId)
    .flatMap((record) => (record.message.role === 'assistant' ? record.message.parts : []))
    .flatMap((part) => (part.type === 'text' ? [part.text] : []));
}

function intoPasswordField(options: HarnessOptions = {}): Promise<AgentHarness> {
  return startAgentHarness({ confirm: async () => true, ...options, operator: { focusedFieldKind: 'password', ...options.operator } });
}

describe("OpenAI's computer tool", () => {
  function openAiAnswer(items: Array<Record<string, unknown>>, text?: string): FakeReply {
    return { type: 'answer', responsesItems: items as never, ...(text === undefined ? {} : { text }) };
  }

  it('masks a keypress that spells the password one letter per key, and a batched type, in the stored call, the step and the next request', async () => {
    harness = await intoPasswordField({
      operator: { kind: 'browser', screen: { width: 1280, height: 800 } },
      config: { model: { name: 'computer-use-preview', api: 'responses' }, perception: { maxImageEdge: 640 } },
    });
    harness.server.script([
      openAiAnswer([{ type: 'computer_call', id: 'cu_1', callId: 'call_1', action: { type: 'keypress', keys: [...PASSWORD] } }]),
      openAiAnswer([
        {
          type: 'computer_call',
          id: 'cu_2',
          callId: 'call_2',
          actions: [
            { type: 'click', button: 'left', x: 10, y: 10 },
            { type: 'type', text: 'correct horse' },
          ],
        },
      ]),
      openAiAnswer([], 'Logged in.'),
    ]);
    const outcome = await harness.agent.runTurn({ request: userText('Log in') });

    expect(outcome.status).toBe('finished');
    // The keys were pressed as the model asked (one combination), and judged as the typing they are.
    expect(harness.operator.executed.map((entry) => entry.action)).toEqual<ComputerAction[]>([
      { action: 'key', keys: [...PASSWORD].join('+') },
      { action: 'click', x: 10, y: 10 },
      { action: 'type', text: 'correct horse' },
    ]);
    expect(harness.confirmations.map((request) => [request.action, request.reason])).toEqual([
      [{ action: 'key', keys: '[password: 7 characters]' }, 'typing into a password field'],
      [{ action: 'type', text: '[password: 13 characters]' }, 'typing into a password field'],
    ]);
    expect(storedCalls(outcome.turnId)).toEqual([
      { action: { type: 'keypress', keys: ['[password]'] }, pending_safety_checks: [] },
      {
        actions: [
          { type: 'click', button: 'left', x: 10, y: 10 },
          { type: 'type', text: '[password]' },
        ],
        pending_safety_checks: [],
      },
    ]);
    const steps = harness.storage.steps.listByTurn(outcome.turnId);
    expect(steps.map((step) => step.action)).toEqual([
      { action: 'key', keys: '[password]' },
      { action: 'type', text: '[password]' },
    ]);
    const stored = everythingStored(harness!.home.databaseFile);
    for (const secret of [PASSWORD, '"h","u","n"', 'h+u+n', 'correct horse']) expect(stored).not.toContain(secret);
    // The history goes back to OpenAI in its own shape, masked.
    const sent = harness.server.requests[2]!.rawBody;
    expect(sent).toContain('"keys":["[password]"]');
    expect(sent).not.toContain('correct horse');
    expect(sent).not.toContain('"h","u","n"');
  });
});

describe("OpenAI's safety check on typing into a password field", () => {
  it('asks and records that the action types into a password field, not what, and masks the refused call', async () => {
    harness = await startAgentHarness({
      confirm: async () => false,
      operator: { kind: 'browser', screen: { width: 1280, height: 800 }, focusedFieldKind: 'password' },
      config: { model: { name: 'computer-use-preview', api: 'responses' }, perception: { maxImageEdge: 640 } },
    });
    harness.server.script([
      {
        type: 'answer',
        responsesItems: [
          { type: 'computer_call', id: 'cu_1', callId: 'call_1', action: { type: 'type', text: PASSWORD }, pendingSafetyChecks: [MALICIOUS_INSTRUCTIONS_CHECK] },
        ],
      },
      { type: 'answer', text: 'Stopped.' },
    ]);
    const outcome = await harness.agent.runTurn({ request: userText('Log in') });

    expect(harness.operator.executed).toEqual([]);
    expect(harness.confirmations.map((request) => request.action)).toEqual([{ action: 'type', text: '[password: 7 characters]' }]);
    expect(harness.storage.steps.listByTurn(outcome.turnId)[0]!.action).toEqual({ action: 'type', text: '[password]' });
    expect(storedCalls(outcome.turnId)[0]).toMatchObject({ action: { type: 'type', text: '[password]' } });
    expect(everythingStored(harness!.home.databaseFile)).not.toContain(PASSWORD);
  });
});

describe("Claude's computer tool", () => {
  it('masks what type and a key spelled letter by letter typed, in the stored input and the step', async () => {
    const claude = scriptedClaude('claude-opus-4-5', [
      claudeComputer({ action: 'type', text: PASSWORD }, `Typing ${PASSWORD}.`),
      claudeComputer({ action: 'key', text: 'x' }, 'And one more letter.'),
      claudeFinish(),
    ]);
    harness = await intoPasswordField({ extra: { model: claude } });
    const outcome = await harness.agent.runTurn({ request: userText('Log in') });

    expect(harness.operator.executed.map((entry) => entry.action)).toEqual<ComputerAction[]>([
      { action: 'type', text: PASSWORD },
      { action: 'key', keys: 'x' },
    ]);
    expect(storedCalls(outcome.turnId).slice(0, 2)).toEqual([
      { action: 'type', text: '[password]' },
      { action: 'key', text: '[password]' },
    ]);
    expect(harness.storage.steps.listByTurn(outcome.turnId).map((step) => step.thought).slice(0, 1)).toEqual(['Typing [password].']);
    expect(everythingStored(harness!.home.databaseFile)).not.toContain(PASSWORD);
  });
});

describe("Qwen's computer_use", () => {
  it('asks before a key list that spells the password, and stores the list masked', async () => {
    harness = await intoPasswordField({ config: { model: { name: 'qwen2.5-vl-7b-instruct' } } });
    harness.server.script([
      qwenNativeReply({ action: 'key', keys: [...PASSWORD] }, 'vllm', 'Action: Spell the password.'),
      qwenNativeReply({ action: 'terminate', status: 'success' }),
    ]);
    const outcome = await harness.agent.runTurn({ request: userText('Log in') });

    expect(harness.confirmations.map((request) => [request.action, request.reason])).toEqual([
      [{ action: 'key', keys: '[password: 7 characters]' }, 'typing into a password field'],
    ]);
    expect(storedCalls(outcome.turnId)[0]).toEqual({ action: 'key', keys: ['[password]'] });
    expect(harness.storage.steps.listByTurn(outcome.turnId)[0]!.action).toEqual({ action: 'key', keys: '[password]' });
    const stored = everythingStored(harness!.home.databaseFile);
    expect(stored).not.toContain(PASSWORD);
    expect(stored).not.toContain('"h","u","n"');
  });
});

describe('UI-TARS', () => {
  it("masks the written action in the stored reply, in UI-TARS's grammar: type(content=…) and a hotkey spelling one letter", async () => {
    harness = await intoPasswordField({ config: { model: { name: 'ui-tars-1.5-7b' } } });
    harness.server.script([
      uiTarsAnswer(`Thought: I'll type ${PASSWORD} into the password box.\nAction: type(content='${PASSWORD}\\n')`),
      uiTarsAnswer("Thought: One more letter.\nAction: hotkey(key='q')"),
      uiTarsAnswer("Thought: Logged in.\nAction: finished(content='Logged in.')"),
    ]);
    const outcome = await harness.agent.runTurn({ request: userText('Log in') });

    expect(harness.operator.executed.map((entry) => entry.action)).toEqual<ComputerAction[]>([
      { action: 'type', text: PASSWORD },
      { action: 'key', keys: 'Return' },
      { action: 'key', keys: 'q' },
    ]);
    expect(assistantTexts(outcome.turnId).slice(0, 2)).toEqual([
      "Thought: I'll type [password] into the password box.\nAction: type(content='[password]\\n')",
      "Thought: One more letter.\nAction: hotkey(key='[password]')",
    ]);
    expect(everythingStored(harness!.home.databaseFile)).not.toContain(PASSWORD);
    // What the model is sent back is the masked reply, still in its grammar.
    const history = JSON.stringify(chatMessages(harness.server, 2));
    expect(history).toContain("hotkey(key='[password]')");
    expect(history).not.toContain("hotkey(key='q')");
  });
});

describe('what the reply and the turn say around the typing', () => {
  it('masks the password in the thought of the calls before and after it, in an earlier call that typed it elsewhere, in the summary and in later turns', async () => {
    harness = await startAgentHarness({ confirm: async () => true, operator: { focusedFieldKind: 'text' } });
    const operator = harness.operator;
    // The username field has the focus until the second call types; then the password field has it.
    let typed = 0;
    operator.focusedFieldKind = async () => {
      typed += 1;
      return typed === 1 ? 'text' : 'password';
    };
    const thought = `I'll type ${PASSWORD} as the user name and as the password.`;
    harness.server.script([
      {
        type: 'answer',
        text: thought,
        toolCalls: [
          { id: 'call_a', name: 'computer', arguments: JSON.stringify({ action: 'type', text: PASSWORD }) },
          { id: 'call_b', name: 'computer', arguments: JSON.stringify({ action: 'type', text: PASSWORD }) },
          { id: 'call_c', name: 'computer', arguments: JSON.stringify({ action: 'click', x: 5, y: 5 }) },
        ],
      },
      finishCall(`Logged in with ${PASSWORD}.`),
    ]);
    const first = await harness.agent.runTurn({ request: userText('Log in') });

    expect(first.summary).toBe('Logged in with [password].');
    const steps = harness.storage.steps.listByTurn(first.turnId);
    const masked = "I'll type [password] as the user name and as the password.";
    expect(steps.slice(0, 3).map((step) => step.thought)).toEqual([masked, masked, masked]);
    expect(steps.slice(0, 2).map((step) => step.action)).toEqual([
      { action: 'type', text: '[password]' },
      { action: 'type', text: '[password]' },
    ]);
    expect(steps[3]!.action).toEqual({ tool: 'finish', arguments: { summary: 'Logged in with [password].', success: true } });
    expect(harness.events.find((event) => event.type === 'turn-ended')).toMatchObject({ summary: 'Logged in with [password].' });

    harness.server.script([toolCall('finish', { summary: 'Done.', success: true }, `Earlier I typed ${PASSWORD}.`)]);
    const second = await harness.agent.runTurn({ request: userText('Anything else?'), sessionId: first.sessionId });
    expect(harness.storage.steps.listByTurn(second.turnId)[0]!.thought).toBe('Earlier I typed [password].');

    expect(everythingStored(harness!.home.databaseFile)).not.toContain(PASSWORD);
    // Sent to the model in the second turn: the masked history.
    expect(JSON.stringify(chatMessages(harness.server, 2))).not.toContain(PASSWORD);
  });
});

describe("the model's streamed words after the typing", () => {
  it('are masked live, though the password arrives split across two pieces', async () => {
    harness = await intoPasswordField();
    const said = ['Earlier I typed hun', 'ter2; ', 'now I finish.'];
    harness.server.script([
      computerCall({ action: 'type', text: PASSWORD }, 'Typing the password.'),
      { ...finishCall(), text: said.join(''), textPieces: said },
    ]);
    const outcome = await harness.agent.runTurn({ request: userText('Log in') });

    const deltas = harness.events.flatMap((event) => (event.type === 'model-text-delta' && event.turnId === outcome.turnId ? [event.text] : []));
    expect(deltas.join('')).toBe('Typing the password.Earlier I typed [password]; now I finish.');
    expect(deltas.join('|')).not.toContain('hun|ter2');
    expect(JSON.stringify(harness.events)).not.toContain(PASSWORD);
  });
});

describe('what a person is asked to confirm', () => {
  it('says how much is typed into a password field, never what, in the request and the event', async () => {
    harness = await intoPasswordField();
    harness.server.script([computerCall({ action: 'type', text: PASSWORD }), finishCall()]);
    await harness.agent.runTurn({ request: userText('Log in') });

    expect(harness.confirmations.map((request) => request.action)).toEqual([{ action: 'type', text: '[password: 7 characters]' }]);
    const requested = harness.events.filter((event) => event.type === 'confirmation-requested');
    expect(requested).toEqual([expect.objectContaining({ action: { action: 'type', text: '[password: 7 characters]' }, reason: 'typing into a password field' })]);
    expect(JSON.stringify(harness.events)).not.toContain(PASSWORD);
  });

  it('shows a configured secret redacted to the handlers, as the events do: a confirmation and a question', async () => {
    const questions: string[] = [];
    harness = await startAgentHarness({
      confirm: async () => false,
      askUser: async (question) => {
        questions.push(question);
        return undefined;
      },
    });
    harness.server.script([
      computerCall({ action: 'type', text: `key=${TEST_API_KEY}` }),
      toolCall('ask_user', { question: `May I paste ${TEST_API_KEY}?` }),
      finishCall('Refused.', false),
    ]);
    await harness.agent.runTurn({ request: userText('Paste the key') });

    expect(harness.confirmations.map((request) => request.action)).toEqual([{ action: 'type', text: `key=${REDACTED}` }]);
    expect(JSON.stringify(harness.confirmations)).not.toContain(TEST_API_KEY);
    expect(questions).toEqual([`May I paste ${REDACTED}?`]);
  });
});

describe('what tools write and emit after the typing', () => {
  it("masks the password in the search sub-agent's stored report, in a question to the person and in the live events", async () => {
    researchModel = await startFakeOpenAiServer();
    tavily = await startFakeTavilyServer();
    const config = {
      ...DEFAULT_CONFIG,
      model: { ...DEFAULT_CONFIG.model, baseUrl: researchModel.baseUrl, apiKey: 'sk-test-research', maxRetries: 0 },
      search: { ...DEFAULT_CONFIG.search, tavilyApiKey: 'tvly-test-abcdef0123456789' },
    };
    const extraTools = createSearchTools(config, { model: createModelAdapter(config.model), tavilyBaseUrl: tavily.baseUrl, sleep: async () => {} });
    const questions: string[] = [];
    harness = await intoPasswordField({
      extra: { extraTools },
      askUser: async (question) => {
        questions.push(question);
        return 'yes';
      },
    });
    harness.server.script([
      computerCall({ action: 'type', text: PASSWORD }, 'Typing the password.'),
      toolCall('web_search', { question: `Has the password ${PASSWORD} leaked?` }, 'Checking it.'),
      toolCall('ask_user', { question: `Is ${PASSWORD} still your password?` }, 'Asking.'),
      finishCall(),
    ]);
    researchModel.script([
      toolCall('search', { query: `${PASSWORD} leaked` }),
      toolCall('report', { answer: `${PASSWORD} is in many leaks.`, confidence: 0.8, sources: ['https://example.com/leaks'] }),
    ]);
    tavily.scriptSearch([searchResults([page('Leaks', 'https://example.com/leaks', `${PASSWORD} is common`)])]);
    const outcome = await harness.agent.runTurn({ request: userText('Log in, then check the password') });

    expect(outcome.status).toBe('finished');
    const [report] = harness.storage.searchReports.listByTurn(outcome.turnId);
    expect(report).toMatchObject({ question: 'Has the password [password] leaked?', answer: '[password] is in many leaks.' });
    expect(questions).toEqual(['Is [password] still your password?']);
    expect(everythingStored(harness!.home.databaseFile)).not.toContain(PASSWORD);
    expect(JSON.stringify(harness.events)).not.toContain(PASSWORD);
  });
});

describe('through the app API, as the app and the timeline read it', () => {
  it('holds the pending confirmation, the steps and the summary masked', async () => {
    api = await startAppApiHarness({ operator: { focusedFieldKind: 'password' } });
    api.server.script([
      computerCall({ action: 'type', text: PASSWORD }, 'Typing the password.'),
      finishCall(`Logged in with ${PASSWORD}.`),
    ]);
    const started = await api.call('startRun', { task: 'Log in' });
    const requested = await api.nextEvent('confirmation-requested');
    const { runs } = await api.call('listRuns');
    expect(runs[0]?.pending).toEqual([
      expect.objectContaining({ kind: 'confirmation', action: { action: 'type', text: '[password: 7 characters]' }, reason: 'typing into a password field' }),
    ]);
    await api.call('answerConfirmation', { requestId: requested.requestId, approved: true });
    const ended = await api.nextEvent('turn-ended', (event) => event.turnId === started.turnId);
    expect(ended.summary).toBe('Logged in with [password].');
    expect(api.operators[0]?.executed.map((entry) => entry.action)).toEqual([{ action: 'type', text: PASSWORD }]);

    const { steps } = await api.call('listSteps', { sessionId: started.sessionId });
    expect(steps[0]?.action).toEqual({ action: 'type', text: '[password]' });
    expect(steps[0]?.thought).toBe('Typing the password.');
    const session = await api.call('getSession', started.sessionId);
    expect(JSON.stringify([steps, session])).not.toContain(PASSWORD);
    expect(JSON.stringify(api.events)).not.toContain(PASSWORD);
  });
});
