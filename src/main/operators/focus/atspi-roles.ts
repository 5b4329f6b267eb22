/**
 * What an AT-SPI answer about the focused element means for the safety policy. The helper
 * (resources/focus/atspi-focus.py) only reports; the meaning is decided here, where it is tested.
 */
import type { FocusedFieldKind } from '../operator.js';

/** The focused element as the helper reports it: role name as libatspi spells it ("password text"), state nicks. */
export interface AccessibleFocus {
  role: string;
  states: readonly string[];
  /** The accessible application's name ("Chromium", "gedit"). */
  application?: string | undefined;
  /** The application's process id, to check the answer against the window X11 says has the focus. */
  processId?: number | undefined;
}

/** Roles whose focused element takes typed text, editable or not (a read-only entry still gets the keys). */
const TEXT_ROLES = new Set(['text', 'entry', 'editbar', 'spin button', 'date editor', 'password text']);

export function isTerminalRole(role: string): boolean {
  return role === 'terminal';
}

/**
 * password text is a password field. A terminal is left 'unknown' on purpose: a terminal at a password prompt
 * (sudo, ssh) looks exactly like one at a shell prompt, so the secret heuristics must still look at its text.
 * A text role, or anything editable (a rich-text document, an editable combo box), is a text field.
 */
export function fieldKindOfAccessible(focus: Pick<AccessibleFocus, 'role' | 'states'>): FocusedFieldKind {
  if (focus.role === 'password text') return 'password';
  if (isTerminalRole(focus.role)) return 'unknown';
  if (TEXT_ROLES.has(focus.role) || focus.states.includes('editable')) return 'text';
  return 'other';
}
