/**
 * The text a `key` action types. A model that may not `type` a secret can spell it key by key
 * (`key "s 3 c r e t"`), so the safety policy judges what a key sequence types exactly like a `type` action
 * with the same text. Only combinations that type a character count: a printable key alone or with Shift.
 * A combination with Ctrl, Alt or Cmd is a command, and named keys (Return, Tab, arrows) type nothing here
 * (Return is judged as the Enter it is).
 */
import { parseKeyCombinations, type KeyChord } from '../operators/key-combination.js';

const SHIFT_KEYS = new Set(['LeftShift', 'RightShift']);

/** The characters a `keys` string types, in order; '' when it types none (or does not parse). */
export function spelledText(keys: string): string {
  const parse = parseKeyCombinations(keys);
  if (!parse.ok) return '';
  return parse.chords.map(characterOfChord).join('');
}

/**
 * The character one combination types. Shift turns a letter upper case; other shifted characters are
 * taken as written (which character Shift gives depends on the layout, and the check only needs to know
 * that something was typed, and roughly what).
 */
function characterOfChord(chord: KeyChord): string {
  const shifted = chord.some((key) => SHIFT_KEYS.has(key.nut));
  const others = chord.filter((key) => !SHIFT_KEYS.has(key.nut));
  if (others.length !== 1) return '';
  const [key] = others as [KeyChord[number]];
  const character = key.nut === 'Space' ? ' ' : key.playwright.length === 1 ? key.playwright : '';
  return shifted ? character.toUpperCase() : character;
}
