/**
 * Which actions need a person's approval before they run. Pure: it looks at the action and at what kind
 * of field has the focus (which the operator reads from the page or the accessibility tree), never at
 * text on the screen, so nothing shown on the screen (a prompt injection) can talk its way past it.
 *
 * Risky: key combinations that close, quit or delete (alt+F4, ctrl+w, cmd+q, Delete, cmd+Backspace,
 * ctrl+alt+Delete…), and typing while a password field has the focus. Every combination an action
 * presses is judged alike, however it is pressed: a key action's, a hold_key's (held for a time), and the
 * modifiers held during a click or a scroll.
 *
 * Typing is what is typed, however it is typed: a `key` sequence that spells text (`key "s 3 c r e t"`)
 * is judged like `type` with that text (spelled-text.ts). Where the operator cannot tell what has the
 * focus, text that is or looks like a secret (secret-likeness.ts) is risky in itself.
 *
 * Pasting is typing what the clipboard holds, and dropping dragged text is typing it where it lands: a paste
 * chord (ctrl+v, cmd+v, shift+Insert, ctrl+shift+v) while a password field has the focus, and a drag or a
 * mouse_up that ends on a password field (the operator reads what field lies under the point), are judged
 * like typing there. So is a middle click over one where a middle click pastes the primary selection (X11 and
 * Wayland on Linux). What is pasted or dropped is not known before it lands, so where the field cannot be
 * told there is no text to judge: only the field decides.
 *
 * Keys are judged against the focus each will meet: a key sequence is performed in parts, cut after each key
 * that may move the focus (typing-pieces.ts), and each part is judged against the focus read again before it.
 * Within one combination the focus cannot be read between its keys, so a combination that presses such a key
 * together with keys that type is risky in itself.
 *
 * Enter in a terminal runs a command. For an operator that can tell that the focused application is a
 * terminal (the desktop, from the OS: focus/terminal-applications.ts), Enter there is risky: a `key` or
 * `hold_key` that presses Return or KP_Enter, and typed text with a newline (which the computer tool
 * performs as a separate `key Return` anyway, typing-pieces.ts). The browser operator never reports a
 * terminal, so on a page Enter is judged like any key.
 */
import type { ComputerAction } from '../../shared/actions.js';
import type { ConfirmationPolicy } from '../../shared/config.js';
import type { Redact } from '../../shared/secret-redaction.js';
import type { FocusedApplication, FocusedFieldKind } from '../operators/operator.js';
import { parseHeldModifiers, parseKeyCombinations, type KeyChord, type NutKeyName } from '../operators/key-combination.js';
import { secretLikeness } from './secret-likeness.js';
import { spelledText } from './spelled-text.js';

export interface RiskEvidence {
  focusedFieldKind: FocusedFieldKind;
  /** The application that has the focus, when the operator can tell (the desktop); unknown otherwise. */
  focusedApplication?: FocusedApplication | undefined;
  /** The configuration's secret redactor, to recognize a configured secret in typed text; none known without it. */
  redactSecrets?: Redact | undefined;
  /** For an action that may drop dragged text (dropPlace): the kind of field under its end point; unknown when absent. */
  dropFieldKind?: FocusedFieldKind | undefined;
  /**
   * For a middle click where a middle click pastes (the primary selection on Linux): the kind of field it
   * pastes into, the one under its point (or the focused one, where the operator cannot tell the field under a
   * point). Absent where a middle click pastes nothing.
   */
  middleClickFieldKind?: FocusedFieldKind | undefined;
}

/** Where an action that lets go of the left button does so: a point of the model's view, or where the pointer is. */
export type DropPlace = { x: number; y: number } | 'pointer';

export type RiskAssessment = { risky: true; reason: string } | { risky: false; reason?: undefined };

type Modifier = 'ctrl' | 'alt' | 'shift' | 'cmd';

const MODIFIER_OF_KEY: Partial<Record<NutKeyName, Modifier>> = {
  LeftControl: 'ctrl',
  RightControl: 'ctrl',
  LeftAlt: 'alt',
  RightAlt: 'alt',
  LeftShift: 'shift',
  RightShift: 'shift',
  LeftCmd: 'cmd',
  RightCmd: 'cmd',
  LeftSuper: 'cmd',
  RightSuper: 'cmd',
};

