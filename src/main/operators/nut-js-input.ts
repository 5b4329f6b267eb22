/**
 * The desktop's input driver: nut-js (libnut: XTest on Linux, CGEvent on macOS, SendInput on Windows).
 *
 * nut-js is loaded on first use, never on import: on Linux libnut opens its X connection at its first call
 * and keeps it for the life of the process (DISPLAY is read then; changing it later has no effect), and a
 * process without a display (`sightline --help`, the MCP server on a headless box) must not need one.
 */
import type * as NutJs from '@nut-tree-fork/nut-js';
import type { InputDriver, MouseButton } from './action-performer.js';
import type { Point } from './coordinates.js';
import { DisplayUnavailableError } from './display-errors.js';
import type { KeyChord, NutKeyName } from './key-combination.js';
import { planUsKeyboardTyping } from './us-keyboard-typing.js';

/**
 * Pointer speed in pixels per second. nut-js moves through every pixel of a straight line (so hover and
 * drag handlers see real motion) and waits between them; at this speed crossing a 1920-pixel screen takes
 * about 0.1 s.
 */
const MOUSE_SPEED = 20_000;
/** Pause before each click or scroll, so the application has handled the move that preceded it. */
const MOUSE_DELAY_MS = 20;
/** Pause before each typed character or key press; some applications drop keys that come faster. */
const KEYBOARD_DELAY_MS = 8;

let loading: Promise<typeof NutJs> | undefined;

/**
 * nut-js, configured for quick, repeatable actions; loaded once per process. On Linux libnut kills the
 * process (a segmentation fault, no exception) when it cannot open the X display, so it is not even loaded
 * without DISPLAY; DesktopOperator also captures through node-screenshots, which fails cleanly, before the
 * first action, so a DISPLAY naming a dead server is caught there.
 */
function loadNutJs(): Promise<typeof NutJs> {
  if (process.platform === 'linux' && !process.env.DISPLAY) {
    return Promise.reject(new DisplayUnavailableError('DISPLAY is not set, so there is no X display to send input to'));
  }
  loading ??= import('@nut-tree-fork/nut-js').then((nut) => {
    nut.mouse.config.mouseSpeed = MOUSE_SPEED;
    nut.mouse.config.autoDelayMs = MOUSE_DELAY_MS;
    nut.keyboard.config.autoDelayMs = KEYBOARD_DELAY_MS;
    return nut;
  });
  return loading;
}

export class NutJsInput implements InputDriver {
  /** Buttons a mouse_down left down, to refuse a second press and to release them when the turn ends. */
  private readonly pressed = new Set<MouseButton>();

  async move(to: Point): Promise<void> {
    const nut = await loadNutJs();
    await nut.mouse.move(nut.straightTo(new nut.Point(to.x, to.y)));
  }

  async click(at: Point, button: MouseButton, count: 1 | 2 | 3, held: KeyChord = []): Promise<void> {
    const nut = await loadNutJs();
    await this.move(at);
    await this.withKeysDown(
      held.map((key) => key.nut),
      () => this.clickHere(nut, button, count),
    );
  }

  private async clickHere(nut: typeof NutJs, button: MouseButton, count: 1 | 2 | 3): Promise<void> {
    const nutButton = nutButtonOf(nut, button);
    if (count === 1) await nut.mouse.click(nutButton);
    else if (count === 2) await nut.mouse.doubleClick(nutButton);
    else {
      // libnut has no triple click: three presses and releases, each mouse.config.autoDelayMs apart, well
      // within the double-click interval that applications count a third click in.
      for (let click = 0; click < count; click += 1) {
        await nut.mouse.pressButton(nutButton);
        await nut.mouse.releaseButton(nutButton);
      }
    }
  }

  async drag(path: readonly Point[]): Promise<void> {
    const nut = await loadNutJs();
    const [start, ...rest] = path;
    if (start === undefined) return;
    await this.move(start);
    await nut.mouse.pressButton(nut.Button.LEFT);
    try {
      for (const point of rest) await this.move(point);
    } finally {
      await nut.mouse.releaseButton(nut.Button.LEFT);
    }
  }

  async scroll(at: Point, notches: Point, held: KeyChord = []): Promise<void> {
    const nut = await loadNutJs();
    await this.move(at);
    await this.withKeysDown(
      held.map((key) => key.nut),
      async () => {
        if (notches.y > 0) await nut.mouse.scrollDown(notches.y);
        if (notches.y < 0) await nut.mouse.scrollUp(-notches.y);
        if (notches.x > 0) await nut.mouse.scrollRight(notches.x);
        if (notches.x < 0) await nut.mouse.scrollLeft(-notches.x);
      },
    );
  }

  async pressButton(button: MouseButton): Promise<void> {
    const nut = await loadNutJs();
    await nut.mouse.pressButton(nutButtonOf(nut, button));
    this.pressed.add(button);
  }

  async releaseButton(button: MouseButton): Promise<void> {
    const nut = await loadNutJs();
    // Forgotten first: a release that fails (the display went away) must not be retried at every turn's end.
    this.pressed.delete(button);
    await nut.mouse.releaseButton(nutButtonOf(nut, button));
  }

  isPressed(button: MouseButton): boolean {
    return this.pressed.has(button);
  }

  async releaseHeldButtons(): Promise<void> {
    for (const button of [...this.pressed]) await this.releaseButton(button);
  }

  /** On Linux only what a US keyboard has (see us-keyboard-typing.ts); libnut types Unicode elsewhere. */
  cannotType(text: string): string | undefined {
    if (process.platform !== 'linux') return undefined;
    const plan = planUsKeyboardTyping(text);
    return plan.ok ? undefined : plan.error;
  }

  async type(text: string): Promise<void> {
    const nut = await loadNutJs();
    if (process.platform !== 'linux') {
      await nut.keyboard.type(text);
      return;
    }
    const plan = planUsKeyboardTyping(text);
    if (!plan.ok) throw new Error(plan.error);
    for (const stroke of plan.strokes) await this.pressKeys(stroke.shift ? ['LeftShift', stroke.key] : [stroke.key]);
  }

  async pressChord(chord: KeyChord): Promise<void> {
    await this.pressKeys(chord.map((key) => key.nut));
  }

  holdChord<T>(chord: KeyChord, during: () => Promise<T>): Promise<T> {
    return this.withKeysDown(
      chord.map((key) => key.nut),
      during,
    );
  }

  /** Presses the keys in order and releases them in reverse. */
  private async pressKeys(keys: NutKeyName[]): Promise<void> {
    await this.withKeysDown(keys, async () => {});
  }

  /** Presses the keys in order, runs `during`, and releases every key that went down, in reverse. */
  private async withKeysDown<T>(keys: readonly NutKeyName[], during: () => Promise<T>): Promise<T> {
    const nut = await loadNutJs();
    const pressed: NutJs.Key[] = [];
    try {
      for (const key of keys) {
        const nutKey = nut.Key[key];
        await nut.keyboard.pressKey(nutKey);
        pressed.push(nutKey);
      }
      return await during();
    } finally {
      // Reverse order, and every key that went down, so no modifier stays stuck after a failure.
      for (const nutKey of pressed.reverse()) await nut.keyboard.releaseKey(nutKey);
    }
  }
}

function nutButtonOf(nut: typeof NutJs, button: MouseButton): NutJs.Button {
  return button === 'left' ? nut.Button.LEFT : button === 'right' ? nut.Button.RIGHT : nut.Button.MIDDLE;
}
