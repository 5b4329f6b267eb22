/**
 * The `keys` of a `key` action: one or more combinations separated by spaces, keys within a combination
 * joined by `+` (`ctrl+s`, `alt+F4`, `Return`, `ctrl+shift+t`, `cmd+q`, `ctrl+a BackSpace`). Names are
 * matched without regard to case and accept the spellings models use: xdotool keysyms (`Return`,
 * `Page_Down`, `BackSpace`, `super`), DOM key names (`Enter`, `ArrowLeft`, `Meta`) and plain characters.
 *
 * Each key maps to a nut-js `Key` (by name: this module must not load nut-js, which needs a display) and to
 * a Playwright key name. The operators press a combination's keys in the order written and release them
 * in reverse, so `ctrl+shift+t` is Ctrl down, Shift down, T down, T up, Shift up, Ctrl up.
 */
import type { Key } from '@nut-tree-fork/nut-js';
import { PUNCTUATION_KEY_NAMES } from '../../shared/key-names.js';

export type NutKeyName = keyof typeof Key;

export interface KeySpec {
  /** The name as the model wrote it, for messages. */
  written: string;
  nut: NutKeyName;
  playwright: string;
}

/** One combination: its keys in the order they are pressed. */
export type KeyChord = KeySpec[];

export type KeyCombinationParse = { ok: true; chords: KeyChord[] } | { ok: false; error: string };

type KeyTarget = Pick<KeySpec, 'nut' | 'playwright'>;

// cmd, super, meta and win are one key: Command on macOS, the Windows key, Super on Linux. nut-js's
// LeftSuper is libnut's "meta", which every platform knows (Super_L under X11, checked with xev); its
// LeftCmd is unknown to libnut on Linux.
// The tables are Maps, not objects: a name the model wrote (`constructor`, `__proto__`) must never find
// Object.prototype's members.
const MODIFIERS: ReadonlyMap<string, KeyTarget> = tableOf({
  ctrl: { nut: 'LeftControl', playwright: 'Control' },
  control: { nut: 'LeftControl', playwright: 'Control' },
  shift: { nut: 'LeftShift', playwright: 'Shift' },
  alt: { nut: 'LeftAlt', playwright: 'Alt' },
  option: { nut: 'LeftAlt', playwright: 'Alt' },
  cmd: { nut: 'LeftSuper', playwright: 'Meta' },
  command: { nut: 'LeftSuper', playwright: 'Meta' },
  super: { nut: 'LeftSuper', playwright: 'Meta' },
  meta: { nut: 'LeftSuper', playwright: 'Meta' },
  win: { nut: 'LeftSuper', playwright: 'Meta' },
});

const NAMED_KEYS: ReadonlyMap<string, KeyTarget> = tableOf({
  return: { nut: 'Return', playwright: 'Enter' },
  enter: { nut: 'Return', playwright: 'Enter' },
  kp_enter: { nut: 'Enter', playwright: 'NumpadEnter' },
  tab: { nut: 'Tab', playwright: 'Tab' },
  escape: { nut: 'Escape', playwright: 'Escape' },
  esc: { nut: 'Escape', playwright: 'Escape' },
  backspace: { nut: 'Backspace', playwright: 'Backspace' },
  back_space: { nut: 'Backspace', playwright: 'Backspace' },
  delete: { nut: 'Delete', playwright: 'Delete' },
  del: { nut: 'Delete', playwright: 'Delete' },
  insert: { nut: 'Insert', playwright: 'Insert' },
  home: { nut: 'Home', playwright: 'Home' },
  end: { nut: 'End', playwright: 'End' },
  pageup: { nut: 'PageUp', playwright: 'PageUp' },
  page_up: { nut: 'PageUp', playwright: 'PageUp' },
  prior: { nut: 'PageUp', playwright: 'PageUp' },
  pagedown: { nut: 'PageDown', playwright: 'PageDown' },
  page_down: { nut: 'PageDown', playwright: 'PageDown' },
  next: { nut: 'PageDown', playwright: 'PageDown' },
  up: { nut: 'Up', playwright: 'ArrowUp' },
  arrowup: { nut: 'Up', playwright: 'ArrowUp' },
  down: { nut: 'Down', playwright: 'ArrowDown' },
  arrowdown: { nut: 'Down', playwright: 'ArrowDown' },
  left: { nut: 'Left', playwright: 'ArrowLeft' },
  arrowleft: { nut: 'Left', playwright: 'ArrowLeft' },
  right: { nut: 'Right', playwright: 'ArrowRight' },
  arrowright: { nut: 'Right', playwright: 'ArrowRight' },
  space: { nut: 'Space', playwright: 'Space' },
  capslock: { nut: 'CapsLock', playwright: 'CapsLock' },
  caps_lock: { nut: 'CapsLock', playwright: 'CapsLock' },
  numlock: { nut: 'NumLock', playwright: 'NumLock' },
  num_lock: { nut: 'NumLock', playwright: 'NumLock' },
  scrolllock: { nut: 'ScrollLock', playwright: 'ScrollLock' },
  scroll_lock: { nut: 'ScrollLock', playwright: 'ScrollLock' },
  print: { nut: 'Print', playwright: 'PrintScreen' },
  printscreen: { nut: 'Print', playwright: 'PrintScreen' },
  // Punctuation by keysym name (xdotool) as well as by character (below, shared/key-names.ts).
  minus: { nut: 'Minus', playwright: '-' },
  equal: { nut: 'Equal', playwright: '=' },
  plus: { nut: 'Add', playwright: '+' },
  comma: { nut: 'Comma', playwright: ',' },
  period: { nut: 'Period', playwright: '.' },
  slash: { nut: 'Slash', playwright: '/' },
  backslash: { nut: 'Backslash', playwright: '\\' },
  semicolon: { nut: 'Semicolon', playwright: ';' },
  apostrophe: { nut: 'Quote', playwright: "'" },
  grave: { nut: 'Grave', playwright: '`' },
  bracketleft: { nut: 'LeftBracket', playwright: '[' },
  bracketright: { nut: 'RightBracket', playwright: ']' },
});

