/**
 * Keeps the app's own window out of what the agent sees and clicks on the desktop: hidden for each capture
 * and action, shown again afterwards without taking the keyboard focus (showInactive), or keys typed next
 * would land in the app. Content protection (window.ts) already keeps it out of screenshots on macOS and
 * Windows; hiding covers Linux, where there is no content protection, and stray clicks everywhere.
 */
import type { BrowserWindow } from 'electron';
import type { OwnWindowHook } from '../operators/operator.js';

/** Time for the window manager to unmap the window before the screenshot is taken. */
export const HIDE_SETTLE_MS = 120;

export function ownWindowHook(currentWindow: () => BrowserWindow | null, settleMs = HIDE_SETTLE_MS): OwnWindowHook {
  let hidden: BrowserWindow | null = null;
  return {
    async hide() {
      const window = currentWindow();
      if (window === null || window.isDestroyed() || !window.isVisible()) return;
      window.hide();
      hidden = window;
      if (settleMs > 0) await new Promise((resolve) => setTimeout(resolve, settleMs));
    },
    async show() {
      const window = hidden;
      hidden = null;
      if (window !== null && !window.isDestroyed()) window.showInactive();
    },
  };
}

/** Several windows kept out of the agent's way as one: all hidden before, all shown again after (in reverse). */
export function ownWindowsHook(hooks: readonly OwnWindowHook[]): OwnWindowHook {
  return {
    async hide() {
      for (const hook of hooks) await hook.hide();
    },
    async show() {
      for (const hook of [...hooks].reverse()) await hook.show();
    },
  };
}
