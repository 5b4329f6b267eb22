/**
 * A Gemini reply that cannot be read is a model error (issue 33, finding 16), through the real agent, the Gemini
 * adapter (@google/genai) and the fake Gemini API scripting each reply's chunks as written: no candidates, a
 * candidate without content, a finish reason of SAFETY, RECITATION, MALFORMED_FUNCTION_CALL or OTHER with nothing
 * usable, parts of no known kind, only thoughts. Each fails the turn (reason "error") with a message naming what
 * was wrong, made safe to print; none ends it as finished. A reply with text and no call still finishes it, and a
 * call whose args are no object is answered as malformed. `sightline run` exits 1 on one.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { userText } from '../../src/shared/messages.js';
import { runCli } from '../../src/main/cli/program.js';
import { startSandboxServer, type SandboxServer } from '../../demo/sandbox-server.js';
import { startAgentHarness, type AgentHarness } from '../helpers/agent-harness.js';
import { captureIo } from '../helpers/cli-io.js';
import { startFakeGeminiServer, type FakeGeminiReply, type FakeGeminiServer } from '../helpers/fake-gemini-server.js';
import { createTemporaryHome, openHomeStorage, type TemporaryHome } from '../helpers/seed.js';

const MODEL = 'gemini-2.5-computer-use-preview-10-2025';
const KEY = 'AIzaSy-test-0123456789-unreadable';
const USAGE = { promptTokenCount: 1200, candidatesTokenCount: 3, totalTokenCount: 1203 };

/** One streamed reply whose single chunk is `candidate` exactly (or no candidates at all). */
function replyOf(chunk: Record<string, unknown>): FakeGeminiReply {
  return { type: 'chunks', chunks: [{ usageMetadata: USAGE, modelVersion: MODEL, ...chunk }] };
}
const candidate = (fields: Record<string, unknown>) => replyOf({ candidates: [{ index: 0, ...fields }] });
const model = (parts: unknown[]) => ({ role: 'model', parts });

let gemini: FakeGeminiServer;
let harness: AgentHarness | undefined;
beforeEach(async () => {
  gemini = await startFakeGeminiServer();
});
afterEach(async () => {
  await harness?.close();
  harness = undefined;
  await gemini.close();
});

function startGemini(): Promise<AgentHarness> {
  return startAgentHarness({
    operator: { kind: 'browser', screen: { width: 1280, height: 800 } },
    config: { model: { name: MODEL, baseUrl: gemini.baseUrl, googleApiKey: KEY } },
  });
}