// `+` is Shift+= on a US layout; nut-js has no such key, so it presses the keypad's plus, which
// applications treat the same (ctrl++ zooms in).
const CHARACTER_KEYS: ReadonlyMap<string, KeyTarget> = new Map(
  [...PUNCTUATION_KEY_NAMES].map(([character, name]) => [character, NAMED_KEYS.get(name)!]),
);

function tableOf(entries: Record<string, KeyTarget>): ReadonlyMap<string, KeyTarget> {
  return new Map(Object.entries(entries));
}

const KNOWN_NAMES_HINT =
  'known keys: ctrl, shift, alt, cmd (super/meta/win), Return, Tab, Escape, BackSpace, Delete, Home, End, ' +
  'Page_Up, Page_Down, Up, Down, Left, Right, space, F1–F12, a–z, 0–9 and punctuation';

/** Parses a `keys` string into combinations, or names the first key it does not know. */
export function parseKeyCombinations(text: string): KeyCombinationParse {
  const combinations = text.trim().split(/\s+/).filter((part) => part.length > 0);
  if (combinations.length === 0) return { ok: false, error: 'keys is empty: name a key such as Return or ctrl+s' };
  const chords: KeyChord[] = [];
  for (const combination of combinations) {
    const names = splitCombination(combination);
    const chord: KeyChord = [];
    for (const name of names) {
      if (name === '') return { ok: false, error: `"${combination}" has an empty key name around a "+"` };
      const target = lookUpKey(name);
      if (!target) return { ok: false, error: `unknown key "${name}" in "${combination}" (${KNOWN_NAMES_HINT})` };
      chord.push({ written: name, ...target });
    }
    chords.push(chord);
  }
  return { ok: true, chords };
}

/** `ctrl+s` → [ctrl, s]; a `+` key is written last and doubled (`ctrl++`) or alone (`+`). */
function splitCombination(combination: string): string[] {
  if (combination === '+') return ['+'];
  if (combination.endsWith('++')) return [...combination.slice(0, -2).split('+'), '+'];
  return combination.split('+');
}

function lookUpKey(name: string): KeyTarget | undefined {
  const lower = name.toLowerCase();
  const known = MODIFIERS.get(lower) ?? NAMED_KEYS.get(lower) ?? CHARACTER_KEYS.get(name);
  if (known) return known;
  if (/^[a-z]$/.test(lower)) return { nut: lower.toUpperCase() as NutKeyName, playwright: lower };
  if (/^[0-9]$/.test(name)) return { nut: `Num${name}` as NutKeyName, playwright: name };
  // F1–F12 only: a key missing from the X keymap (F13–F24 under Xvfb and many layouts) makes libnut's
  // X error handler end the whole process.
  const functionKey = /^f([1-9]|1[0-2])$/.exec(lower);
  if (functionKey) return { nut: `F${functionKey[1]}` as NutKeyName, playwright: `F${functionKey[1]}` };
  return undefined;
}

/** The nut-js names of the modifier keys (every spelling in MODIFIERS comes to one of these). */
const MODIFIER_KEYS: ReadonlySet<NutKeyName> = new Set([...MODIFIERS.values()].map((target) => target.nut));

export type HeldModifiersParse = { ok: true; chord: KeyChord } | { ok: false; error: string };

/** The `modifiers` of a click (`shift`, `ctrl+shift`): one combination of modifier keys only. */
export function parseHeldModifiers(text: string): HeldModifiersParse {
  const parse = parseKeyCombinations(text);
  if (!parse.ok) return { ok: false, error: `modifiers: ${parse.error}` };
  const [chord, ...more] = parse.chords;
  if (chord === undefined || more.length > 0) return { ok: false, error: `modifiers "${text}" must be one combination such as shift or ctrl+shift` };
  const other = chord.find((key) => !MODIFIER_KEYS.has(key.nut));
  if (other !== undefined) return { ok: false, error: `modifiers may hold only ctrl, shift, alt or cmd, not "${other.written}"` };
  return { ok: true, chord };
}
