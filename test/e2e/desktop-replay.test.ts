/**
 * Replay on the desktop, where there is no DOM to check: `sightline flow --replay` on a private Xvfb with a real
 * Chromium window (app mode), the fake OpenAI server as the model. The step recorded once is replayed with no model
 * call (the window's title, read from the X server, counts the clicks); on a window whose button moved, the replay
 * with --no-heal clicks nothing and exits 1 naming the region.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RawImage } from '../../src/main/perception/frame.js';
import { decodeImageFile } from '../../src/main/perception/image-encoding.js';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../helpers/fake-openai-server.js';
import { scriptedMoves } from '../helpers/scripted-computer-model.js';
import { createTemporaryHome, type TemporaryHome } from '../helpers/seed.js';
import { boxOfColour, canOpenDesktopTestWindow, openDesktopTestWindow, type Box, type DesktopTestWindow } from '../helpers/desktop-test-window.js';
import { startXvfb, type Xvfb } from '../helpers/xvfb.js';
import { waitFor } from '../helpers/wait-for.js';
import { REPO_ROOT, runSightlineProcess } from './support/sightline-process.js';

const SCREEN = { width: 1280, height: 800 };
const TITLE_PREFIX = 'sightline-desktop-replay';
const SCREEN_POLL = { timeoutMs: 20_000, intervalMs: 200 };

let xvfb: Xvfb;
let testWindow: DesktopTestWindow | undefined;
let folder: string;
let model: FakeOpenAiServer;
let home: TemporaryHome;

beforeAll(async () => {
  if (!canOpenDesktopTestWindow) return;
  xvfb = await startXvfb(SCREEN);
  folder = mkdtempSync(join(tmpdir(), 'sightline-desktop-replay-'));
  model = await startFakeOpenAiServer();
  home = createTemporaryHome('sightline-desktop-replay');
});

afterAll(async () => {
  await testWindow?.close();
  await model?.close();
  await xvfb?.stop();
  home?.remove();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

/** A page whose red button is at `left`, with a label beside it, counting its clicks in the title. */
function buttonPage(left: number): string {
  return `<!doctype html><html><head><title>${TITLE_PREFIX} clicks=0</title><style>
  body { margin: 0; background: #fff; font: 24px sans-serif; }
  button { position: absolute; left: ${left}px; top: 250px; width: 240px; height: 90px; background: #ff0000; border: 0; }
  span { position: absolute; left: ${left - 200}px; top: 280px; }
</style></head><body><span>Pay now</span><button id="press"></button>
<script>let clicks = 0; document.getElementById('press').addEventListener('click', () => { clicks += 1; document.title = '${TITLE_PREFIX} clicks=' + clicks; });</script>
</body></html>`;
}

async function showWindow(left: number): Promise<Box> {
  await testWindow?.close();
  testWindow = openDesktopTestWindow({ xvfb, screen: SCREEN, titlePrefix: TITLE_PREFIX, fieldTop: 0, html: buttonPage(left) });
  await waitFor(() => (testWindow!.title().startsWith(TITLE_PREFIX) ? true : undefined), { description: 'the Chromium window', ...SCREEN_POLL });
  return waitFor(async () => {
    const box = boxOfColour(await captureScreen(), [255, 0, 0]);
    return box !== undefined && box.width > 100 && Math.abs(box.x - left) < 4 ? box : undefined;
  }, { description: 'the red button on the screen', ...SCREEN_POLL });
}

/** Captures the display in a child process (node-screenshots keeps its first X connection) and decodes it. */
async function captureScreen(): Promise<RawImage> {
  const file = join(folder, `screen-${Date.now()}.png`);
  const child = spawnSync(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'test/e2e/support/capture-desktop-frame.ts'), file, '700', '280'], {
    cwd: REPO_ROOT,
    env: xvfb.env,
    encoding: 'utf8',
    timeout: 30_000,
  });
  if (child.status !== 0) throw new Error(`capture failed (${child.status}): ${child.stderr}`);
  return decodeImageFile(file);
}

function runFlow(file: string, extra: readonly string[]) {
  return runSightlineProcess(['--home', home.root, 'flow', file, '--base-url', model.baseUrl, ...extra], { DISPLAY: xvfb.display });
}

describe.skipIf(!canOpenDesktopTestWindow)('replay on the desktop under Xvfb', () => {
  it('replays the recorded click with no model call, and refuses a moved button with --no-heal', { timeout: 180_000 }, async () => {
    const file = join(folder, 'pay.flow.yaml');
    writeFileSync(file, 'name: Pay\ntarget: { operator: desktop }\nsteps:\n  - do: Press the red button\n');
    const button = await showWindow(600);
    const point = { x: Math.round(button.x + button.width / 2), y: Math.round(button.y + button.height / 2) };
    model.script(scriptedMoves([{ action: { action: 'click', ...point } }, { finish: 'Pressed it.' }]));
    const recorded = await runFlow(file, []);
    expect(recorded.code, recorded.stderr).toBe(0);
    await waitFor(() => (testWindow!.title() === `${TITLE_PREFIX} clicks=1` ? true : undefined), { description: 'the recorded click', ...SCREEN_POLL });

    // The same window, reloaded as it was: the replay clicks without the model.
    await showWindow(600);
    const calls = model.requests.length;
    const replayed = await runFlow(file, ['--replay']);
    expect(replayed.code, replayed.stderr).toBe(0);
    expect(model.requests.length).toBe(calls);
    expect(replayed.stderr).toContain('[replayed, 2 model calls saved]');
    await waitFor(() => (testWindow!.title() === `${TITLE_PREFIX} clicks=1` ? true : undefined), { description: 'the replayed click', ...SCREEN_POLL });

    // The button moved right: nothing is clicked, and the failure names the region.
    await showWindow(800);
    const refused = await runFlow(file, ['--replay', '--no-heal']);
    expect(refused.code, refused.stderr).toBe(1);
    expect(model.requests.length).toBe(calls);
    expect(refused.stderr).toMatch(/diverged before action 1 \(click \(\d+, \d+\)\): .*the region at \d+,\d+ \d+×\d+/);
    expect(testWindow!.title()).toBe(`${TITLE_PREFIX} clicks=0`);
  });
});
