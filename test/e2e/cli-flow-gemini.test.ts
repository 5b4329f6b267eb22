/**
 * `sightline flow` with a Gemini computer-use model, as a user runs it: a real process, a real Chromium on a local
 * page, the real @google/genai client against the fake Gemini API (which refuses a computer-use model asked without
 * the computerUse tool, as the API does). The flow acts through Gemini's type_text_at, then its assertion and its
 * extraction are answered through `answer`, declared beside computer_use with every predefined function excluded.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GEMINI_25_FUNCTIONS } from '../../src/main/agent/tools/gemini-computer-translation.js';
import { NAME_FIELD, startCartPage, type CartPageServer } from '../helpers/cart-page.js';
import { grid, startFakeGeminiServer, type FakeGeminiServer } from '../helpers/fake-gemini-server.js';
import { createTemporaryHome, openHomeStorage, type TemporaryHome } from '../helpers/seed.js';
import { runSightlineProcess } from './support/sightline-process.js';

const KEY = 'AIzaSyFlow-0123456789abcdefghijSECRET';
const MODEL = 'gemini-2.5-computer-use-preview-10-2025';

let page: CartPageServer;
let gemini: FakeGeminiServer;
let home: TemporaryHome;
let folder: string;

beforeAll(async () => {
  page = await startCartPage();
  gemini = await startFakeGeminiServer({ apiKey: KEY });
  home = createTemporaryHome('sightline-flow-gemini');
  folder = mkdtempSync(join(tmpdir(), 'sightline-flow-gemini-'));
});
afterAll(async () => {
  await gemini.close();
  await page.close();
  home.remove();
  rmSync(folder, { recursive: true, force: true });
});

const FLOW = `name: Gemini checkout
target: { operator: browser, url: "\${env.PAGE_URL}" }
steps:
  - do: Type apple into the name field
  - assert: The name field shows apple
  - extract: the cart total
    schema: { type: object, properties: { amount: { type: number } }, required: [amount] }
`;

describe('sightline flow with a Gemini computer-use model', () => {
  it("answers the flow's assertion and extraction through answer, computer_use declared with nothing to act with", { timeout: 120_000 }, async () => {
    const file = join(folder, 'checkout.flow.yaml');
    writeFileSync(file, FLOW);
    gemini.script([
      { type: 'answer', text: 'I type apple into the name field.', calls: [{ name: 'type_text_at', args: { ...grid(NAME_FIELD), text: 'apple', press_enter: false }, id: 'fc_1', thoughtSignature: 'c2lnLTE=' }] },
      { type: 'answer', text: 'The name field now holds apple.' },
      { type: 'answer', calls: [{ name: 'answer', args: { verdict: true, reason: 'The name field shows apple.', evidence: [] }, id: 'fc_2', thoughtSignature: 'c2lnLTI=' }] },
      { type: 'answer', calls: [{ name: 'answer', args: { value: { amount: 12.5 }, reason: 'The total reads $12.50.', evidence: [] }, id: 'fc_3' }] },
    ]);
    const out = join(folder, 'out.json');
    const run = await runSightlineProcess(['--home', home.root, 'flow', file, '--out', out, '--model', MODEL, '--base-url', gemini.baseUrl], {
      GEMINI_API_KEY: KEY,
      PAGE_URL: page.url,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('1 flow: 1 passed, 0 failed');

    const report = JSON.parse(readFileSync(out, 'utf8')) as { flows: Array<{ sessionId: string; steps: Array<{ kind: string; status: string; value?: unknown; evidence: string[] }> }> };
    const [flow] = report.flows;
    expect(flow!.steps.map((step) => [step.kind, step.status])).toEqual([['do', 'passed'], ['assert', 'passed'], ['extract', 'passed']]);
    expect(flow!.steps[1]!.value).toBe(true);
    expect(flow!.steps[1]!.evidence).toHaveLength(1);
    expect(flow!.steps[2]!.value).toEqual({ amount: 12.5 });

    expect(gemini.requests).toHaveLength(4);
    expect(gemini.requests[0]!.body.tools![0]).toMatchObject({ computerUse: { environment: 'ENVIRONMENT_BROWSER' } });
    for (const request of gemini.requests.slice(2)) {
      expect(request.body.tools![0]).toEqual({ computerUse: { environment: 'ENVIRONMENT_BROWSER', excludedPredefinedFunctions: [...GEMINI_25_FUNCTIONS] } });
      expect(request.body.tools![1]!.functionDeclarations).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'answer' })]));
    }
    const storage = openHomeStorage(home);
    try {
      const turns = storage.turns.listBySession(flow!.sessionId);
      expect(turns.map((turn) => [turn.stepKind, turn.status])).toEqual([['do', 'finished'], ['assert', 'finished'], ['extract', 'finished']]);
      expect(turns[1]!.answer).toMatchObject({ kind: 'verdict', value: true, reason: 'The name field shows apple.' });
      expect(storage.steps.listByTurn(turns[0]!.id).map((step) => step.action)).toEqual([expect.objectContaining({ action: 'type', text: 'apple' })]);
    } finally {
      storage.close();
    }
  });
});
