/**
 * Enter counts: a newline in typed text presses Enter, which in a terminal or a chat box runs or sends
 * what came before it. So `type "rm -rf ~\n"` is performed as two actions, `type "rm -rf ~"` and
 * `key Return`, each through the safety policy and the confirmation gate on its own: under `always` the
 * Enter is asked for separately, and a refusal of it leaves the text typed but not sent.
 */
import type { ComputerAction } from '../../shared/actions.js';

const NEWLINE = /\r\n?|\n/;

export const ENTER_ACTION: ComputerAction = { action: 'key', keys: 'Return' };

/** The actions one action is performed as: itself, or a `type` cut at its newlines with each newline a `key Return`. */
export function typingPieces(action: ComputerAction): ComputerAction[] {
  if (action.action !== 'type' || !NEWLINE.test(action.text)) return [action];
  const lines = action.text.split(NEWLINE);
  return lines.flatMap((line, index): ComputerAction[] => [
    ...(line === '' ? [] : [{ action: 'type' as const, text: line }]),
    ...(index < lines.length - 1 ? [ENTER_ACTION] : []),
  ]);
}
