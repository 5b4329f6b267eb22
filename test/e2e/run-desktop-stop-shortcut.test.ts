/**
 * The emergency stop of `sightline run --operator desktop` on a private Xvfb, end to end: a real process
 * with the real global input hook (uiohook-napi over XRecord), and the combination pressed by xdotool
 * (XTest, as a person's keyboard reaches the X server). The scripted model first tries to press the stop
 * combination itself, which the desktop operator refuses (had nut-js pressed it, the hook would have
 * stopped the run right there), clicks, then waits on a model call that never answers; Ctrl+Alt+Esc stops
 * the run as a first Ctrl+C does: exit 3, the turn stored as stopped with its steps.
 */
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandExists, hasSystemPackage } from '../helpers/system-packages.js';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../helpers/fake-openai-server.js';
import { scriptedMoves } from '../helpers/scripted-computer-model.js';
import { createTemporaryHome, openHomeStorage, type TemporaryHome } from '../helpers/seed.js';
import { startXvfb, type Xvfb } from '../helpers/xvfb.js';
import { waitFor } from '../helpers/wait-for.js';
import { startSightline } from './support/sightline-process.js';

const hasXdotool = process.platform === 'linux' && hasSystemPackage('xdotool', commandExists('xdotool'));
const hasXvfb = process.platform === 'linux' && hasSystemPackage('xvfb', commandExists('Xvfb'));

let xvfb: Xvfb | undefined;
let model: FakeOpenAiServer | undefined;
let home: TemporaryHome | undefined;

beforeAll(async () => {
  if (!hasXdotool || !hasXvfb) return;
  xvfb = await startXvfb({ width: 1024, height: 768 });
  model = await startFakeOpenAiServer();
  home = createTemporaryHome('sightline-run-stop-shortcut');
});

afterAll(async () => {
  await model?.close();
  await xvfb?.stop();
  home?.remove();
});

/** Another process's requests and output: only polling can see them. */
function until(condition: () => boolean, description: string): Promise<true> {
  return waitFor(() => (condition() ? true : undefined), { description, timeoutMs: 30_000 });
}

describe.skipIf(!hasXdotool || !hasXvfb)('the stop shortcut of sightline run --operator desktop under Xvfb', () => {
  it('stops the run when Ctrl+Alt+Esc is pressed, and the agent cannot press it itself', { timeout: 90_000 }, async () => {
    model!.script(
      scriptedMoves([
        { action: { action: 'key', keys: 'ctrl+alt+Escape' }, thought: 'Stop myself.' },
        { action: { action: 'click', x: 200, y: 200 } },
        { hang: true },
      ]),
    );
    const running = startSightline(
      ['--home', home!.root, 'run', 'Keep working', '--operator', 'desktop', '--base-url', model!.baseUrl, '--yes', '--json'],
      { DISPLAY: xvfb!.display, OPENAI_API_KEY: 'sk-test-stop-shortcut' },
    );
    await until(() => model!.requests.length === 3, 'the third model call');
    expect(running.output.stderr).toContain('stop at any time with Ctrl+Alt+Esc (or Ctrl+C here)');

    const pressed = spawnSync('xdotool', ['key', 'ctrl+alt+Escape'], { env: xvfb!.env, encoding: 'utf8' });
    expect(pressed.status, pressed.stderr).toBe(0);
    const stopped = await running.exited;

    expect(stopped.code, stopped.stderr).toBe(3);
    expect(stopped.stderr).toContain('stopping: the turn ends after the current action');
    const storage = openHomeStorage(home!);
    try {
      const [session] = storage.sessions.list();
      const [turn] = storage.turns.listBySession(session!.id);
      expect(turn?.status).toBe('stopped');
      const steps = storage.steps.listByTurn(turn!.id);
      expect(steps.map((step) => ('action' in step.action ? step.action.action : step.action.tool))).toEqual(['key', 'click']);
      expect(steps[0]?.error).toContain('Ctrl+Alt+Esc is the emergency stop');
      expect(steps[1]?.error).toBeNull();
    } finally {
      storage.close();
    }
  });
});
