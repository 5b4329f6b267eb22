/**
 * The desktop operator's logic with a fake display and a recording input driver: which screen points it
 * sends input to (offset and HiDPI included), that a refused action sends nothing, and that the app's own
 * window is hidden around captures and actions, once around a series of captures.
 */
import { describe, expect, it } from 'vitest';
import type { InputDriver } from '../../src/main/operators/action-performer.js';
import { DesktopFrameSource, type MonitorLike } from '../../src/main/operators/desktop-frame-source.js';
import { DesktopOperator } from '../../src/main/operators/desktop-operator.js';
import type { DesktopFocusReader } from '../../src/main/operators/focus/focus-reading.js';
import type { ModelView } from '../../src/shared/model-view.js';
import type { OwnWindowHook } from '../../src/main/operators/operator.js';

/** A Retina monitor of 1440x900 points to the left of the primary one. */
function leftRetinaMonitor(): MonitorLike {
  return {
    id: () => 7,
    name: () => 'left',
    x: () => -1440,
    y: () => 0,
    width: () => 1440,
    height: () => 900,
    scaleFactor: () => 2,
    isPrimary: () => false,
    captureImage: async () => ({ width: 2880, height: 1800, toRaw: async () => Buffer.alloc(2880 * 1800 * 4) }),
  } as unknown as MonitorLike;
}

function recordingInput(log: string[]): InputDriver {
  const pressed = new Set<string>();
  return {
    move: async (to) => void log.push(`move ${to.x},${to.y}`),
    click: async (at, button, count) => void log.push(`click ${button}x${count} ${at.x},${at.y}`),
    drag: async (path) => void log.push(`drag ${path.map((point) => `${point.x},${point.y}`).join(' -> ')}`),
    scroll: async (at, notches) => void log.push(`scroll ${notches.x},${notches.y} at ${at.x},${at.y}`),
    cannotType: (text) => (text.includes('é') ? 'cannot type "é"' : undefined),
    type: async (text) => void log.push(`type ${text}`),
    pressChord: async (chord) => void log.push(`chord ${chord.map((key) => key.nut).join('+')}`),
    pressButton: async (button) => {
      pressed.add(button);
      log.push(`press ${button}`);
    },
    releaseButton: async (button) => {
      pressed.delete(button);
      log.push(`release ${button}`);
    },
    isPressed: (button) => pressed.has(button),
    releaseHeldButtons: async () => {
      for (const button of [...pressed]) {
        pressed.delete(button);
        log.push(`release ${button}`);
      }
    },
    holdChord: async (chord, during) => {
      log.push(`hold ${chord.map((key) => key.nut).join('+')}`);
      try {
        return await during();
      } finally {
        log.push(`let go ${chord.map((key) => key.nut).join('+')}`);
      }
    },
  };
}

function setUp(ownWindow?: OwnWindowHook) {
  const log: string[] = [];
  const slept: number[] = [];
  const operator = new DesktopOperator({
    frameSource: new DesktopFrameSource({ displayId: 7, listMonitors: () => [leftRetinaMonitor()] }),
    input: recordingInput(log),
    sleep: async (milliseconds) => void slept.push(milliseconds),
    ownWindow,
  });
  return { operator, log, slept };
}

// The 2880x1800 frame shown to the model as 1280x800.
const VIEW: ModelView = { frameWidth: 2880, frameHeight: 1800, imageWidth: 1280, imageHeight: 800, coordinateSpace: 'pixels' };

