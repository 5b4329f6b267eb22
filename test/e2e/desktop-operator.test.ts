/**
 * The desktop operator on a private Xvfb: a real Chromium window (app mode, no window manager) shows a page
 * with a red button and a blue text field whose state is mirrored in the window's title. The operator
 * captures the display, the test finds the button and the field in the frame by colour, names them in the
 * coordinates of the downscaled image a model would see, and the operator clicks and types through nut-js.
 * The X server's own record of the window title (xdotool getwindowname) shows what happened.
 *
 * node-screenshots and nut-js each open their X connection at their first call and keep it for the life of
 * the process, so DISPLAY is set before either is first used; this file runs in its own forked process.
 */
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DesktopOperator } from '../../src/main/operators/desktop-operator.js';
import type { ModelView } from '../../src/shared/model-view.js';
import { encodeForModel } from '../../src/main/perception/image-encoding.js';
import { boxOfColour, canOpenDesktopTestWindow, openDesktopTestWindow, type DesktopTestWindow } from '../helpers/desktop-test-window.js';
import { startXvfb, type Xvfb } from '../helpers/xvfb.js';

const SCREEN = { width: 1280, height: 800 };
const TITLE_PREFIX = 'sightline-desktop';

let xvfb: Xvfb;
let testWindow: DesktopTestWindow | undefined;
let operator: DesktopOperator;

beforeAll(async () => {
  if (!canOpenDesktopTestWindow) return;
  xvfb = await startXvfb(SCREEN);
  process.env.DISPLAY = xvfb.display;
  testWindow = openDesktopTestWindow({ xvfb, screen: SCREEN, titlePrefix: TITLE_PREFIX, fieldTop: 400 });
  operator = new DesktopOperator();
});

afterAll(async () => {
  await testWindow?.close();
  await operator?.close();
  await xvfb?.stop();
});

function windowTitle(): string {
  return testWindow?.title() ?? '';
}

