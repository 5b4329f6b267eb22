import { describe, expect, it } from 'vitest';
import { parseHeldModifiers, parseKeyCombinations, type KeyCombinationParse } from '../../src/main/operators/key-combination.js';

function nutKeys(parse: KeyCombinationParse): string[][] {
  if (!parse.ok) throw new Error(parse.error);
  return parse.chords.map((chord) => chord.map((key) => key.nut));
}

function playwrightKeys(parse: KeyCombinationParse): string[][] {
  if (!parse.ok) throw new Error(parse.error);
  return parse.chords.map((chord) => chord.map((key) => key.playwright));
}

describe('parseKeyCombinations', () => {
  it('parses a modifier and a letter', () => {
    expect(nutKeys(parseKeyCombinations('ctrl+s'))).toEqual([['LeftControl', 'S']]);
    expect(playwrightKeys(parseKeyCombinations('ctrl+s'))).toEqual([['Control', 's']]);
  });

  it('parses function keys, named keys and several modifiers in the order written', () => {
    expect(nutKeys(parseKeyCombinations('alt+F4'))).toEqual([['LeftAlt', 'F4']]);
    expect(nutKeys(parseKeyCombinations('Return'))).toEqual([['Return']]);
    expect(playwrightKeys(parseKeyCombinations('Return'))).toEqual([['Enter']]);
    expect(nutKeys(parseKeyCombinations('ctrl+shift+t'))).toEqual([['LeftControl', 'LeftShift', 'T']]);
    expect(playwrightKeys(parseKeyCombinations('ctrl+shift+t'))).toEqual([['Control', 'Shift', 't']]);
    expect(playwrightKeys(parseKeyCombinations('f12'))).toEqual([['F12']]);
  });

  it('treats cmd, super, meta and win as one key', () => {
    for (const name of ['cmd', 'super', 'meta', 'win', 'Command']) {
      expect(nutKeys(parseKeyCombinations(`${name}+q`))).toEqual([['LeftSuper', 'Q']]);
      expect(playwrightKeys(parseKeyCombinations(`${name}+q`))).toEqual([['Meta', 'q']]);
    }
  });

  it('runs several combinations separated by spaces, in order', () => {
    expect(nutKeys(parseKeyCombinations('ctrl+a  BackSpace Tab'))).toEqual([['LeftControl', 'A'], ['Backspace'], ['Tab']]);
  });

  it('accepts xdotool, DOM and character spellings regardless of case', () => {
    expect(nutKeys(parseKeyCombinations('Page_Down pagedown Next'))).toEqual([['PageDown'], ['PageDown'], ['PageDown']]);
    expect(playwrightKeys(parseKeyCombinations('ArrowLeft Left'))).toEqual([['ArrowLeft'], ['ArrowLeft']]);
    expect(nutKeys(parseKeyCombinations('CTRL+S'))).toEqual([['LeftControl', 'S']]);
    expect(nutKeys(parseKeyCombinations('ctrl+1 ctrl+- ctrl+minus'))).toEqual([['LeftControl', 'Num1'], ['LeftControl', 'Minus'], ['LeftControl', 'Minus']]);
  });

  it('reads a plus key written doubled or alone', () => {
    expect(playwrightKeys(parseKeyCombinations('ctrl++'))).toEqual([['Control', '+']]);
    expect(nutKeys(parseKeyCombinations('+'))).toEqual([['Add']]);
  });

  it('names an unknown key in its error', () => {
    const result = parseKeyCombinations('ctrl+s ctrl+frobnicate');
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toMatch(/^unknown key "frobnicate" in "ctrl\+frobnicate" \(known keys: /);
    // F13 and up are missing from most X keymaps, where pressing one would end the process.
    expect(parseKeyCombinations('F13')).toMatchObject({ ok: false, error: expect.stringContaining('unknown key "F13"') });
  });

  it("refuses the names of Object.prototype's members as unknown keys", () => {
    // The key tables are looked up by the model's words: `constructor` must not find the object's own.
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']) {
      expect(parseKeyCombinations(name)).toEqual({ ok: false, error: expect.stringMatching(new RegExp(`^unknown key "${name}" in "${name}" \\(known keys: `)) });
      expect(parseKeyCombinations(`ctrl+${name}`)).toMatchObject({ ok: false, error: expect.stringContaining(`unknown key "${name}"`) });
    }
    expect(parseHeldModifiers('constructor')).toMatchObject({ ok: false, error: expect.stringContaining('unknown key "constructor"') });
  });

  it('refuses empty key names and empty input', () => {
    expect(parseKeyCombinations('ctrl+')).toMatchObject({ ok: false, error: expect.stringContaining('empty key name') });
    expect(parseKeyCombinations('  ')).toMatchObject({ ok: false, error: expect.stringContaining('keys is empty') });
  });
});

describe('nut-js key names', () => {
  it('are all members of nut-js Key', async () => {
    // The enum lives in nut-js's shared package, which loads no native code.
    const { Key } = await import('@nut-tree-fork/shared');
    const everyKey =
      'ctrl control shift alt option cmd command super meta win Return enter KP_Enter Tab Escape esc BackSpace Delete del Insert ' +
      'Home End Page_Up Prior Page_Down Next Up ArrowUp Down Left Right space CapsLock NumLock ScrollLock Print minus equal ' +
      'plus comma period slash backslash semicolon apostrophe grave bracketleft bracketright - = + , . / \\ ; \' ` [ ] ' +
      'a b c d e f g h i j k l m n o p q r s t u v w x y z 0 1 2 3 4 5 6 7 8 9 F1 F9 F10 F12';
    const parse = parseKeyCombinations(everyKey);
    for (const name of nutKeys(parse).flat()) expect(Object.keys(Key), name).toContain(name);
  });
});

describe('parseHeldModifiers', () => {
  it('reads one combination of modifiers, in any spelling', () => {
    const held = parseHeldModifiers('ctrl+Shift');
    expect(held.ok && held.chord.map((key) => key.nut)).toEqual(['LeftControl', 'LeftShift']);
    const command = parseHeldModifiers('super');
    expect(command.ok && command.chord.map((key) => key.playwright)).toEqual(['Meta']);
  });

  it('refuses other keys, several combinations and unknown names', () => {
    expect(parseHeldModifiers('ctrl+a')).toEqual({ ok: false, error: 'modifiers may hold only ctrl, shift, alt or cmd, not "a"' });
    expect(parseHeldModifiers('shift ctrl')).toEqual({ ok: false, error: 'modifiers "shift ctrl" must be one combination such as shift or ctrl+shift' });
    expect(parseHeldModifiers('hyper')).toMatchObject({ ok: false, error: expect.stringContaining('unknown key "hyper"') });
  });
});
