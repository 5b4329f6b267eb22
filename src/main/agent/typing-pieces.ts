/**
 * The parts one action is performed in, each through the safety policy and the confirmation gate on its own,
 * so that each is judged against what it will meet.
 *
 * Enter counts: a newline in typed text presses Enter, which in a terminal or a chat box runs or sends
 * what came before it. So `type "rm -rf ~\n"` is performed as two actions, `type "rm -rf ~"` and
 * `key Return`, each through the gate on its own: under `always` the Enter is asked for separately, and a
 * refusal of it leaves the text typed but not sent.
 *
 * A key that moves the focus changes what the keys after it type into: `key "Tab s e c r e t"` from a user
 * name field types into the password field after it. So a key sequence is cut after each combination that
 * may move the focus, and the focus is read again before the next part. Which keys move the focus depends on
 * what has it (Tab and shift+Tab anywhere, Enter on a link or a submit button, Space on a button, arrows in a
 * radio group or a menu, Home and End in a list, Escape out of a dialog, F6, shortcuts with Ctrl, Alt or Cmd
 * that focus an address bar or switch windows), so every combination but one of character keys (with or
 * without Shift) counts: reading the focus once more costs little, missing a move could type a password in
 * the clear.
 */
import type { ComputerAction } from '../../shared/actions.js';
import { parseKeyCombinations, type KeyChord } from '../operators/key-combination.js';

const NEWLINE = /\r\n?|\n/;

export const ENTER_ACTION: ComputerAction = { action: 'key', keys: 'Return' };

/** One part of an action, as it is judged and performed. */
export interface PerformedPiece {
  action: ComputerAction;
  /** The part before it ended with a key that may have moved the focus: the focus is read again first. */
  afterFocusMove: boolean;
  /**
   * A later part of one `key` action: its combinations were judged (and, under `always`, asked about) with the
   * whole action, so only what the focus it meets makes risky is asked about.
   */
  continuesKeys: boolean;
}

/** The actions one action is performed as: itself, or a `type` cut at its newlines with each newline a `key Return`. */
export function typingPieces(action: ComputerAction): ComputerAction[] {
  if (action.action !== 'type' || !NEWLINE.test(action.text)) return [action];
  const lines = action.text.split(NEWLINE);
  return lines.flatMap((line, index): ComputerAction[] => [
    ...(line === '' ? [] : [{ action: 'type' as const, text: line }]),
    ...(index < lines.length - 1 ? [ENTER_ACTION] : []),
  ]);
}

/** The parts an action is performed in: typed text cut at its newlines, a key sequence after each key that may move the focus. */
export function performedPieces(action: ComputerAction): PerformedPiece[] {
  if (action.action === 'key') return keySegments(action.keys);
  return typingPieces(action).map((piece, index, pieces) => ({
    action: piece,
    afterFocusMove: index > 0 && pieces[index - 1] === ENTER_ACTION,
    continuesKeys: false,
  }));
}

/** A key sequence cut after each combination that may move the focus; itself when it does not parse (the operator refuses it). */
function keySegments(keys: string): PerformedPiece[] {
  const parse = parseKeyCombinations(keys);
  const written = keys.trim().split(/\s+/);
  if (!parse.ok || parse.chords.length !== written.length) return [{ action: { action: 'key', keys }, afterFocusMove: false, continuesKeys: false }];
  const segments: string[][] = [[]];
  parse.chords.forEach((chord, index) => {
    segments[segments.length - 1]!.push(written[index]!);
    if (mayMoveFocus(chord) && index < parse.chords.length - 1) segments.push([]);
  });
  if (segments.length === 1) return [{ action: { action: 'key', keys }, afterFocusMove: false, continuesKeys: false }];
  return segments.map((segment, index) => ({ action: { action: 'key', keys: segment.join(' ') }, afterFocusMove: index > 0, continuesKeys: index > 0 }));
}

const SHIFT_KEYS = new Set(['LeftShift', 'RightShift']);

/** Whether a combination may move the focus: any but character keys (with or without Shift), which type where the focus is. */
export function mayMoveFocus(chord: KeyChord): boolean {
  return !chord.every((key) => SHIFT_KEYS.has(key.nut) || (key.playwright.length === 1 && key.playwright !== ' '));
}
