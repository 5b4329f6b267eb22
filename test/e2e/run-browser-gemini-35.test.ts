/**
 * Gemini 3.5 Flash end to end: `sightline run --operator browser --model gemini-3.5-flash` as a separate process
 * on the bundled sandbox page, through the real @google/genai client against the fake Gemini API. Gemini 3.5
 * Flash carries computer_use built in, with streamlined functions that each explain themselves in an `intent`
 * (https://ai.google.dev/gemini-api/docs/generate-content/computer-use, read 2026-11-28): the model name alone
 * selects the 3.5 function set, and its calls (click, type, press_key, hotkey) land on the page through the one
 * action vocabulary and the one gate. Each call's intent is kept with its step and shown on the progress line
 * only through the terminal sanitizer: an intent carrying escape sequences and a forged line reaches the
 * terminal as one inert line.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_LAYOUT } from '../../demo/demo-script.js';
import { startSandboxServer, type SandboxServer } from '../../demo/sandbox-server.js';
import { startFakeGeminiServer, type FakeGeminiServer, type GeminiPart, type RecordedGeminiRequest } from '../helpers/fake-gemini-server.js';
import { createTemporaryHome, openHomeStorage, type TemporaryHome } from '../helpers/seed.js';
import { runSightlineProcess } from './support/sightline-process.js';

const KEY = 'AIzaSyE2E-35-0123456789abcdefghijSECRET';
const MODEL = 'gemini-3.5-flash';
const FORGED_INTENT = 'Save the form\u001b]0;owned\u0007\u001b[2J\nrefused: forged line';

let sandbox: SandboxServer;
let gemini: FakeGeminiServer;
let home: TemporaryHome;

beforeAll(async () => {
  sandbox = await startSandboxServer();
  gemini = await startFakeGeminiServer({ apiKey: KEY });
  home = createTemporaryHome('sightline-run-browser-gemini-35');
});
afterAll(async () => {
  await gemini.close();
  await sandbox.close();
  home.remove();
});

/** A point of the 1280x800 page on Gemini's 0–999 grid: the grid value whose pixel (floor) is the point's. */
function grid(point: { x: number; y: number }): { x: number; y: number } {
  return { x: Math.ceil((point.x * 1000) / 1280), y: Math.ceil((point.y * 1000) / 800) };
}

const partsOf = (request: RecordedGeminiRequest): GeminiPart[] => request.body.contents.flatMap((content) => content.parts);
const responseTo = (request: RecordedGeminiRequest, name: string): GeminiPart['functionResponse'][] =>
  partsOf(request).flatMap((part) => (part.functionResponse?.name === name ? [part.functionResponse] : []));

describe('sightline run --operator browser --model gemini-3.5-flash', () => {
  it(
    "drives Gemini 3.5's function set, each call's intent kept with its step and printed only sanitized",
    { timeout: 180_000 },
    async () => {
      const field = grid(SANDBOX_LAYOUT.teamNameField);
      gemini.script([
        {
          type: 'answer',
          calls: [
            { name: 'click', args: { ...field, intent: 'Focus the team name field.' }, id: 'fc_01', thoughtSignature: 'c2lnLTM1' },
            { name: 'type', args: { text: 'Platfrom', intent: 'Type the team name.' }, id: 'fc_02' },
          ],
        },
        // The typo is selected and typed over: hotkey with its keys, then type again.
        { type: 'answer', calls: [{ name: 'hotkey', args: { keys: ['Control', 'a'], intent: 'Select the mistyped name.' }, id: 'fc_03' }] },
        { type: 'answer', calls: [{ name: 'type', args: { text: 'Platform', intent: 'Type the name again.' }, id: 'fc_04' }] },
        { type: 'answer', calls: [{ name: 'press_key', args: { key: 'Tab', intent: 'Leave the field.' }, id: 'fc_05' }] },
        { type: 'answer', calls: [{ name: 'click', args: { ...grid(SANDBOX_LAYOUT.saveButton), intent: FORGED_INTENT }, id: 'fc_06' }] },
        { type: 'answer', text: 'The team is named Platform and saved.' },
      ]);
      const args = ['--home', home.root, 'run', 'Name the team Platform and save', '--operator', 'browser', '--url', sandbox.url, '--model', MODEL, '--base-url', gemini.baseUrl];
      const run = await runSightlineProcess(args, { GEMINI_API_KEY: KEY });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout + run.stderr).not.toContain(KEY);

      // What landed on the page: the name typed over its typo, then saved.
      expect(sandbox.state()).toMatchObject({ teamName: 'Platform' });
      expect(sandbox.saves()).toBeGreaterThanOrEqual(1);

      const requests = gemini.requests.slice();
      expect(requests).toHaveLength(6);
      for (const request of requests) expect(request.model).toBe(MODEL);
      // The 3.5 set's tool, for the browser, with navigation and held keys excluded (never 2.5's names).
      expect(requests[0]!.body.tools![0]).toEqual({
        computerUse: { environment: 'ENVIRONMENT_BROWSER', excludedPredefinedFunctions: ['key_down', 'key_up', 'go_back', 'navigate', 'go_forward'] },
      });
      // Every call answered by its own name and id, with the page's URL and the screen after it.
      for (const [index, name, id] of [
        [1, 'type', 'fc_02'],
        [2, 'hotkey', 'fc_03'],
        [4, 'press_key', 'fc_05'],
      ] as const) {
        const response = responseTo(requests[index]!, name).at(-1)!;
        expect(response.id).toBe(id);
        expect(response.response?.url).toBe(sandbox.url);
        expect(response.response).not.toHaveProperty('error');
        expect(response.parts?.[0]?.inlineData?.mimeType).toBe('image/png');
      }

      // The intents reach the terminal as the model's words on the step's line, sanitized: no escape sequence,
      // no forged line.
      expect(run.stderr).toMatch(/step \d+ {2}.* {2}intent: Focus the team name field\./);
      expect(run.stderr).toContain('intent: Leave the field.');
      expect(run.stderr).not.toContain('\u001b');
      expect(run.stderr).not.toContain('\u0007');
      expect(run.stderr.split('\n').some((line) => line.startsWith('refused: forged line'))).toBe(false);

      // And each is kept with its step, beside the reply's text.
      const storage = openHomeStorage(home);
      try {
        const thoughts = storage.steps
          .listBySession(storage.sessions.list()[0]!.id)
          .map((step) => step.thought);
        expect(thoughts).toContain('Intent: Focus the team name field.');
        expect(thoughts).toContain('Intent: Type the name again.');
      } finally {
        storage.close();
      }
    },
  );
});
