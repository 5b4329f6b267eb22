/**
 * The names of the punctuation keys, by the character each types on a US layout: xdotool's keysym names,
 * which models write in a key action (`key "minus"`, `hotkey(key='period')`). One table for the operators,
 * which press these keys (src/main/operators/key-combination.ts), and for the redactor, which must know a
 * configured secret spelled key by key (secret-redaction.ts).
 */
// A Map, not an object: a character looked up must never find Object.prototype's members.
export const PUNCTUATION_KEY_NAMES: ReadonlyMap<string, string> = new Map(
  Object.entries({
    '-': 'minus',
    '=': 'equal',
    '+': 'plus',
    ',': 'comma',
    '.': 'period',
    '/': 'slash',
    '\\': 'backslash',
    ';': 'semicolon',
    "'": 'apostrophe',
    '`': 'grave',
    '[': 'bracketleft',
    ']': 'bracketright',
  }),
);