interface ChordShape {
  modifiers: Set<Modifier>;
  /** The non-modifier keys, by nut-js name. */
  keys: Set<NutKeyName>;
}

/** Rules over one chord's shape; the first that matches names the risk. */
const RISKY_CHORDS: Array<{ matches: (chord: ChordShape) => boolean; effect: string }> = [
  { matches: (c) => has(c, 'ctrl', 'alt') && (c.keys.has('Delete') || c.keys.has('Backspace')), effect: 'may log out, restart or kill the session' },
  { matches: (c) => c.keys.has('Delete'), effect: 'may delete something' },
  { matches: (c) => has(c, 'cmd') && c.keys.has('Backspace'), effect: 'may move files to the trash' },
  { matches: (c) => c.keys.has('F4') && (has(c, 'alt') || has(c, 'ctrl')), effect: 'may close a window or tab' },
  { matches: (c) => c.keys.has('Q') && (has(c, 'ctrl') || has(c, 'cmd')), effect: 'may quit an application' },
  { matches: (c) => c.keys.has('W') && (has(c, 'ctrl') || has(c, 'cmd')), effect: 'may close a window or tab' },
  { matches: (c) => has(c, 'cmd', 'alt') && c.keys.has('Escape'), effect: 'opens Force Quit' },
  {
    matches: (c) => [...c.keys].some(isCharacterKey) && [...c.keys].some((key) => !isCharacterKey(key)),
    effect: 'types together with a key that may move the focus, into a field that cannot be told before it lands',
  },
];

/**
 * Everything that makes an action risky. A key sequence is performed in parts, the focus read again after
 * each key that may move it (typing-pieces.ts); the first part is judged here as the whole action, each later
 * part by focusRisk alone against the focus it meets, since its key combinations were judged with the whole.
 */
export function assessRisk(action: ComputerAction, evidence: RiskEvidence): RiskAssessment {
  const focused = focusRisk(action, evidence);
  if (focused.risky) return focused;
  for (const { written, chord } of pressedCombinations(action)) {
    const rule = RISKY_CHORDS.find((candidate) => candidate.matches(chordShape(chord)));
    if (rule !== undefined) return { risky: true, reason: `key combination ${written} ${rule.effect}` };
  }
  return { risky: false };
}

/** What makes an action risky where it lands: the field or the application it meets, and what it types there. */
export function focusRisk(action: ComputerAction, evidence: RiskEvidence): RiskAssessment {
  const typed = typedText(action);
  if (typesText(action) && evidence.focusedFieldKind === 'password') {
    return { risky: true, reason: 'typing into a password field' };
  }
  if (pastes(action) && evidence.focusedFieldKind === 'password') {
    return { risky: true, reason: 'pasting into a password field' };
  }
  if (dropPlace(action) !== undefined && evidence.dropFieldKind === 'password') {
    return { risky: true, reason: 'dropping dragged text into a password field' };
  }
  if (action.action === 'middle_click' && evidence.middleClickFieldKind === 'password') {
    return { risky: true, reason: 'pasting the selection into a password field (a middle click pastes it on Linux)' };
  }
  if (typed !== '' && evidence.focusedFieldKind === 'unknown') {
    const likeness = secretLikeness(typed, evidence.redactSecrets ?? ((text) => text));
    if (likeness !== undefined) return { risky: true, reason: `typing text that ${likeness} where the focused field cannot be told` };
  }
  if (evidence.focusedApplication?.isTerminal === true && pressesEnter(action)) {
    return { risky: true, reason: `pressing Enter in a terminal (${evidence.focusedApplication.name}) runs the command line` };
  }
  return { risky: false };
}

/** A key that types a character (a letter, a digit, punctuation), as nut-js names it; Space is a key of its own. */
function isCharacterKey(key: NutKeyName): boolean {
  return /^(?:[A-Z]|Num[0-9]|Minus|Equal|Add|Comma|Period|Slash|Backslash|Semicolon|Quote|Grave|LeftBracket|RightBracket)$/.test(key);
}

/**
 * What an action types: a `type` action's text, or the characters a `key` sequence spells; '' for other
 * actions. A held printable key types too (once, then again at the keyboard's repeat rate), so a `hold_key`
 * is judged by what it spells, like a `key`.
 */
export function typedText(action: ComputerAction): string {
  if (action.action === 'type') return action.text;
  if (action.action === 'key' || action.action === 'hold_key') return spelledText(action.keys);
  return '';
}

