/**
 * `sightline run --operator desktop` end to end on a private Xvfb: a real Chromium window (app mode, no
 * window manager) shows a red button and a blue text field whose state is mirrored in the window's title.
 * A scripted model, driving the real agent in a real `sightline` process, clicks the button, clicks the
 * field and types into it; the X server's own record of the window title (xdotool getwindowname) shows it.
 *
 * The scripted model cannot see, so the test looks first: it captures the display once (in a child
 * process, as node-screenshots needs) and finds the button and the field by colour. The model's
 * screenshots are 1280x800 like the display (gpt-4.1's profile and the default maxImageEdge keep them
 * whole), so those points are the model's coordinates too.
 *
 * Without a display it can reach, the same command exits 2 with the display's own message, before any
 * model call (that needs no Xvfb, only Linux, where DISPLAY names the X server).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RawImage } from '../../src/main/perception/frame.js';
import { decodeImageFile } from '../../src/main/perception/image-encoding.js';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../helpers/fake-openai-server.js';
import { scriptedMoves, type RequestSummary } from '../helpers/scripted-computer-model.js';
import { createTemporaryHome, openHomeStorage, type TemporaryHome } from '../helpers/seed.js';
import { boxOfColour, canOpenDesktopTestWindow, openDesktopTestWindow, type Box, type DesktopTestWindow } from '../helpers/desktop-test-window.js';
import { startXvfb, unusedDisplay, type Xvfb } from '../helpers/xvfb.js';
import { waitFor } from '../helpers/wait-for.js';
import { REPO_ROOT, runSightlineProcess } from './support/sightline-process.js';

const SCREEN = { width: 1280, height: 800 };
const TITLE_PREFIX = 'sightline-run-desktop';
const TYPED = 'hello sightline';

let xvfb: Xvfb;
let testWindow: DesktopTestWindow | undefined;
let folder: string;
let model: FakeOpenAiServer;
let home: TemporaryHome;

beforeAll(async () => {
  if (!canOpenDesktopTestWindow) return;
  xvfb = await startXvfb(SCREEN);
  folder = mkdtempSync(join(tmpdir(), 'sightline-run-desktop-'));
  testWindow = openDesktopTestWindow({ xvfb, screen: SCREEN, titlePrefix: TITLE_PREFIX, fieldTop: 420 });
  model = await startFakeOpenAiServer();
  home = createTemporaryHome('sightline-run-desktop');
});

afterAll(async () => {
  await testWindow?.close();
  await model?.close();
  await xvfb?.stop();
  home?.remove();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

function center(box: Box): { x: number; y: number } {
  return { x: Math.round(box.x + box.width / 2), y: Math.round(box.y + box.height / 2) };
}

function windowTitle(): string {
  return testWindow?.title() ?? '';
}

/** The window and the screen of another process: only polling can see them. */
const SCREEN_POLL = { timeoutMs: 20_000, intervalMs: 200 };

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

describe.skipIf(!canOpenDesktopTestWindow)('sightline run --operator desktop under Xvfb', () => {
  it('clicks a real button and types into a real field of a real window', { timeout: 90_000 }, async () => {
    await waitFor(() => (windowTitle().startsWith(TITLE_PREFIX) ? true : undefined), { description: 'the Chromium window', ...SCREEN_POLL });
    const [button, field] = await waitFor(async () => {
      const screen = await captureScreen();
      const found = [boxOfColour(screen, [255, 0, 0]), boxOfColour(screen, [0, 0, 255])];
      return found.every((box) => box !== undefined && box.width > 100) ? (found as [Box, Box]) : undefined;
    }, { description: 'the button and the field on the screen', ...SCREEN_POLL });

    const requests: RequestSummary[] = [];
    model.script(
      scriptedMoves(
        [
          { action: { action: 'click', ...center(button) }, thought: 'The red button.' },
          { action: { action: 'click', ...center(field) }, thought: 'Into the blue field.' },
          { action: { action: 'type', text: TYPED } },
          { finish: 'Pressed the button and typed the text.' },
        ],
        (summary) => requests.push(summary),
      ),
    );
    const result = await runSightlineProcess(
      ['--home', home.root, 'run', 'Press the red button, then type "hello sightline" into the blue field', '--operator', 'desktop', '--base-url', model.baseUrl],
      { DISPLAY: xvfb.display },
    );

    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/desktop operator on display/);
    expect(requests).toHaveLength(4);
    expect(requests.every((request) => request.images > 0)).toBe(true);
    await waitFor(() => (windowTitle() === `${TITLE_PREFIX} clicks=1 name=${TYPED}` ? true : undefined), { description: 'the title to show the click and the text', ...SCREEN_POLL });

    const storage = openHomeStorage(home);
    try {
      const [session] = storage.sessions.list();
      expect(storage.turns.listBySession(session!.id).map((turn) => turn.status)).toEqual(['finished']);
      expect(storage.images.listBySession(session!.id).every((image) => image.source === 'screen')).toBe(true);
    } finally {
      storage.close();
    }
  });
});

describe.skipIf(process.platform !== 'linux')('sightline run --operator desktop without a display', () => {
  it('exits 2 with the display message, not "unexpected error", and calls no model', { timeout: 60_000 }, async () => {
    const unusedModel = await startFakeOpenAiServer();
    const scratch = createTemporaryHome('sightline-run-desktop-no-display');
    try {
      // The key is there so that the display is the only thing missing.
      const result = await runSightlineProcess(
        ['--home', scratch.root, 'run', 'Press the red button', '--operator', 'desktop', '--base-url', unusedModel.baseUrl],
        { DISPLAY: unusedDisplay(), OPENAI_API_KEY: 'sk-test-no-display' },
      );
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain('no display to capture');
      expect(result.stderr).not.toContain('unexpected error');
      expect(unusedModel.requests).toHaveLength(0);
    } finally {
      await unusedModel.close();
      scratch.remove();
    }
  });
});
