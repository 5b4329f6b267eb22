/**
 * The pyautogui key table UI-TARS and Qwen share (src/shared/pyautogui-keys.ts): every name either dialect's
 * own table read before the table was shared is read by both dialects, and presses the key it pressed then.
 */
import { describe, expect, it } from 'vitest';
import { translateQwenAction } from '../../src/main/agent/tools/qwen-computer-use-translation.js';
import { readHotkey } from '../../src/main/llm/dialects/ui-tars/ui-tars-keys.js';
import { parseKeyCombinations, type NutKeyName } from '../../src/main/operators/key-combination.js';
import { keyNameFromPyautogui } from '../../src/shared/pyautogui-keys.js';

/** Each name UI-TARS's table or Qwen's table held, by the nut-js key it pressed. */
const NAMES_BY_KEY: [NutKeyName, string[]][] = [
  ['LeftControl', ['ctrl', 'control', 'ctrlleft', 'ctrlright']],
  ['LeftShift', ['shift', 'shiftleft', 'shiftright']],
  ['LeftAlt', ['alt', 'option', 'altleft', 'altright']],
  ['LeftSuper', ['cmd', 'command', 'win', 'windows', 'super', 'meta', 'winleft', 'winright']],
  ['Return', ['enter', 'return']],
  ['Tab', ['tab']],
  ['Escape', ['esc', 'escape']],
  ['Backspace', ['backspace']],
  ['Delete', ['delete', 'del']],
  ['Insert', ['insert']],
  ['Home', ['home']],
  ['End', ['end']],
  ['PageUp', ['pageup', 'page_up', 'pgup']],
  ['PageDown', ['pagedown', 'page_down', 'pgdn']],
  ['Up', ['up', 'arrowup']],
  ['Down', ['down', 'arrowdown']],
  ['Left', ['left', 'arrowleft']],
  ['Right', ['right', 'arrowright']],
  ['Space', ['space']],
  ['CapsLock', ['capslock']],
  ['Print', ['printscreen', 'prtsc', 'prtscr', 'prntscrn']],
  ['Minus', ['minus']],
  ['Add', ['plus']],
  ['Equal', ['equal']],
  ['Comma', ['comma']],
  ['Period', ['period']],
  ['Slash', ['slash']],
  ['Backslash', ['backslash']],
  ['Semicolon', ['semicolon']],
];

const CENTRE = { x: 500, y: 500 };

function qwenKeys(name: string): string {
  const step = translateQwenAction({ action: 'key', keys: [name] }, { pointer: undefined, centre: CENTRE });
  if (step.kind !== 'act' || step.action.action !== 'key') throw new Error(`Qwen did not press ${name}: ${JSON.stringify(step)}`);
  return step.action.keys;
}

function uiTarsKeys(name: string): string {
  const read = readHotkey(name);
  if (!read.ok) throw new Error(`UI-TARS did not press ${name}: ${read.error}`);
  return read.keys;
}

function pressed(keys: string): NutKeyName[] {
  const parse = parseKeyCombinations(keys);
  if (!parse.ok) throw new Error(parse.error);
  return parse.chords.flat().map((key) => key.nut);
}

describe('the pyautogui key table both dialects read', () => {
  it.each(NAMES_BY_KEY)('presses %s for each of its names, from UI-TARS and from Qwen, in any case', (key, names) => {
    for (const name of names) {
      for (const written of [name, name.toUpperCase()]) {
        expect(keyNameFromPyautogui(written), written).toBeDefined();
        expect(pressed(uiTarsKeys(written)), `UI-TARS ${written}`).toEqual([key]);
        expect(pressed(qwenKeys(written)), `Qwen ${written}`).toEqual([key]);
      }
    }
  });

  it('leaves Qwen the names outside it as written, for Sightline’s key vocabulary to judge', () => {
    expect(['A', 'kp_enter', 'Prior', 'F5', '+', 'page down'].map(qwenKeys)).toEqual(['A', 'kp_enter', 'Prior', 'F5', '+', 'page_down']);
    expect(['A', 'kp_enter', 'Prior', 'F5', '+', 'page down'].map((name) => pressed(qwenKeys(name)))).toEqual([
      ['A'],
      ['Enter'],
      ['PageUp'],
      ['F5'],
      ['Add'],
      ['PageDown'],
    ]);
  });

  it('knows no name that is not a key, not even one every object answers to', () => {
    for (const name of ['hyper', 'constructor', 'toString', '__proto__']) {
      expect(keyNameFromPyautogui(name), name).toBeUndefined();
      expect(readHotkey(name).ok, name).toBe(false);
    }
  });
});