/** Whether the action types something (text, or keys that spell it). */
export function typesText(action: ComputerAction): boolean {
  return action.action === 'type' || typedText(action) !== '';
}

/**
 * Whether a key or hold_key presses a paste chord in any of its combinations: V with Ctrl or Cmd (Shift
 * too: a terminal's ctrl+shift+v; Alt too, which some applications read as a paste of their own), or
 * Shift+Insert without Ctrl (ctrl+Insert copies).
 */
export function pastes(action: ComputerAction): boolean {
  if (action.action !== 'key' && action.action !== 'hold_key') return false;
  return pressedCombinations(action).some(({ chord }) => {
    const shape = chordShape(chord);
    if (shape.keys.has('V') && (has(shape, 'ctrl') || has(shape, 'cmd'))) return true;
    return shape.keys.has('Insert') && has(shape, 'shift') && !has(shape, 'ctrl');
  });
}

/**
 * Where an action may drop what it drags: a drag at its end point, a mouse_up where it lets go (its point, or
 * the pointer's place). A drag that only moves something lands there too; judging every drag that ends on a
 * password field costs at most a question.
 */
export function dropPlace(action: ComputerAction): DropPlace | undefined {
  if (action.action === 'drag') return { x: action.to_x, y: action.to_y };
  if (action.action !== 'mouse_up') return undefined;
  return action.x === undefined || action.y === undefined ? 'pointer' : { x: action.x, y: action.y };
}

const ENTER_KEYS = new Set<NutKeyName>(['Return', 'Enter']);
const NEWLINE = /[\r\n]/;

/** Whether the action presses Enter: a key or hold_key with Return or KP_Enter in any combination, or text with a newline. */
export function pressesEnter(action: ComputerAction): boolean {
  if (action.action === 'type') return NEWLINE.test(action.text);
  if (action.action !== 'key' && action.action !== 'hold_key') return false;
  return pressedCombinations(action).some(({ chord }) => chord.some((key) => ENTER_KEYS.has(key.nut)));
}

/**
 * The key combinations an action presses, as written and as parsed. Keys the operator cannot press are
 * refused by the operator (nothing runs, so nothing to confirm): they press nothing here.
 */
function pressedCombinations(action: ComputerAction): Array<{ written: string; chord: KeyChord }> {
  switch (action.action) {
    case 'key':
    case 'hold_key': {
      const parse = parseKeyCombinations(action.keys);
      if (!parse.ok) return [];
      const written = action.keys.trim().split(/\s+/);
      return parse.chords.map((chord, index) => ({ written: written[index] ?? action.keys, chord }));
    }
    case 'click':
    case 'double_click':
    case 'triple_click':
    case 'right_click':
    case 'middle_click':
    case 'scroll': {
      if (action.modifiers === undefined) return [];
      const parse = parseHeldModifiers(action.modifiers);
      return parse.ok ? [{ written: action.modifiers.trim(), chord: parse.chord }] : [];
    }
    default:
      return [];
  }
}

/** Actions that change nothing on the screen or in applications; `always` still lets them run unasked. */
const PASSIVE_ACTIONS = new Set<ComputerAction['action']>(['screenshot', 'wait', 'move']);

export function needsConfirmation(policy: ConfirmationPolicy, risk: RiskAssessment, action: ComputerAction): boolean {
  switch (policy) {
    case 'never':
      return false;
    case 'risky':
      return risk.risky;
    case 'always':
      return risk.risky || !PASSIVE_ACTIONS.has(action.action);
  }
}

/** Why a person is asked: the risk when there is one, else the policy that asks for everything. */
export function confirmationReason(policy: ConfirmationPolicy, risk: RiskAssessment, action: ComputerAction): string {
  if (risk.risky) return risk.reason;
  return `the confirmation policy is "${policy}": every ${action.action} needs approval`;
}

function chordShape(chord: KeyChord): ChordShape {
  const modifiers = new Set<Modifier>();
  const keys = new Set<NutKeyName>();
  for (const key of chord) {
    const modifier = MODIFIER_OF_KEY[key.nut];
    if (modifier !== undefined) modifiers.add(modifier);
    else keys.add(key.nut);
  }
  return { modifiers, keys };
}

function has(chord: ChordShape, ...modifiers: Modifier[]): boolean {
  return modifiers.every((modifier) => chord.modifiers.has(modifier));
}
