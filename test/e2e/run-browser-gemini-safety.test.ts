/**
 * Gemini's `safety_decision` fails closed (issue 33, finding 5), through a spawned `sightline run` on the bundled
 * sandbox page, with the real @google/genai client against the fake Gemini API.
 *
 * The documented shape (https://ai.google.dev/gemini-api/docs/computer-use, "Safety decision", and the reference
 * agent google-gemini/computer-use-preview, agent.py `_get_safety_confirmation`): a function call's args may hold
 * `safety_decision: {"decision": "require_confirmation", "explanation": "…"}`; "regular / allowed", or no
 * decision, means the action may run. The reference agent raises on any other decision rather than running it.
 *
 * Without --yes, in a run that cannot ask (no terminal), each of five spellings of a click on Save goes to the
 * gate and is refused: upper case, a trailing space, an unknown decision, the camelCase key and the documented
 * one (and a sixth with control characters, which reach the terminal escaped). Nothing is saved, and no
 * response acknowledges. Two unreadable safety fields (a bare string, a nested object) are answered as
 * malformed and never run. Only the documented proceed value clicks, and saves once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_LAYOUT } from '../../demo/demo-script.js';
import { startSandboxServer, type SandboxServer } from '../../demo/sandbox-server.js';
import { grid, partsOf, startFakeGeminiServer, type FakeGeminiServer, type GeminiPart, type RecordedGeminiRequest } from '../helpers/fake-gemini-server.js';
import { createTemporaryHome, openHomeStorage, type TemporaryHome } from '../helpers/seed.js';
import { runSightlineProcess } from './support/sightline-process.js';

const KEY = 'AIzaSyE2E-0123456789abcdefghijSAFETY';
const MODEL = 'gemini-2.5-computer-use-preview-10-2025';
const EXPLANATION = 'Saving changes the team settings for everyone.';

let sandbox: SandboxServer;
let gemini: FakeGeminiServer;
let home: TemporaryHome;

beforeAll(async () => {
  sandbox = await startSandboxServer();
  gemini = await startFakeGeminiServer({ apiKey: KEY });
  home = createTemporaryHome('sightline-run-browser-gemini-safety');
});
afterAll(async () => {
  await gemini.close();
  await sandbox.close();
  home.remove();
});

/** The response to the latest call, as the next request sends it back. */
const lastResponse = (request: RecordedGeminiRequest): NonNullable<GeminiPart['functionResponse']> =>
  partsOf(request).flatMap((part) => (part.functionResponse === undefined ? [] : [part.functionResponse])).at(-1)!;

describe("sightline run with a Gemini model whose safety_decision is spelt any way", () => {
  it('sends every decision but the documented proceed value to the gate, refuses unreadable ones, and clicks only on "regular"', { timeout: 180_000 }, async () => {
    const save = grid(SANDBOX_LAYOUT.saveButton);
    const gated: Array<{ label: string; args: Record<string, unknown> }> = [
      { label: 'upper case', args: { safety_decision: { decision: 'REQUIRE_CONFIRMATION', explanation: EXPLANATION } } },
      { label: 'a trailing space', args: { safety_decision: { decision: 'require_confirmation ', explanation: EXPLANATION } } },
      { label: 'an unknown decision', args: { safety_decision: { decision: 'block_unless_confirmed', explanation: EXPLANATION } } },
      { label: 'the camelCase key', args: { safetyDecision: { decision: 'require_confirmation', explanation: EXPLANATION } } },
      { label: 'the documented one', args: { safety_decision: { decision: 'require_confirmation', explanation: EXPLANATION } } },
      // What a person reads on the terminal carries no control characters from the API.
      { label: 'control characters', args: { safety_decision: { decision: 'require_confirmation\u001b[2J', explanation: `${EXPLANATION}\u001b]0;owned\u0007` } } },
    ];
    const malformed: Array<{ label: string; args: Record<string, unknown> }> = [
      { label: 'a bare string', args: { safety_decision: 'require_confirmation' } },
      { label: 'extra nesting', args: { safety_decision: { decision: { decision: 'regular' } } } },
    ];
    gemini.script([
      ...[...gated, ...malformed].map(({ args }) => ({ type: 'answer' as const, calls: [{ name: 'click_at', args: { ...save, ...args } }] })),
      { type: 'answer', calls: [{ name: 'click_at', args: { ...save, safety_decision: { decision: 'regular' } } }] },
      { type: 'answer', text: 'Saved once, when the safety service let it through.' },
    ]);
    const run = await runSightlineProcess(
      ['--home', home.root, 'run', 'Save the team settings', '--operator', 'browser', '--url', sandbox.url, '--model', MODEL, '--base-url', gemini.baseUrl],
      { GEMINI_API_KEY: KEY },
    );
    expect(run.code, run.stderr).toBe(0);
    const requests = gemini.requests;
    expect(requests).toHaveLength(gated.length + malformed.length + 2);

    // Only the click with the proceed value reached the page.
    expect(sandbox.saves()).toBe(1);
    for (const [index, { label }] of gated.entries()) {
      const response = lastResponse(requests[index + 1]!);
      expect(response.name, label).toBe('click_at');
      expect(String(response.response?.error), label).toMatch(/Gemini's safety decision.* required a person's confirmation \(Saving changes the team settings for everyone\.(\\x1b\]0;owned\\x07)?\), which was not given/);
      expect(response.response, label).not.toHaveProperty('safety_acknowledgement');
    }
    // The spellings other than the documented one are named as written, so the person sees what was said.
    expect(String(lastResponse(requests[1]!).response?.error)).toContain('(safety_decision: "REQUIRE_CONFIRMATION")');
    expect(String(lastResponse(requests[4]!).response?.error)).toContain('(safetyDecision: "require_confirmation")');
    expect(run.stderr.match(/refused: .*Gemini's safety decision/g)?.length, run.stderr).toBe(gated.length);
    expect(run.stderr).toContain('(safety_decision: "require_confirmation\\u001b[2J") asks a person to confirm this action (Saving changes the team settings for everyone.\\x1b]0;owned\\x07)');
    expect(run.stderr.includes('\u001b') || run.stderr.includes('\u0007')).toBe(false);
    for (const [offset, { label }] of malformed.entries()) {
      const response = lastResponse(requests[gated.length + offset + 1]!);
      expect(String(response.response?.error), label).toMatch(/The arguments of click_at do not fit its schema:[\s\S]*safety_decision is not a safety decision/);
      expect(response.response, label).not.toHaveProperty('safety_acknowledgement');
    }
    // The proceed value ran without a question, and nothing was acknowledged: no one was asked.
    const proceeded = lastResponse(requests.at(-1)!);
    expect(proceeded.response?.error).toBeUndefined();
    expect(proceeded.response).not.toHaveProperty('safety_acknowledgement');

    // The steps record each decision as Gemini wrote it, and who refused it.
    const storage = openHomeStorage(home);
    try {
      const session = storage.sessions.list()[0]!;
      const decisions = storage.steps
        .listBySession(session.id)
        .map((step) => (step.result as { safetyDecision?: { decision: string; acknowledged: boolean } } | null)?.safetyDecision)
        .filter((decision) => decision !== undefined);
      expect(decisions.map((decision) => decision.decision)).toEqual([
        'REQUIRE_CONFIRMATION',
        'require_confirmation ',
        'block_unless_confirmed',
        'require_confirmation',
        'require_confirmation',
        'require_confirmation\u001b[2J',
      ]);
      expect(decisions.every((decision) => !decision.acknowledged)).toBe(true);
    } finally {
      storage.close();
    }
  });
});
