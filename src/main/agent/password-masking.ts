/**
 * Text typed into a password field is never stored: the step's action keeps that something was typed,
 * not what. The operators' own details ("pressed s 3 c r e t") are replaced the same way, since they
 * reach the tool result that is stored with the messages.
 */
import type { ComputerAction } from '../../shared/actions.js';

export const MASKED_PASSWORD = '[password]';

/** The action as it is stored when it typed into a password field. */
export function maskedTyping(action: ComputerAction): ComputerAction {
  if (action.action === 'type') return { action: 'type', text: MASKED_PASSWORD };
  if (action.action === 'key') return { action: 'key', keys: MASKED_PASSWORD };
  return action;
}

/** What the model and the stored result are told an action into a password field did. */
export function maskedDetail(action: ComputerAction): string {
  return action.action === 'type' ? `typed ${action.text.length} characters into a password field` : 'pressed keys into a password field';
}