describe('DesktopOperator', () => {
  it('maps model points onto the captured display, left of the primary and HiDPI', async () => {
    const { operator, log } = setUp();
    await operator.capture();
    expect(await operator.execute({ action: 'click', x: 640, y: 400 }, VIEW)).toEqual({ ok: true, detail: 'click at screen (-720, 450)' });
    await operator.execute({ action: 'double_click', x: 0, y: 0 }, VIEW);
    await operator.execute({ action: 'right_click', x: 1279, y: 799 }, VIEW);
    await operator.execute({ action: 'move', x: 320, y: 200 }, VIEW);
    await operator.execute({ action: 'drag', x: 0, y: 0, to_x: 1279, to_y: 799 }, VIEW);
    await operator.execute({ action: 'scroll', x: 640, y: 400, scroll_x: 0, scroll_y: -3 }, VIEW);
    expect(log).toEqual([
      'click leftx1 -720,450',
      'click leftx2 -1440,0',
      'click rightx1 -1,899',
      'move -1080,225',
      'drag -1440,0 -> -1,899',
      'scroll 0,-3 at -720,450',
    ]);
  });

  it('presses the middle button, clicks three times, and drags through every waypoint', async () => {
    const { operator, log } = setUp();
    await operator.capture();
    await operator.execute({ action: 'middle_click', x: 640, y: 400 }, VIEW);
    await operator.execute({ action: 'triple_click', x: 0, y: 0 }, VIEW);
    const dragged = await operator.execute(
      { action: 'drag', x: 0, y: 0, via: [{ x: 640, y: 0 }, { x: 640, y: 400 }], to_x: 1279, to_y: 799 },
      VIEW,
    );
    expect(dragged).toEqual({ ok: true, detail: 'drag from screen (-1440, 0) to (-1, 899)' });
    expect(log).toEqual(['click middlex1 -720,450', 'click leftx3 -1440,0', 'drag -1440,0 -> -720,0 -> -720,450 -> -1,899']);
  });

  it('refuses a drag whose waypoint is off the screenshot, naming the waypoint, and moves nothing', async () => {
    const { operator, log } = setUp();
    await operator.capture();
    const refused = await operator.execute({ action: 'drag', x: 0, y: 0, via: [{ x: 5000, y: 0 }], to_x: 10, to_y: 10 }, VIEW);
    expect(refused).toEqual({ ok: false, error: 'via[0].x=5000 is outside the screenshot (0–1279). Nothing was done.' });
    expect(log).toEqual([]);
  });

  it('holds the modifiers of a click during it, and refuses a modifier that is not one without clicking', async () => {
    const log: string[] = [];
    const input: InputDriver = {
      ...recordingInput(log),
      click: async (at, button, count, held = []) => void log.push(`click ${button}x${count} ${at.x},${at.y} holding ${held.map((key) => key.nut).join('+')}`),
    };
    const operator = new DesktopOperator({ frameSource: new DesktopFrameSource({ displayId: 7, listMonitors: () => [leftRetinaMonitor()] }), input, sleep: async () => {} });
    await operator.capture();
    expect(await operator.execute({ action: 'click', x: 640, y: 400, modifiers: 'shift' }, VIEW)).toEqual({ ok: true, detail: 'click with shift held at screen (-720, 450)' });
    await operator.execute({ action: 'right_click', x: 0, y: 0, modifiers: 'ctrl+shift' }, VIEW);
    expect(await operator.execute({ action: 'click', x: 0, y: 0, modifiers: 'ctrl+a' }, VIEW)).toEqual({
      ok: false,
      error: 'modifiers may hold only ctrl, shift, alt or cmd, not "a". Nothing was done.',
    });
    expect(log).toEqual(['click leftx1 -720,450 holding LeftShift', 'click rightx1 -1440,0 holding LeftControl+LeftShift']);
  });

  it('types text, presses each combination in order, and waits', async () => {
    const { operator, log, slept } = setUp();
    await operator.execute({ action: 'type', text: 'hello' }, VIEW);
    expect(await operator.execute({ action: 'key', keys: 'ctrl+shift+t Return' }, VIEW)).toMatchObject({ ok: true });
    expect(await operator.execute({ action: 'wait', seconds: 1.5 }, VIEW)).toMatchObject({ ok: true });
    expect(await operator.execute({ action: 'screenshot' }, VIEW)).toEqual({ ok: true });
    expect(log).toEqual(['type hello', 'chord LeftControl+LeftShift+T', 'chord Return']);
    expect(slept).toEqual([1500]);
  });

  it('sends no input at all for an action it refuses', async () => {
    const { operator, log } = setUp();
    await operator.capture();
    const refusals = await Promise.all([
      operator.execute({ action: 'click', x: 1280, y: 10 }, VIEW),
      operator.execute({ action: 'drag', x: 10, y: 10, to_x: 10, to_y: 800 }, VIEW),
      operator.execute({ action: 'scroll', x: -1, y: 10, scroll_x: 0, scroll_y: 2 }, VIEW),
      operator.execute({ action: 'scroll', x: 10, y: 10, scroll_x: 0, scroll_y: 0 }, VIEW),
      operator.execute({ action: 'key', keys: 'ctrl+s ctrl+bogus' }, VIEW),
      operator.execute({ action: 'type', text: 'café' }, VIEW),
      operator.execute({ action: 'click', x: 10, y: 10 }, { ...VIEW, frameWidth: 1920, frameHeight: 1080 }),
    ]);
    expect(refusals.map((result) => (result.ok ? 'ok' : result.error))).toEqual([
      'x=1280 is outside the screenshot (0–1279). Nothing was done.',
      'to_y=800 is outside the screenshot (0–799). Nothing was done.',
      'x=-1 is outside the screenshot (0–1279). Nothing was done.',
      'scroll_x and scroll_y are both 0: nothing to scroll. Nothing was done.',
      expect.stringMatching(/^unknown key "bogus" in "ctrl\+bogus"/),
      'cannot type "é". Nothing was done.',
      expect.stringMatching(/^the screen changed since that screenshot/),
    ]);
    expect(log).toEqual([]);
  });

  it('presses the left button alone, moves with it down, and releases it: a drag in steps', async () => {
    const { operator, log } = setUp();
    await operator.capture();
    expect(await operator.execute({ action: 'move', x: 0, y: 0 }, VIEW)).toMatchObject({ ok: true });
    expect(await operator.execute({ action: 'mouse_down' }, VIEW)).toEqual({ ok: true, detail: 'left button down where the pointer is, held until mouse_up' });
    await operator.execute({ action: 'move', x: 640, y: 400 }, VIEW);
    expect(await operator.execute({ action: 'mouse_up', x: 1279, y: 799 }, VIEW)).toEqual({ ok: true, detail: 'left button released at screen (-1, 899)' });
    expect(await operator.execute({ action: 'mouse_down', x: 640, y: 400 }, VIEW)).toEqual({ ok: true, detail: 'left button down at screen (-720, 450), held until mouse_up' });
    expect(log).toEqual(['move -1440,0', 'press left', 'move -720,450', 'move -1,899', 'release left', 'move -720,450', 'press left']);
  });

  it('refuses a second press and a release of a button that is up, and a press off the screen, doing nothing', async () => {
    const { operator, log } = setUp();
    await operator.capture();
    expect(await operator.execute({ action: 'mouse_up' }, VIEW)).toEqual({
      ok: false,
      error: 'the left button is not down, so there is nothing to release; mouse_down presses it. Nothing was done.',
    });
    expect(await operator.execute({ action: 'mouse_down', x: 1280, y: 0 }, VIEW)).toEqual({ ok: false, error: 'x=1280 is outside the screenshot (0–1279). Nothing was done.' });
    await operator.execute({ action: 'mouse_down' }, VIEW);
    expect(await operator.execute({ action: 'mouse_down', x: 5, y: 5 }, VIEW)).toEqual({
      ok: false,
      error: 'the left button is already down (an earlier mouse_down); release it with mouse_up first. Nothing was done.',
    });
    expect(log).toEqual(['press left']);
  });

  it('releases a button left down when asked at the end of a turn, and when it closes, and touches nothing when none is', async () => {
    const { operator, log } = setUp();
    await operator.capture();
    await operator.releaseHeldInput();
    expect(log).toEqual([]);
    await operator.execute({ action: 'mouse_down' }, VIEW);
    await operator.releaseHeldInput();
    await operator.releaseHeldInput();
    await operator.execute({ action: 'mouse_down' }, VIEW);
    await operator.close();
    expect(log).toEqual(['press left', 'release left', 'press left', 'release left']);
  });

  it('holds one combination for the time asked, then releases it', async () => {
    const { operator, log, slept } = setUp();
    expect(await operator.execute({ action: 'hold_key', keys: 'ctrl+shift', seconds: 2.5 }, VIEW)).toEqual({ ok: true, detail: 'held ctrl+shift for 2.5 s, then released' });
    expect(await operator.execute({ action: 'hold_key', keys: 'shift a', seconds: 1 }, VIEW)).toEqual({
      ok: false,
      error: 'hold_key holds one combination, such as shift or ctrl+a, not "shift a". Nothing was done.',
    });
    expect(await operator.execute({ action: 'hold_key', keys: 'Hyper', seconds: 1 }, VIEW)).toMatchObject({ ok: false, error: expect.stringMatching(/^unknown key "Hyper"/) });
    expect(log).toEqual(['hold LeftControl+LeftShift', 'let go LeftControl+LeftShift']);
    expect(slept).toEqual([2500]);
  });

  it('lets go of held keys, and ends a wait, as soon as the turn is stopped', async () => {
    const log: string[] = [];
    // The real sleep: the stop must cut it short.
    const operator = new DesktopOperator({ frameSource: new DesktopFrameSource({ displayId: 7, listMonitors: () => [leftRetinaMonitor()] }), input: recordingInput(log) });
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 100);
    const started = Date.now();
    const held = await operator.execute({ action: 'hold_key', keys: 'shift', seconds: 10 }, VIEW, stop.signal);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(held).toMatchObject({ ok: true, detail: expect.stringMatching(/^held shift for 0\.\d s of 10 s, released early: the turn was stopped$/) });
    expect(log).toEqual(['hold LeftShift', 'let go LeftShift']);
    const waited = await operator.execute({ action: 'wait', seconds: 60 }, VIEW, stop.signal);
    expect(waited).toEqual({ ok: true, detail: 'waited 0 s of 60 s: the turn was stopped' });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('holds modifier keys during a scroll', async () => {
    const log: string[] = [];
    const input: InputDriver = {
      ...recordingInput(log),
      scroll: async (at, notches, held = []) => void log.push(`scroll ${notches.x},${notches.y} at ${at.x},${at.y} holding ${held.map((key) => key.nut).join('+')}`),
    };
    const operator = new DesktopOperator({ frameSource: new DesktopFrameSource({ displayId: 7, listMonitors: () => [leftRetinaMonitor()] }), input, sleep: async () => {} });
    await operator.capture();
    expect(await operator.execute({ action: 'scroll', x: 640, y: 400, scroll_x: 0, scroll_y: 2, modifiers: 'ctrl' }, VIEW)).toEqual({
      ok: true,
      detail: 'scroll with ctrl held (0, 2) at screen (-720, 450)',
    });
    expect(await operator.execute({ action: 'scroll', x: 640, y: 400, scroll_x: 0, scroll_y: 2, modifiers: 'ctrl+w' }, VIEW)).toEqual({
      ok: false,
      error: 'modifiers may hold only ctrl, shift, alt or cmd, not "w". Nothing was done.',
    });
    expect(log).toEqual(['scroll 0,2 at -720,450 holding LeftControl']);
  });

  it('reads the screen geometry from a capture when asked to act before any', async () => {
    const { operator, log } = setUp();
    await operator.execute({ action: 'click', x: 640, y: 400 }, VIEW);
    expect(log).toEqual(['click leftx1 -720,450']);
  });

  it('describes the display it acts on', () => {
    const { operator } = setUp();
    expect(operator.describe()).toEqual({
      kind: 'desktop',
      target: 'display 7 (left, 1440x900 @2x)',
      displayId: 7,
      url: null,
      screen: { width: 1440, height: 900 },
      scaleFactor: 2,
    });
  });

  it('hides the app window around captures and input, not around waits', async () => {
    const events: string[] = [];
    const hook: OwnWindowHook = { hide: async () => void events.push('hide'), show: async () => void events.push('show') };
    const { operator } = setUp(hook);
    await operator.capture();
    events.push('captured');
    await operator.execute({ action: 'click', x: 1, y: 1 }, VIEW);
    events.push('clicked');
    await operator.execute({ action: 'wait', seconds: 0 }, VIEW);
    expect(events).toEqual(['hide', 'show', 'captured', 'hide', 'show', 'clicked']);
  });

  it('hides the app window once around a series of captures (a settle watch), and shows it even when the series fails', async () => {
    const events: string[] = [];
    const hook: OwnWindowHook = { hide: async () => void events.push('hide'), show: async () => void events.push('show') };
    const { operator } = setUp(hook);
    const frames = await operator.aroundCaptures(async () => {
      const captured = [await operator.capture(), await operator.capture(), await operator.capture()];
      events.push(`captured ${captured.length}`);
      return captured;
    });
    expect(frames.map((frame) => frame.width)).toEqual([2880, 2880, 2880]);
    expect(events).toEqual(['hide', 'captured 3', 'show']);
    // Outside the series each capture hides the window again; a failing series still shows it.
    await expect(operator.aroundCaptures(() => Promise.reject(new Error('capture failed')))).rejects.toThrow('capture failed');
    await operator.capture();
    expect(events).toEqual(['hide', 'captured 3', 'show', 'hide', 'show', 'hide', 'show']);
  });
});

describe.skipIf(process.platform !== 'linux')('NutJsInput without a display', () => {
  it('fails with a clear error instead of loading libnut, which would crash the process', async () => {
    const { NutJsInput } = await import('../../src/main/operators/nut-js-input.js');
    const { DisplayUnavailableError } = await import('../../src/main/operators/display-errors.js');
    const previous = process.env.DISPLAY;
    delete process.env.DISPLAY;
    try {
      await expect(new NutJsInput().type('x')).rejects.toThrow(DisplayUnavailableError);
      await expect(new NutJsInput().click({ x: 1, y: 1 }, 'left', 1)).rejects.toThrow(/DISPLAY is not set/);
    } finally {
      if (previous !== undefined) process.env.DISPLAY = previous;
    }
  });
});

describe('DesktopOperator and the focus', () => {
  it('answers what the OS focus reader answers, and stops the reader when it closes, even if releasing input fails', async () => {
    const closed: string[] = [];
    const reader: DesktopFocusReader = {
      focusedField: async () => ({ fieldKind: 'password', application: { name: 'Chromium', isTerminal: false } }),
      availability: async () => ({ available: true, detail: 'fake' }),
      close: async () => void closed.push('reader'),
    };
    const input = recordingInput([]);
    const operator = new DesktopOperator({
      frameSource: new DesktopFrameSource({ displayId: 7, listMonitors: () => [leftRetinaMonitor()] }),
      input: { ...input, releaseHeldButtons: async () => Promise.reject(new Error('the X server is gone')) },
      focusReader: reader,
    });
    expect(await operator.focus()).toEqual({ fieldKind: 'password', application: { name: 'Chromium', isTerminal: false } });
    expect(await operator.focusedFieldKind()).toBe('password');
    await expect(operator.close()).rejects.toThrow('the X server is gone');
    expect(closed).toEqual(['reader']);
  });
});
