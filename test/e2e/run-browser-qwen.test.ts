/**
 * `sightline run --operator browser --model <a Qwen VL model>` on the bundled sandbox page, through the fake
 * model server speaking Qwen's computer_use: once as native tool calls (Qwen2.5-VL, points in pixels of the
 * image sent), once as `<tool_call>` text in the content (Qwen3-VL, points 0–1000). The 1280x800 page is
 * shown downscaled (perception.maxImageEdge 640), and the scripted Qwen names its points in what it was sent,
 * so a click and the typed value land where they should only if every point goes through the one mapping.
 */
import { describe, expect, it } from 'vitest';
import { SANDBOX_LAYOUT } from '../../demo/demo-script.js';
import { AgentEventSchema } from '../../src/shared/events.js';
import { useRunEnvironment } from '../helpers/run-environment.js';
import { scriptedQwenMoves, type QwenMove, type ScriptedQwenOptions } from '../helpers/qwen-model-replies.js';
import { openHomeStorage } from '../helpers/seed.js';
import { runSightlineProcess } from './support/sightline-process.js';

const environment = useRunEnvironment('sightline-run-browser-qwen');

const TASK = 'Name the team "Platform" and save the settings.';
const PAGE = { width: 1280, height: 800 };
const MOVES: QwenMove[] = [
  { click: SANDBOX_LAYOUT.teamNameField, thought: 'Action: Click the Team name field.' },
  { type: 'Platform', thought: 'Action: Type the new name.' },
  { click: SANDBOX_LAYOUT.saveButton, thought: 'Action: Save.' },
  { terminate: 'success', thought: 'Action: The team is named Platform and saved.' },
];
// The page keeps what an earlier run saved: selecting the field's text first makes typing replace it.
const MOVES_OVER_SAVED_NAME: QwenMove[] = [{ tripleClick: SANDBOX_LAYOUT.teamNameField, thought: 'Action: Select the Team name.' }, ...MOVES.slice(1)];

async function runQwen(model: string, options: Omit<ScriptedQwenOptions, 'layout' | 'onRequest'>, moves = MOVES) {
  const screenshots: Array<{ width: number; height: number }> = [];
  environment.model.script(scriptedQwenMoves(moves, { ...options, layout: PAGE, onRequest: (_request, screenshot) => screenshots.push(screenshot) }));
  const args = ['--home', environment.home.root, 'run', TASK, '--operator', 'browser', '--url', environment.sandbox.url,
    '--base-url', environment.model.baseUrl, '--model', model, '--json'];
  const run = await runSightlineProcess(args, { SIGHTLINE_PERCEPTION_MAX_IMAGE_EDGE: '640' });
  return { run, screenshots };
}

describe('sightline run --operator browser with a Qwen VL model', () => {
  it('clicks and types through native computer_use calls (Qwen2.5-VL, pixels of the image sent)', { timeout: 60_000 }, async () => {
    expect(environment.sandbox.state().teamName).toBe('');
    const { run, screenshots } = await runQwen('qwen2.5-vl-7b-instruct', { form: 'native', coordinateSpace: 'pixels' });
    expect(run.code, run.stderr).toBe(0);
    expect(environment.sandbox.state()).toMatchObject({ teamName: 'Platform' });
    // Shown downscaled: fitted to 640 wide, then at Qwen2.5-VL's own smart-resize size (multiples of 28), so
    // its points are pixels of the image sent.
    expect(screenshots.length).toBe(MOVES.length);
    expect(screenshots.every((size) => size.width < PAGE.width && size.height < PAGE.height && size.width % 28 === 0 && size.height % 28 === 0)).toBe(true);
    const events = run.stdout.trimEnd().split('\n').map((line) => AgentEventSchema.parse(JSON.parse(line)));
    expect(events.filter((event) => event.type === 'step').map((event) => event.type === 'step' && event.tool)).toEqual([
      'computer_use',
      'computer_use',
      'computer_use',
      'computer_use',
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'turn-ended', status: 'finished' });
  });

  it('clicks and types through <tool_call> text (Qwen3-VL, points 0–1000)', { timeout: 60_000 }, async () => {
    const { run, screenshots } = await runQwen('Qwen/Qwen3-VL-8B-Instruct', { form: 'text', coordinateSpace: 'normalized-1000' }, MOVES_OVER_SAVED_NAME);
    expect(run.code, run.stderr).toBe(0);
    expect(environment.sandbox.state()).toMatchObject({ teamName: 'Platform' });
    expect(screenshots.every((size) => size.width <= 640)).toBe(true);
    const storage = openHomeStorage(environment.home);
    try {
      const [session] = storage.sessions.list();
      const steps = storage.steps.listBySession(session!.id);
      expect(steps.map((step) => step.action)).toEqual([
        { action: 'triple_click', x: 500, y: 291 },
        { action: 'type', text: 'Platform' },
        { action: 'click', x: 328, y: 523 },
        { tool: 'computer_use', arguments: { action: 'terminate', status: 'success' } },
      ]);
      expect(steps[0]!.thought).toBe('Action: Select the Team name.');
    } finally {
      storage.close();
    }
  });
});
