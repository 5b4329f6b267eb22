/**
 * UI-TARS's key names → the `keys` of Sightline's `key` action (see src/main/operators/key-combination.ts).
 * UI-TARS writes a combination as lowercase names separated by spaces (`hotkey(key='ctrl c')`, the
 * template says so), in pyautogui's vocabulary (`enter`, `pagedown`, `arrowleft`, `esc`, `win`); some
 * answers join them with `+`. Sightline's vocabulary takes xdotool keysyms (`Return`, `Page_Down`, `Left`):
 * the result is one combination joined with `+` (`ctrl+c`), so the safety policy reads it exactly as it
 * reads one from the computer tool. The names come from the table UI-TARS shares with Qwen
 * (src/shared/pyautogui-keys.ts); a letter, a digit, a punctuation character or F1–F12 is read here.
 */
import { keyNameFromPyautogui } from '../../../../shared/pyautogui-keys.js';

export type HotkeyRead = { ok: true; keys: string } | { ok: false; error: string };

/** Sightline's `keys` holds at most this many characters. */
const LONGEST_KEYS = 200;

const KNOWN_HINT = 'ctrl, shift, alt, cmd, enter, tab, esc, backspace, delete, home, end, pageup, pagedown, arrowup, arrowdown, arrowleft, arrowright, space, f1–f12, letters, digits';

/** The `keys` of a `key` action for what UI-TARS wrote in `hotkey(key=...)`, or which name is not a key. */
export function readHotkey(written: string): HotkeyRead {
  const names = written.trim().split(/[\s+]+/).filter((name) => name !== '');
  if (names.length === 0) return { ok: false, error: `hotkey needs keys, such as hotkey(key='ctrl c')` };
  const keys: string[] = [];
  for (const name of names) {
    const key = sightlineKeyName(name);
    if (key === undefined) {
      const shown = name.length > 40 ? `${name.slice(0, 40)}…` : name;
      return { ok: false, error: `hotkey(key='…') names "${shown}", which is not a key (${KNOWN_HINT})` };
    }
    keys.push(key);
  }
  const combination = keys.join('+');
  if (combination.length > LONGEST_KEYS) return { ok: false, error: `hotkey(key='…') names too many keys: use at most 3` };
  return { ok: true, keys: combination };
}

function sightlineKeyName(name: string): string | undefined {
  const named = keyNameFromPyautogui(name);
  if (named !== undefined) return named;
  const lower = name.toLowerCase();
  if (/^[a-z0-9]$/.test(lower)) return lower;
  if (/^[-=,./\\;'`[\]]$/.test(name)) return name;
  const functionKey = /^f([1-9]|1[0-2])$/.exec(lower);
  return functionKey === null ? undefined : `F${functionKey[1]}`;
}
