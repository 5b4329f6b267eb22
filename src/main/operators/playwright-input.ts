/**
 * A browser page's input driver: Playwright's mouse and keyboard, which dispatch real input events through
 * the DevTools protocol (trusted events, as a person's would be), in the viewport's CSS pixels.
 */
import type { Page } from 'playwright-core';
import type { InputDriver, MouseButton } from './action-performer.js';
import type { Point } from './coordinates.js';
import type { KeyChord } from './key-combination.js';

/** Wheel distance of one notch, in CSS pixels: what Chrome scrolls for one notch of a mouse wheel. */
export const PIXELS_PER_SCROLL_NOTCH = 100;
/** Intermediate mouse moves, so that hover and drag handlers see motion rather than a jump. */
const MOVE_STEPS = 5;
/**
 * On the way to a click, two moves: hover handlers see the pointer arrive (pointerenter) and move over the target
 * before the press, in two round trips instead of five, and the press is not preceded by a third move to the same
 * point (Playwright's `mouse.click` moves again first).
 */
const CLICK_MOVE_STEPS = 2;
const DRAG_STEPS = 10;

export class PlaywrightInput implements InputDriver {
  /** Buttons a mouse_down left down, to refuse a second press and to release them when the turn ends. */
  private readonly pressed = new Set<MouseButton>();

  /** Where the last move left the pointer (Playwright does not say): where a mouse_up without a point lets go. */
  private lastPointer: Point | undefined;

  /** The page is read on every call: the operator follows popups and new tabs. */
  constructor(private readonly currentPage: () => Page) {}

  get pointer(): Point | undefined {
    return this.lastPointer;
  }

  async move(to: Point): Promise<void> {
    this.lastPointer = to;
    await this.currentPage().mouse.move(to.x, to.y, { steps: MOVE_STEPS });
  }

  async approach(to: Point): Promise<void> {
    this.lastPointer = to;
    await this.currentPage().mouse.move(to.x, to.y, { steps: CLICK_MOVE_STEPS });
  }

  async click(at: Point, button: MouseButton, count: 1 | 2 | 3, held: KeyChord = []): Promise<void> {
    const mouse = this.currentPage().mouse;
    // After approach (the check at the press), the pointer is already there: a third move would be noise.
    if (this.lastPointer?.x !== at.x || this.lastPointer?.y !== at.y) await this.approach(at);
    // What Playwright's mouse.click does after its move: a press and a release per click, each counting up.
    await this.withKeysDown(held, async () => {
      for (let clickCount = 1; clickCount <= count; clickCount++) {
        await mouse.down({ button, clickCount });
        await mouse.up({ button, clickCount });
      }
    });
  }

  async drag(path: readonly Point[]): Promise<void> {
    const mouse = this.currentPage().mouse;
    const [start, ...rest] = path;
    if (start === undefined) return;
    await this.move(start);
    await mouse.down();
    try {
      for (const point of rest) {
        this.lastPointer = point;
        await mouse.move(point.x, point.y, { steps: DRAG_STEPS });
      }
    } finally {
      await mouse.up();
    }
  }

  async scroll(at: Point, notches: Point, held: KeyChord = []): Promise<void> {
    const mouse = this.currentPage().mouse;
    await this.move(at);
    // Playwright sends the modifiers that are down with the wheel event (a ctrl-wheel zooms, a shift-wheel scrolls sideways).
    await this.withKeysDown(held, () => mouse.wheel(notches.x * PIXELS_PER_SCROLL_NOTCH, notches.y * PIXELS_PER_SCROLL_NOTCH));
  }

  async pressButton(button: MouseButton): Promise<void> {
    await this.currentPage().mouse.down({ button });
    this.pressed.add(button);
  }

  async releaseButton(button: MouseButton): Promise<void> {
    // Forgotten first: a page that has gone away cannot take the release, and must not make it be retried forever.
    this.pressed.delete(button);
    await this.currentPage().mouse.up({ button });
  }

  isPressed(button: MouseButton): boolean {
    return this.pressed.has(button);
  }

  async releaseHeldButtons(): Promise<void> {
    for (const button of [...this.pressed]) await this.releaseButton(button);
  }

  /** Playwright inserts any Unicode text. */
  cannotType(): string | undefined {
    return undefined;
  }

  async type(text: string): Promise<void> {
    await this.currentPage().keyboard.type(text);
  }

  async pressChord(chord: KeyChord): Promise<void> {
    await this.withKeysDown(chord, async () => {});
  }

  holdChord<T>(chord: KeyChord, during: () => Promise<T>): Promise<T> {
    return this.withKeysDown(chord, during);
  }

  /** Presses the keys in order, runs `during`, and releases every key that went down, in reverse. */
  private async withKeysDown<T>(chord: KeyChord, during: () => Promise<T>): Promise<T> {
    const keyboard = this.currentPage().keyboard;
    const pressed: string[] = [];
    try {
      for (const key of chord) {
        await keyboard.down(key.playwright);
        pressed.push(key.playwright);
      }
      return await during();
    } finally {
      for (const key of pressed.reverse()) await keyboard.up(key);
    }
  }
}
