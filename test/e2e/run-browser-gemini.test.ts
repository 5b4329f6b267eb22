/**
 * Gemini end to end: `sightline run --operator browser --model gemini-2.5-computer-use-preview-10-2025` as
 * separate processes on the bundled sandbox page, through the real @google/genai client against the fake Gemini
 * API (test/helpers/fake-gemini-server.ts, built from Google's computer-use guide and reference agent). The model
 * name alone selects the google provider and Gemini's computer_use tool.
 *
 * - Turn 1 (no --yes): click_at and type_text_at in one reply (parallel calls, each with its id and thought
 *   signature, which must come back verbatim or the fake answers 400) land on the page; a click_at on Save whose
 *   safety_decision is require_confirmation is held (nothing saved, no acknowledgement); a key_combination
 *   Control+W is refused by the policy; a reply without a call ends the turn with its text as the summary.
 * - Turn 2 (--yes): the name typed again, the held click runs, acknowledged (`safety_acknowledgement`), and saves; the model recalls a
 *   folded screenshot of turn 1 through get_history_image, whose response carries the stored pixels inline.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_LAYOUT } from '../../demo/demo-script.js';
import { startSandboxServer, type SandboxServer } from '../../demo/sandbox-server.js';
import { grid, partsOf, startFakeGeminiServer, type FakeGeminiServer, type GeminiPart, type RecordedGeminiRequest } from '../helpers/fake-gemini-server.js';
import { createTemporaryHome, openHomeStorage, type TemporaryHome } from '../helpers/seed.js';
import { runSightlineProcess } from './support/sightline-process.js';

const KEY = 'AIzaSyE2E-0123456789abcdefghijSECRET';
const MODEL = 'gemini-2.5-computer-use-preview-10-2025';
const NAME_TASK = 'Name the team Platform and save';
const SAVE_TASK = 'Save it now, and tell me what the page looked like while you typed.';
const PLACEHOLDER = /\[Visual_Placeholder: (img_[0-9a-f]{12})\]/g;

let sandbox: SandboxServer;
let gemini: FakeGeminiServer;
let home: TemporaryHome;

beforeAll(async () => {
  sandbox = await startSandboxServer();
  gemini = await startFakeGeminiServer({ apiKey: KEY });
  home = createTemporaryHome('sightline-run-browser-gemini');
});
afterAll(async () => {
  await gemini.close();
  await sandbox.close();
  home.remove();
});

function runGemini(task: string, extra: string[] = []) {
  const args = ['--home', home.root, 'run', task, '--operator', 'browser', '--url', sandbox.url, '--model', MODEL, '--base-url', gemini.baseUrl, ...extra];
  return runSightlineProcess(args, { GEMINI_API_KEY: KEY });
}

const responseTo = (request: RecordedGeminiRequest, name: string): GeminiPart['functionResponse'][] =>
  partsOf(request).flatMap((part) => (part.functionResponse?.name === name ? [part.functionResponse] : []));

describe('sightline run --operator browser with a Gemini computer-use model', () => {
  it(
    "acts through Gemini's computer_use, holds a require_confirmation call until --yes, refuses a risky key and recalls a folded screenshot",
    { timeout: 120_000 },
    async () => {
      const field = grid(SANDBOX_LAYOUT.teamNameField);
      const save = grid(SANDBOX_LAYOUT.saveButton);
      const confirmSave = { decision: 'require_confirmation', explanation: 'Saving changes the team settings.' };
      gemini.script([
        {
          type: 'answer',
          text: 'I click the team name field and type the name.',
          calls: [
            { name: 'click_at', args: field, id: 'fc_01', thoughtSignature: 'c2lnLW9uZQ==' },
            { name: 'type_text_at', args: { ...field, text: 'Platform', press_enter: false }, id: 'fc_02' },
          ],
        },
        {
          type: 'answer',
          calls: [
            { name: 'click_at', args: grid(SANDBOX_LAYOUT.weeklySummaryBox) },
            { name: 'type_text_at', args: { ...grid(SANDBOX_LAYOUT.newMemberField), text: 'Ada' } },
          ],
        },
        { type: 'answer', calls: [{ name: 'click_at', args: { ...save, safety_decision: confirmSave } }] },
        { type: 'answer', text: 'Closing the tab.', calls: [{ name: 'key_combination', args: { keys: 'Control+W' } }] },
        { type: 'answer', text: 'The name is typed; saving needs your confirmation.', textSignature: 'c2lnLXR3bw==' },
      ]);
      const first = await runGemini(NAME_TASK);
      expect(first.code, first.stderr).toBe(0);
      expect(first.stdout + first.stderr).not.toContain(KEY);
      const sessionId = /continue it with --session (ses_[0-9a-f]{12})/.exec(first.stderr)?.[1];
      expect(sessionId, first.stderr).toBeDefined();
      const firstTurn = gemini.requests.slice();
      expect(firstTurn).toHaveLength(5);
      for (const request of firstTurn) {
        expect(request.stream).toBe(true);
        expect(request.model).toBe(MODEL);
        expect(request.headers['x-goog-api-key']).toBe(KEY);
      }
      // Gemini's own tool, with the browser environment and navigation excluded; Sightline's tools as functions.
      const tools = firstTurn[0]!.body.tools!;
      expect(tools[0]).toEqual({
        computerUse: { environment: 'ENVIRONMENT_BROWSER', excludedPredefinedFunctions: ['go_back', 'go_forward', 'search', 'navigate'] },
      });
      const declared = (tools[1]!.functionDeclarations as Array<{ name: string }>).map((declaration) => declaration.name);
      expect(declared).toEqual(['ask_user', 'get_history_image', 'crop_image']);
      // Nothing was saved: the confirmation was held.
      expect(sandbox.saves()).toBe(0);
      // The model's reply went back verbatim: both calls with their ids, the first with its signature.
      const modelParts = firstTurn[1]!.body.contents.filter((content) => content.role === 'model').flatMap((content) => content.parts);
      expect(modelParts).toContainEqual({ functionCall: { name: 'click_at', args: field, id: 'fc_01' }, thoughtSignature: 'c2lnLW9uZQ==' });
      expect(modelParts).toContainEqual({ functionCall: { name: 'type_text_at', args: { ...field, text: 'Platform', press_enter: false }, id: 'fc_02' } });
      // Each call answered by name and id, with the page URL and the screenshot after it inline.
      const typed = responseTo(firstTurn[1]!, 'type_text_at')[0]!;
      expect(typed.id).toBe('fc_02');
      expect(typed.response?.url).toBe(sandbox.url);
      expect(typed.parts?.[0]?.inlineData?.mimeType).toBe('image/png');
      // The require_confirmation call: refused without a person's yes, and not acknowledged.
      const held = responseTo(firstTurn[3]!, 'click_at').at(-1)!;
      expect(held.response?.error).toMatch(/confirmation/);
      expect(held.response).not.toHaveProperty('safety_acknowledgement');
      expect(first.stderr).toMatch(/refused: .*Gemini's safety decision/);
      // The risky key was refused by the policy.
      expect(JSON.stringify(responseTo(firstTurn[4]!, 'key_combination')[0]!.response)).toMatch(/refused/);

      let recalledId: string | undefined;
      gemini.script([
        {
          type: 'answer',
          // A new browser opens the page as it was last saved: the name is typed again, then saved.
          calls: [
            { name: 'type_text_at', args: { ...field, text: 'Platform' } },
            { name: 'click_at', args: { ...save, safety_decision: confirmSave } },
          ],
        },
        (request) => {
          const seen = [...request.rawBody.matchAll(PLACEHOLDER)].map((match) => match[1]!);
          recalledId = seen.find((imageId) => zoneOf(imageId) === 'offloaded');
          return { type: 'answer', text: 'Looking back.', calls: [{ name: 'get_history_image', args: { image_id: recalledId ?? 'img_000000000000' } }] };
        },
        { type: 'answer', text: 'Saved. The field read "Platform" while I typed.' },
      ]);
      const second = await runGemini(SAVE_TASK, ['--session', sessionId!, '--yes']);
      expect(second.code, second.stderr).toBe(0);
      const secondTurn = gemini.requests.slice(firstTurn.length);
      expect(secondTurn).toHaveLength(3);
      // With --yes the held click ran and saved, and its response acknowledges the safety decision.
      expect(sandbox.state()).toMatchObject({ teamName: 'Platform' });
      const acknowledged = responseTo(secondTurn[1]!, 'click_at').at(-1)!;
      expect(acknowledged.response).toMatchObject({ safety_acknowledgement: 'true', url: sandbox.url });
      // The recall: the response carries the folded image's stored pixels, from cold storage.
      expect(recalledId).toBeDefined();
      const recalled = responseTo(secondTurn[2]!, 'get_history_image')[0]!;
      const inline = recalled.parts?.[0]?.inlineData?.data;
      expect(inline).toBeDefined();
      const storage = openHomeStorage(home);
      try {
        const record = storage.images.get(recalledId!)!;
        expect(record.zone).toBe('offloaded');
        expect(createHash('sha256').update(Buffer.from(inline!, 'base64')).digest('hex')).toBe(record.sha256);
        const turns = storage.turns.listBySession(sessionId!);
        expect(turns.map((turn) => turn.status)).toEqual(['finished', 'finished']);
        expect(turns[0]!.summary).toBe('The name is typed; saving needs your confirmation.');
      } finally {
        storage.close();
      }
    },
  );
});

function zoneOf(imageId: string): string | undefined {
  const storage = openHomeStorage(home);
  try {
    return storage.images.get(imageId)?.zone;
  } finally {
    storage.close();
  }
}