describe('a Gemini reply that cannot be read', () => {
  const cases: Array<{ label: string; replies: FakeGeminiReply[]; says: RegExp }> = [
    { label: 'no candidates', replies: [replyOf({})], says: /it had no candidates/ },
    { label: 'an empty candidates list', replies: [replyOf({ candidates: [] })], says: /it had no candidates/ },
    { label: 'a candidate without content', replies: [candidate({ finishReason: 'STOP' })], says: /its candidate had no content \(finishReason STOP\)/ },
    { label: 'SAFETY with nothing', replies: [candidate({ content: model([]), finishReason: 'SAFETY' })], says: /the API ended it \(finishReason SAFETY\) before any function call/ },
    {
      label: 'SAFETY with a partial text',
      replies: [candidate({ content: model([{ text: 'I will delete the acc' }]), finishReason: 'SAFETY' })],
      says: /the API ended it \(finishReason SAFETY\) before any function call; its text is not an answer/,
    },
    { label: 'RECITATION without content', replies: [candidate({ finishReason: 'RECITATION' })], says: /its candidate had no content \(finishReason RECITATION\)/ },
    {
      label: 'MALFORMED_FUNCTION_CALL, then OTHER',
      // The adapter asks once more after MALFORMED_FUNCTION_CALL; the second reply is the one judged.
      replies: [candidate({ content: model([]), finishReason: 'MALFORMED_FUNCTION_CALL' }), candidate({ content: model([]), finishReason: 'OTHER' })],
      says: /the API ended it \(finishReason OTHER\) before any function call/,
    },
    {
      // The client keeps no finishMessage for the Gemini API; a part's keys are the API's words that come through.
      label: 'a part whose key holds control characters',
      replies: [candidate({ content: model([{ 'x\u001b]0;owned\u0007\nforged line': 1 }]), finishReason: 'STOP' })],
      says: /\(a part with x\\x1b\]0;owned\\x07\\nforged line\)/,
    },
    {
      label: 'parts of no known kind',
      replies: [candidate({ content: model([{ toolCode: 'click()' }, 42, { text: 7 }, { functionCall: 'click_at' }]), finishReason: 'STOP' })],
      says: /only parts of no known kind \(a part with toolCode; a number part; a part with text\) \(finishReason STOP\)/,
    },
    { label: 'only thoughts', replies: [candidate({ content: model([{ text: 'Let me think.', thought: true }]), finishReason: 'STOP' })], says: /it held no text and no function call \(finishReason STOP\)/ },
    { label: 'only whitespace', replies: [candidate({ content: model([{ text: '  \n ' }]), finishReason: 'STOP' })], says: /it held no text and no function call \(finishReason STOP\)/ },
  ];
  for (const { label, replies, says } of cases) {
    it(`fails the turn naming what was wrong (${label})`, async () => {
      harness = await startGemini();
      gemini.script(replies);
      const outcome = await harness.agent.runTurn({ request: userText('Delete the account') });

      expect(outcome.status, outcome.summary).toBe('failed');
      expect(outcome.summary).toContain(`The model call failed: The Gemini API's reply for model "${MODEL}" cannot be read: `);
      expect(outcome.summary).toMatch(says);
      expect(outcome.summary).not.toContain(KEY);
      // Nothing was done on the screen.
      expect(harness.operator.executed).toEqual([]);
      expect(gemini.requests).toHaveLength(replies.length);
    });
  }

  it('still ends the turn with a reply that carries text and no call', async () => {
    harness = await startGemini();
    gemini.script([candidate({ content: model([{ text: 'Nothing to do: the account is already gone.' }]), finishReason: 'STOP' })]);
    const outcome = await harness.agent.runTurn({ request: userText('Delete the account') });
    expect(outcome).toMatchObject({ status: 'finished', summary: 'Nothing to do: the account is already gone.' });
  });

  it('answers a call whose args are no object as malformed, and never runs it', async () => {
    harness = await startGemini();
    gemini.script([
      candidate({ content: model([{ functionCall: { name: 'click_at', args: [500, 300], id: 'fc_1' } }]), finishReason: 'STOP' }),
      candidate({ content: model([{ text: 'I could not click.' }]), finishReason: 'STOP' }),
    ]);
    const outcome = await harness.agent.runTurn({ request: userText('Delete the account') });
    expect(outcome).toMatchObject({ status: 'finished' });
    expect(harness.operator.executed).toEqual([]);
    expect(JSON.stringify(gemini.requests[1]!.body.contents)).toContain('The arguments of click_at were not an object');
  });
});

describe('sightline run on a Gemini reply that cannot be read', () => {
  let sandbox: SandboxServer;
  let home: TemporaryHome;
  beforeAll(async () => {
    sandbox = await startSandboxServer();
    home = createTemporaryHome('sightline-gemini-unreadable');
  });
  afterAll(async () => {
    await sandbox.close();
    home.remove();
  });

  it('exits 1 with the reason, and the turn is stored failed, not finished', { timeout: 120_000 }, async () => {
    gemini.script([candidate({ content: model([]), finishReason: 'SAFETY' })]);
    const io = captureIo({ GEMINI_API_KEY: KEY });
    const code = await runCli(['--home', home.root, 'run', 'Delete the account', '--operator', 'browser', '--url', sandbox.url, '--model', MODEL, '--base-url', gemini.baseUrl], io);

    expect(code, io.output.stderr).toBe(1);
    expect(io.output.stderr).toMatch(/cannot be read: the API ended it \(finishReason SAFETY\) before any function call/);
    expect(io.output.stdout + io.output.stderr).not.toContain(KEY);
    expect(sandbox.saves()).toBe(0);
    const storage = openHomeStorage(home);
    try {
      const session = storage.sessions.list()[0]!;
      expect(storage.turns.listBySession(session.id).map((turn) => turn.status)).toEqual(['failed']);
    } finally {
      storage.close();
    }
  });
});