async function titleBecomes(expected: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (windowTitle() !== expected && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  expect(windowTitle()).toBe(expected);
}

function mouseLocation(): string {
  return spawnSync('xdotool', ['getmouselocation'], { env: xvfb.env, encoding: 'utf8' }).stdout.trim();
}

describe.skipIf(!canOpenDesktopTestWindow)('desktop operator under Xvfb', () => {
  let view: ModelView;
  /** The centre of a box in the frame, named in the model's image. */
  let inModelImage: (box: { x: number; y: number; width: number; height: number }) => { x: number; y: number };
  let button: { x: number; y: number; width: number; height: number };
  let field: { x: number; y: number; width: number; height: number };

  beforeAll(async () => {
    // Wait for the window to be drawn: the red button and the blue field appear in a capture.
    const deadline = Date.now() + 20_000;
    for (;;) {
      const frame = await operator.capture();
      const red = boxOfColour(frame, [255, 0, 0]);
      const blue = boxOfColour(frame, [0, 0, 255]);
      if (red && blue) {
        button = red;
        field = blue;
        // The model is shown the 1280x800 frame as 960x600 (longest edge 960): a 4/3 downscale.
        const image = await encodeForModel(frame, 960);
        view = { frameWidth: frame.width, frameHeight: frame.height, imageWidth: image.width, imageHeight: image.height, coordinateSpace: 'pixels' };
        inModelImage = (box) => ({
          x: Math.round(((box.x + box.width / 2) * image.width) / frame.width),
          y: Math.round(((box.y + box.height / 2) * image.height) / frame.height),
        });
        break;
      }
      if (Date.now() > deadline) throw new Error('the Chromium window did not appear on the virtual display');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });

  it('describes the display it acts on', () => {
    expect(operator.describe()).toMatchObject({ kind: 'desktop', url: null, screen: SCREEN, scaleFactor: 1 });
    expect(view).toMatchObject({ frameWidth: 1280, frameHeight: 800, imageWidth: 960, imageHeight: 600 });
    expect(button).toMatchObject({ width: 240, height: 90 });
  });

  it('clicks a real button and types into a real field', async () => {
    await titleBecomes(`${TITLE_PREFIX} clicks=0 name=`);
    expect(await operator.execute({ action: 'click', ...inModelImage(button) }, view)).toMatchObject({ ok: true });
    await titleBecomes(`${TITLE_PREFIX} clicks=1 name=`);

    expect(await operator.execute({ action: 'click', ...inModelImage(field) }, view)).toMatchObject({ ok: true });
    expect(await operator.execute({ action: 'type', text: 'hello' }, view)).toMatchObject({ ok: true });
    await titleBecomes(`${TITLE_PREFIX} clicks=1 name=hello`);
  });

  it('presses key combinations', async () => {
    expect(await operator.execute({ action: 'key', keys: 'ctrl+a BackSpace' }, view)).toMatchObject({ ok: true });
    await titleBecomes(`${TITLE_PREFIX} clicks=1 name=`);
    expect(await operator.execute({ action: 'type', text: 'hi' }, view)).toMatchObject({ ok: true });
    await titleBecomes(`${TITLE_PREFIX} clicks=1 name=hi`);
  });

  it('types shifted symbols as themselves, and refuses what a US keyboard cannot type', async () => {
    expect(await operator.execute({ action: 'type', text: ' A:b_c?~"x"' }, view)).toMatchObject({ ok: true });
    await titleBecomes(`${TITLE_PREFIX} clicks=1 name=hi A:b_c?~"x"`);
    const refused = await operator.execute({ action: 'type', text: 'café' }, view);
    expect(refused).toMatchObject({ ok: false, error: expect.stringContaining('cannot type "é"') });
    // Nothing of it was typed: the field still holds what it held.
    await titleBecomes(`${TITLE_PREFIX} clicks=1 name=hi A:b_c?~"x"`);
  });

  it('refuses a click outside the screenshot, and neither clicks nor moves the pointer', async () => {
    const before = mouseLocation();
    const result = await operator.execute({ action: 'click', x: view.imageWidth + 40, y: inModelImage(button).y }, view);
    expect(result).toEqual({ ok: false, error: `x=${view.imageWidth + 40} is outside the screenshot (0–${view.imageWidth - 1}). Nothing was done.` });
    const drag = await operator.execute({ action: 'drag', ...inModelImage(button), to_x: 10, to_y: -5 }, view);
    expect(drag).toEqual({ ok: false, error: 'to_y=-5 is outside the screenshot (0–599). Nothing was done.' });
    expect(mouseLocation()).toBe(before);
    // A click that lands still counts: the title would have shown a stray one before this one.
    expect(await operator.execute({ action: 'click', ...inModelImage(button) }, view)).toMatchObject({ ok: true });
    await titleBecomes(`${TITLE_PREFIX} clicks=2 name=hi A:b_c?~"x"`);
  });

  it('holds shift during a click: a shift-click selects from the caret, so typing replaces the text', async () => {
    // Caret at the end of the text (the field's right end), then shift-click before its first letter.
    const end = inModelImage({ x: field.x + field.width - 24, y: field.y, width: 4, height: field.height });
    const start = inModelImage({ x: field.x, y: field.y, width: 4, height: field.height });
    expect(await operator.execute({ action: 'click', ...end }, view)).toMatchObject({ ok: true });
    expect(await operator.execute({ action: 'click', ...start, modifiers: 'shift' }, view)).toMatchObject({ ok: true });
    expect(await operator.execute({ action: 'type', text: 'z' }, view)).toMatchObject({ ok: true });
    // Without shift held, the second click would only move the caret, and the title would read "zhi A:…".
    await titleBecomes(`${TITLE_PREFIX} clicks=2 name=z`);
  });

  it('presses and releases the button in separate actions: a click, and a drag that selects the text', async () => {
    expect(await operator.execute({ action: 'mouse_down', ...inModelImage(button) }, view)).toMatchObject({ ok: true });
    expect(await operator.execute({ action: 'mouse_up' }, view)).toMatchObject({ ok: true });
    await titleBecomes(`${TITLE_PREFIX} clicks=3 name=z`);

    const end = inModelImage({ x: field.x + field.width - 24, y: field.y, width: 4, height: field.height });
    const start = inModelImage({ x: field.x, y: field.y, width: 4, height: field.height });
    expect(await operator.execute({ action: 'click', ...end }, view)).toMatchObject({ ok: true });
    expect(await operator.execute({ action: 'type', text: 'abc' }, view)).toMatchObject({ ok: true });
    await titleBecomes(`${TITLE_PREFIX} clicks=3 name=zabc`);
    expect(await operator.execute({ action: 'mouse_down', ...end }, view)).toMatchObject({ ok: true });
    expect(await operator.execute({ action: 'move', ...start }, view)).toMatchObject({ ok: true });
    expect(await operator.execute({ action: 'mouse_up', ...start }, view)).toMatchObject({ ok: true });
    expect(await operator.execute({ action: 'type', text: 'q' }, view)).toMatchObject({ ok: true });
    // Had the button not stayed down during the move, the text would not be selected: "zabcq".
    await titleBecomes(`${TITLE_PREFIX} clicks=3 name=q`);
  });

  it('releases a button left down when the turn ends: the press and the release make a click', async () => {
    expect(await operator.execute({ action: 'mouse_down', ...inModelImage(button) }, view)).toMatchObject({ ok: true });
    await operator.releaseHeldInput();
    await titleBecomes(`${TITLE_PREFIX} clicks=4 name=q`);
    // Nothing is left down any more: a release now is refused.
    expect(await operator.execute({ action: 'mouse_up' }, view)).toMatchObject({ ok: false });
  });
});
