/**
 * The emergency stop's key combination, written as an Electron accelerator (`Control+Alt+Escape`,
 * `CommandOrControl+Shift+F12`). It is read from config.json (`agent.stopShortcut`) and used by two
 * watchers that must agree on it: Electron's globalShortcut in the app and the global input hook of the CLI.
 * So the text is parsed here once, with Electron's grammar, into modifiers and one key, and a text Electron
 * would reject is refused by the configuration schema instead of failing silently at registration.
 */

/** Node's process.platform values (shared code is typed without Node's types, for the renderer). */
export type Platform = 'aix' | 'android' | 'darwin' | 'freebsd' | 'haiku' | 'linux' | 'openbsd' | 'sunos' | 'win32' | 'cygwin' | 'netbsd';

export const STOP_MODIFIERS = ['control', 'alt', 'shift', 'super'] as const;
export type StopModifier = (typeof STOP_MODIFIERS)[number];

export interface StopShortcut {
  /** The accelerator as Electron's globalShortcut.register takes it. */
  accelerator: string;
  modifiers: ReadonlySet<StopModifier>;
  /** The one key that is not a modifier, in its canonical spelling (`Escape`, `F12`, `A`, `Up`). */
  key: string;
}

export type StopShortcutParse = { ok: true; shortcut: StopShortcut } | { ok: false; error: string };

/** Ctrl+Alt+Esc on Windows and Linux, Cmd+Shift+Esc on macOS, where Ctrl+Alt+Esc is not a habit. */
export function defaultStopAccelerator(platform: Platform): string {
  return platform === 'darwin' ? 'Command+Shift+Escape' : 'Control+Alt+Escape';
}

/** The shortcut in effect: the configured one, else the platform's default, parsed. */
export function stopShortcutInEffect(configured: string | undefined, platform: Platform): StopShortcutParse {
  return parseStopShortcut(configured ?? defaultStopAccelerator(platform), platform);
}

/** Electron's modifier names (any case) and what each means on this platform. */
function modifierOf(name: string, platform: Platform): StopModifier | undefined {
  switch (name.toLowerCase()) {
    case 'control':
    case 'ctrl':
      return 'control';
    case 'alt':
    case 'option':
      return 'alt';
    case 'shift':
      return 'shift';
    case 'command':
    case 'cmd':
    case 'super':
    case 'meta':
      return 'super';
    case 'commandorcontrol':
    case 'cmdorctrl':
      return platform === 'darwin' ? 'super' : 'control';
    default:
      return undefined;
  }
}

const NAMED_KEYS: Readonly<Record<string, string>> = {
  escape: 'Escape',
  esc: 'Escape',
  space: 'Space',
  tab: 'Tab',
  backspace: 'Backspace',
  delete: 'Delete',
  insert: 'Insert',
  return: 'Enter',
  enter: 'Enter',
  up: 'Up',
  down: 'Down',
  left: 'Left',
  right: 'Right',
  home: 'Home',
  end: 'End',
  pageup: 'PageUp',
  pagedown: 'PageDown',
  printscreen: 'PrintScreen',
  plus: 'Plus',
  capslock: 'Capslock',
  numlock: 'Numlock',
  scrolllock: 'Scrolllock',
};

/** Punctuation Electron accepts as a key, as written. */
const PUNCTUATION_KEYS = new Set([')', '!', '@', '#', '$', '%', '^', '&', '*', '(', ':', ';', '<', '=', '>', '?', ',', '-', '_', '.', '/', '~', '`', '{', ']', '[', '|', '\\', '}', '"', "'"]);

function keyOf(name: string): string | undefined {
  if (/^[a-z0-9]$/i.test(name)) return name.toUpperCase();
  if (/^f([1-9]|1[0-9]|2[0-4])$/i.test(name)) return name.toUpperCase();
  if (PUNCTUATION_KEYS.has(name)) return name;
  // Own entries only: `constructor` must not find Object.prototype's.
  const lower = name.toLowerCase();
  return Object.hasOwn(NAMED_KEYS, lower) ? NAMED_KEYS[lower] : undefined;
}

/**
 * Parses an accelerator. A global shortcut needs at least one modifier other than Shift: a bare key (or
 * Shift with one) would be taken from every other application for as long as Sightline runs.
 */
export function parseStopShortcut(text: string, platform: Platform): StopShortcutParse {
  const parts = text.split('+').map((part) => part.trim());
  // "Control+Plus" is written with the word; a trailing "+" leaves an empty part.
  if (parts.some((part) => part === '')) return failure(text, 'a part between "+" signs is empty (write Plus for the + key)');
  const modifiers = new Set<StopModifier>();
  let key: string | undefined;
  for (const part of parts) {
    const modifier = modifierOf(part, platform);
    if (modifier !== undefined) {
      modifiers.add(modifier);
      continue;
    }
    const named = keyOf(part);
    if (named === undefined) return failure(text, `"${part}" is not a key or modifier Electron knows`);
    if (key !== undefined) return failure(text, `it names two keys (${key} and ${named}); a shortcut has one key and its modifiers`);
    key = named;
  }
  if (key === undefined) return failure(text, 'it names only modifiers; add one key, such as Escape');
  if (![...modifiers].some((modifier) => modifier !== 'shift')) {
    return failure(text, 'a global shortcut needs Control, Alt or Command (Super), or it would take the key from every other application');
  }
  return { ok: true, shortcut: { accelerator: parts.join('+'), modifiers, key } };
}

/** The check config.json's field runs: the platform does not change whether the text is valid. */
export function stopShortcutError(text: string): string | undefined {
  const parsed = parseStopShortcut(text, 'linux');
  return parsed.ok ? undefined : parsed.error;
}

/** How the shortcut is shown to a person: `Ctrl+Alt+Esc`, `Cmd+Shift+Esc`. */
export function describeStopShortcut(shortcut: StopShortcut, platform: Platform): string {
  const names: Record<StopModifier, string> = { control: 'Ctrl', alt: platform === 'darwin' ? 'Option' : 'Alt', shift: 'Shift', super: platform === 'darwin' ? 'Cmd' : 'Super' };
  // Each platform's own order: Cmd+Shift+Esc on macOS, Ctrl+Alt+Esc elsewhere.
  const order: readonly StopModifier[] = platform === 'darwin' ? ['super', 'control', 'alt', 'shift'] : STOP_MODIFIERS;
  const held = order.filter((modifier) => shortcut.modifiers.has(modifier)).map((modifier) => names[modifier]);
  return [...held, shortcut.key === 'Escape' ? 'Esc' : shortcut.key].join('+');
}

function failure(text: string, reason: string): StopShortcutParse {
  return { ok: false, error: `"${text}" is not a usable stop shortcut: ${reason}. Write it as Electron accelerators are written, e.g. Control+Alt+Escape` };
}
