/**
 * What the desktop operator learns from the OS about the keyboard focus: the kind of field (a password field
 * needs a person before anything is typed into it) and the application (Enter in a terminal runs a command).
 * One reader per OS (platform-focus-reader.ts chooses); each answers 'unknown' rather than fail or hang, and the
 * safety policy then falls back to its secret heuristics.
 */
import type { FocusedFieldKind, FocusReading } from '../operator.js';

export type { FocusedApplication, FocusReading } from '../operator.js';

/** Whether a reader can tell anything on this machine, and if not, what would make it able to (for doctor). */
export type FocusAvailability = { available: true; detail: string } | { available: false; reason: string; fix: string };

export interface DesktopFocusReader {
  /** The focus now. Never throws; answers { fieldKind: 'unknown' } when it cannot tell. */
  focusedField(): Promise<FocusReading>;
  /** Asks the OS whether focus can be read here at all, and why not. */
  availability(): Promise<FocusAvailability>;
  /** Stops what the reader started (a helper process). Safe to call twice. */
  close(): Promise<void>;
}

export const UNKNOWN_FOCUS: FocusReading = { fieldKind: 'unknown' };

/**
 * A reading of a field kind, with the application when one is known. Text in a terminal stays 'unknown':
 * a terminal at a password prompt (sudo, ssh) looks exactly like one at a shell prompt to every accessibility
 * API, so the secret heuristics must still judge what is typed there.
 */
export function focusReading(fieldKind: FocusedFieldKind, application?: FocusReading['application']): FocusReading {
  if (application === undefined) return { fieldKind };
  return { fieldKind: application.isTerminal && fieldKind === 'text' ? 'unknown' : fieldKind, application };
}
