/**
 * `sightline run --operator browser --model ui-tars-1.5-7b` on the bundled sandbox page, through a fake
 * server that answers UI-TARS text as vLLM serves it. The model name selects the ui-tars dialect; the
 * page is shown to the model downscaled (a 1280x800 viewport, perception.maxImageEdge 640), and UI-TARS's
 * points in the image it was sent land on the page's controls: a click, a typed name, a save, and a typed
 * member submitted by UI-TARS's trailing "\n" (the Enter the page adds members on).
 */
import { describe, expect, it } from 'vitest';
import { isComputerAction } from '../../src/shared/actions.js';
import { AgentEventSchema } from '../../src/shared/events.js';
import { SANDBOX_LAYOUT } from '../../demo/demo-script.js';
import { uiTarsPrompt } from '../../src/main/llm/dialects/ui-tars/ui-tars-prompts.js';
import { resolveModelProfile } from '../../src/main/llm/model-profiles.js';
import { modelImageSize } from '../../src/main/context/model-image-size.js';
import { openHomeStorage } from '../helpers/seed.js';
import { useRunEnvironment } from '../helpers/run-environment.js';
import { scriptedUiTarsMoves, type UiTarsRequestSummary } from '../helpers/scripted-ui-tars-model.js';
import { runSightlineProcess } from './support/sightline-process.js';

const environment = useRunEnvironment('sightline-run-ui-tars');
const MODEL = 'ui-tars-1.5-7b';
const TASK = 'Name the team "Platform", save, and add Ada Lovelace to the members.';

describe('sightline run --model ui-tars-1.5-7b --operator browser', () => {
  it('clicks, types and submits on the sandbox page from UI-TARS text, on a downscaled screen', { timeout: 60_000 }, async () => {
    const requests: UiTarsRequestSummary[] = [];
    environment.model.script(
      scriptedUiTarsMoves(
        MODEL,
        [
          { click: SANDBOX_LAYOUT.teamNameField, thought: 'The Team name field is empty; I click into it.' },
          { type: 'Platform', thought: 'I type the new name.' },
          { click: SANDBOX_LAYOUT.saveButton, thought: 'Now I save the settings.' },
          { click: SANDBOX_LAYOUT.newMemberField, thought: 'I click the "Name or email" field under Members.' },
          { type: 'Ada Lovelace\n', thought: 'I type her name and press Enter to add her.' },
          { finished: 'The team is named Platform and Ada Lovelace is a member.' },
        ],
        (summary) => requests.push(summary),
      ),
    );
    const run = await runSightlineProcess(
      ['--home', environment.home.root, 'run', TASK, '--operator', 'browser', '--url', environment.sandbox.url, '--base-url', environment.model.baseUrl, '--model', MODEL, '--json'],
      { SIGHTLINE_PERCEPTION_MAX_IMAGE_EDGE: '640' },
    );
    expect(run.code, run.stderr).toBe(0);

    expect(environment.sandbox.state()).toMatchObject({ teamName: 'Platform', members: ['Ada Lovelace'] });
    expect(requests).toHaveLength(6);
    // Shown downscaled: the 1280x800 viewport fitted to 640 wide (640x400), then at UI-TARS-1.5's own smart-resize
    // size, so its resize is the identity and its points are pixels of the image sent.
    const sent = modelImageSize(1280, 800, 640, resolveModelProfile(MODEL).imageSizing);
    expect(sent).toEqual({ width: 644, height: 392 });
    expect(requests.every((request) => request.images > 0 && request.image.width === sent.width && request.image.height === sent.height)).toBe(true);
    // UI-TARS's protocol: no tools, its system message, its template holding the task.
    expect(requests.every((request) => request.tools === undefined)).toBe(true);
    expect(requests[0]!.messages.slice(0, 2)).toEqual([
      { role: 'system', text: 'You are a helpful assistant.' },
      { role: 'user', text: uiTarsPrompt('browser', TASK) },
    ]);
    expect(requests.at(-1)!.messages.some((message) => message.role === 'tool')).toBe(false);

    const events = run.stdout.trimEnd().split('\n').map((line) => AgentEventSchema.parse(JSON.parse(line)));
    const sessionId = events[0]!.sessionId;
    const storage = openHomeStorage(environment.home);
    try {
      const [turn] = storage.turns.listBySession(sessionId);
      expect(turn).toMatchObject({ status: 'finished', summary: 'The team is named Platform and Ada Lovelace is a member.' });
      const actions = storage.steps.listBySession(sessionId).map((step) => (isComputerAction(step.action) ? step.action.action : step.action.tool));
      expect(actions).toEqual(['click', 'type', 'click', 'click', 'type', 'key', 'finish']);
    } finally {
      storage.close();
    }
  });
});
