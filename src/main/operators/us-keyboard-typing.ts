/**
 * Text as key strokes on a US keyboard, for typing through nut-js on Linux. libnut's own `type` there
 * presses the base key without Shift for most shifted symbols (`!` arrives as `1`, `:` as `;`, `~` as `` ` ``;
 * checked against xev under Xvfb), which would silently corrupt URLs, paths and passwords, and it sends
 * nothing at all for characters outside the keymap (`é`, `€`). So the operator types each character as its
 * own key, with Shift when the US layout needs it, and refuses text it cannot type rather than type
 * something else.
 */
import type { NutKeyName } from './key-combination.js';

export interface KeyStroke {
  key: NutKeyName;
  shift: boolean;
}

export type TypingPlan = { ok: true; strokes: KeyStroke[] } | { ok: false; error: string };

const UNSHIFTED_SYMBOLS: Record<string, NutKeyName> = {
  ' ': 'Space',
  '\n': 'Return',
  '\t': 'Tab',
  '`': 'Grave',
  '-': 'Minus',
  '=': 'Equal',
  '[': 'LeftBracket',
  ']': 'RightBracket',
  '\\': 'Backslash',
  ';': 'Semicolon',
  "'": 'Quote',
  ',': 'Comma',
  '.': 'Period',
  '/': 'Slash',
};

const SHIFTED_SYMBOLS: Record<string, NutKeyName> = {
  '~': 'Grave',
  '!': 'Num1',
  '@': 'Num2',
  '#': 'Num3',
  $: 'Num4',
  '%': 'Num5',
  '^': 'Num6',
  '&': 'Num7',
  '*': 'Num8',
  '(': 'Num9',
  ')': 'Num0',
  _: 'Minus',
  '+': 'Equal',
  '{': 'LeftBracket',
  '}': 'RightBracket',
  '|': 'Backslash',
  ':': 'Semicolon',
  '"': 'Quote',
  '<': 'Comma',
  '>': 'Period',
  '?': 'Slash',
};

export function planUsKeyboardTyping(text: string): TypingPlan {
  const strokes: KeyStroke[] = [];
  // Windows line ends type one Return, not two.
  for (const character of text.replace(/\r\n?/g, '\n')) {
    const stroke = strokeFor(character);
    if (!stroke) {
      const code = character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
      return {
        ok: false,
        error:
          `cannot type "${character}" (U+${code}) on this desktop: only the characters of a US keyboard can be typed ` +
          `here (letters, digits, punctuation, space, tab, newline)`,
      };
    }
    strokes.push(stroke);
  }
  return { ok: true, strokes };
}

function strokeFor(character: string): KeyStroke | undefined {
  if (/^[a-z]$/.test(character)) return { key: character.toUpperCase() as NutKeyName, shift: false };
  if (/^[A-Z]$/.test(character)) return { key: character as NutKeyName, shift: true };
  if (/^[0-9]$/.test(character)) return { key: `Num${character}` as NutKeyName, shift: false };
  const unshifted = UNSHIFTED_SYMBOLS[character];
  if (unshifted) return { key: unshifted, shift: false };
  const shifted = SHIFTED_SYMBOLS[character];
  if (shifted) return { key: shifted, shift: true };
  return undefined;
}
