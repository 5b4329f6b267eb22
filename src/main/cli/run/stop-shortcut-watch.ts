/**
 * The emergency stop in `sightline run` with the desktop operator: the same global shortcut as the app
 * (agent.stopShortcut; Ctrl+Alt+Esc, or Cmd+Shift+Esc on macOS) stops the run as a first Ctrl+C does,
 * while the agent has the mouse and the terminal has lost the focus. It is heard through a global input
 * hook (operators/global-key-hook.ts), started for desktop runs only and stopped when the run ends. When
 * the hook cannot start (no display, no Accessibility permission on macOS) the run goes on, with a
 * one-line notice: Ctrl+C still works.
 *
 * Keys the agent presses through nut-js reach the hook like the person's; the desktop operator refuses to
 * press this combination (operators/stop-combination-guard.ts), so any press the hook hears is the person's.
 */
import { describeStopShortcut, stopShortcutInEffect, type Platform, type StopShortcut } from '../../../shared/stop-shortcut.js';
import type { GlobalKeyDown, GlobalKeyHookLoader } from '../../operators/global-key-hook.js';

export interface StopShortcutWatchOptions {
  shortcut: StopShortcut;
  /** How the shortcut is shown (Ctrl+Alt+Esc). */
  label: string;
  loadHook: GlobalKeyHookLoader;
  /** What the shortcut does: the first Ctrl+C's stop (interrupts.ts). */
  onStop: () => void;
  notice: (line: string) => void;
}

/** Accelerator key names whose uiohook name differs; letters, digits, F-keys and most others are spelled alike. */
const UIOHOOK_KEY_NAMES: Readonly<Record<string, string>> = {
  Up: 'ArrowUp',
  Down: 'ArrowDown',
  Left: 'ArrowLeft',
  Right: 'ArrowRight',
  Capslock: 'CapsLock',
  Numlock: 'NumLock',
  Scrolllock: 'ScrollLock',
  ';': 'Semicolon',
  '=': 'Equal',
  ',': 'Comma',
  '-': 'Minus',
  '.': 'Period',
  '/': 'Slash',
  '`': 'Backquote',
  '[': 'BracketLeft',
  '\\': 'Backslash',
  ']': 'BracketRight',
  "'": 'Quote',
};

/**
 * Starts watching; resolves with the function that stops it, or with undefined when the hook could not start
 * (said through `notice`).
 */
export async function watchStopShortcut(options: StopShortcutWatchOptions): Promise<(() => void) | undefined> {
  const { shortcut, label, notice } = options;
  const unavailable = (reason: string): undefined => {
    notice(`sightline: the stop shortcut ${label} is not available (${reason}); Ctrl+C still stops the run`);
    return undefined;
  };
  let hook;
  try {
    hook = await options.loadHook();
  } catch (error) {
    return unavailable(error instanceof Error ? error.message : String(error));
  }
  const keycode = hook.keycodes[UIOHOOK_KEY_NAMES[shortcut.key] ?? shortcut.key];
  if (keycode === undefined) return unavailable(`the input hook cannot tell the ${shortcut.key} key; choose another agent.stopShortcut`);
  hook.onKeyDown((event) => {
    if (event.keycode === keycode && holdsExactly(event, shortcut)) options.onStop();
  });
  try {
    hook.start();
  } catch (error) {
    hook.stop();
    return unavailable(error instanceof Error ? error.message : String(error));
  }
  return () => hook.stop();
}

/** The shortcut's modifiers and no others, as Electron's globalShortcut matches them. */
function holdsExactly(event: GlobalKeyDown, shortcut: StopShortcut): boolean {
  return (
    event.ctrlKey === shortcut.modifiers.has('control') &&
    event.altKey === shortcut.modifiers.has('alt') &&
    event.shiftKey === shortcut.modifiers.has('shift') &&
    event.metaKey === shortcut.modifiers.has('super')
  );
}

/**
 * Starts the watch for a desktop run, when the CLI has a global hook to offer; resolves with the function
 * that stops it. The shortcut was checked when the configuration was loaded.
 */
export async function watchDesktopStopShortcut(options: {
  loadHook: GlobalKeyHookLoader | undefined;
  configured: string | undefined;
  platform: Platform;
  onStop: () => void;
  notice: (line: string) => void;
}): Promise<() => void> {
  if (options.loadHook === undefined) return () => undefined;
  const parsed = stopShortcutInEffect(options.configured, options.platform);
  if (!parsed.ok) {
    options.notice(`sightline: ${parsed.error}; only Ctrl+C stops the run`);
    return () => undefined;
  }
  const label = describeStopShortcut(parsed.shortcut, options.platform);
  const stop = await watchStopShortcut({ shortcut: parsed.shortcut, label, loadHook: options.loadHook, onStop: options.onStop, notice: options.notice });
  if (stop === undefined) return () => undefined;
  options.notice(`stop at any time with ${label} (or Ctrl+C here)`);
  return stop;
}
