/**
 * The text a `key` action types. A model that may not `type` a secret can spell it key by key
 * (`key "s 3 c r e t"`), so the safety policy judges what a key sequence types exactly like a `type` action
 * with the same text. Only combinations that type characters count: printable keys, with or without Shift.
 * A combination with Ctrl, Alt or Cmd is a command, and named keys (Return, Tab, arrows) type nothing here
 * (Return is judged as the Enter it is).
 *
 * A combination of several printable keys types each of them: the operators press its keys in order and
 * release them in reverse, and every key that goes down types its character. OpenAI's `keypress` and
 * Qwen's `key` name their keys as one list (`["h", "u", "n"]`), which becomes one combination (`h+u+n`).
 */
import { parseKeyCombinations, type KeyChord } from '../operators/key-combination.js';

const SHIFT_KEYS = new Set(['LeftShift', 'RightShift']);
const COMMAND_KEYS = new Set(['LeftControl', 'RightControl', 'LeftAlt', 'RightAlt', 'LeftCmd', 'RightCmd', 'LeftSuper', 'RightSuper']);

/** The characters a `keys` string types, in order; '' when it types none (or does not parse). */
export function spelledText(keys: string): string {
  const parse = parseKeyCombinations(keys);
  if (!parse.ok) return '';
  return parse.chords.map(characterOfChord).join('');
}

/**
 * The characters one combination types, in the order its keys go down. Shift turns letters upper case;
 * other shifted characters are taken as written (which character Shift gives depends on the layout, and
 * the check only needs to know that something was typed, and roughly what).
 */
function characterOfChord(chord: KeyChord): string {
  if (chord.some((key) => COMMAND_KEYS.has(key.nut))) return '';
  const shifted = chord.some((key) => SHIFT_KEYS.has(key.nut));
  const characters = chord.filter((key) => !SHIFT_KEYS.has(key.nut)).map(characterOfKey).join('');
  return shifted ? characters.toUpperCase() : characters;
}

function characterOfKey(key: KeyChord[number]): string {
  if (key.nut === 'Space') return ' ';
  return key.playwright.length === 1 ? key.playwright : '';
}
