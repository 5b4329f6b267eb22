/**
 * pyautogui's key names → names in Sightline's key vocabulary (src/main/operators/key-combination.ts, which
 * reads xdotool keysyms, DOM key names and characters without regard to case). Models trained on pyautogui
 * scripts write these names: UI-TARS in `hotkey(key='ctrl c')`, Qwen in a computer_use `keys` list (OSWorld
 * hands that list to pyautogui.hotkey). One table for both dialects, so a name either model writes is read
 * the same way by both.
 *
 * Sightline takes several spellings of one key (`Page_Down`, `PageDown`); each name maps to the spelling its
 * dialect has always produced, which recorded outputs pin, and every spelling presses the same key.
 * Left and right modifiers are the same modifier; cmd, win, super and meta are one key.
 */
// A Map, not an object: a name such as `constructor` must not find Object.prototype's.
const PYAUTOGUI_KEY_NAMES: ReadonlyMap<string, string> = new Map(
  Object.entries({
    ctrl: 'ctrl',
    control: 'ctrl',
    ctrlleft: 'ctrl',
    ctrlright: 'ctrl',
    shift: 'shift',
    shiftleft: 'shift',
    shiftright: 'shift',
    alt: 'alt',
    option: 'alt',
    altleft: 'alt',
    altright: 'alt',
    cmd: 'cmd',
    command: 'cmd',
    win: 'cmd',
    windows: 'cmd',
    winleft: 'cmd',
    winright: 'cmd',
    super: 'cmd',
    meta: 'cmd',
    enter: 'Return',
    return: 'Return',
    tab: 'Tab',
    esc: 'Escape',
    escape: 'Escape',
    backspace: 'BackSpace',
    delete: 'Delete',
    del: 'Delete',
    insert: 'Insert',
    home: 'Home',
    end: 'End',
    pageup: 'Page_Up',
    page_up: 'Page_Up',
    pgup: 'PageUp',
    pagedown: 'Page_Down',
    page_down: 'Page_Down',
    pgdn: 'PageDown',
    up: 'Up',
    arrowup: 'Up',
    down: 'Down',
    arrowdown: 'Down',
    left: 'Left',
    arrowleft: 'Left',
    right: 'Right',
    arrowright: 'Right',
    space: 'space',
    capslock: 'Caps_Lock',
    printscreen: 'Print',
    prtsc: 'Print',
    prtscr: 'Print',
    prntscrn: 'Print',
    minus: 'minus',
    plus: 'plus',
    equal: 'equal',
    comma: 'comma',
    period: 'period',
    slash: 'slash',
    backslash: 'backslash',
    semicolon: 'semicolon',
  }),
);

/** Sightline's name for a key pyautogui names `name` (in any case); undefined for a name not in the table. */
export function keyNameFromPyautogui(name: string): string | undefined {
  return PYAUTOGUI_KEY_NAMES.get(name.toLowerCase());
}
