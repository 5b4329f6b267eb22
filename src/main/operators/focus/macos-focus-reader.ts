/**
 * macOS: the Accessibility API through the OS's own `osascript` (System Events): the frontmost application's
 * bundle identifier, and its focused UI element's AXRole and AXSubrole (AXSecureTextField is a password
 * field). System Events answers only once the app running Sightline (Terminal for the CLI, Sightline for the
 * app) is allowed under Privacy & Security > Accessibility; until then every answer is 'unknown'.
 */
import { describeFailure, type CommandOutcome, type CommandRunner } from './command-runner.js';
import { focusReading, UNKNOWN_FOCUS, type DesktopFocusReader, type FocusAvailability, type FocusReading } from './focus-reading.js';
import type { FocusedFieldKind } from '../operator.js';
import { isListedTerminal, MACOS_TERMINAL_BUNDLES } from './terminal-applications.js';

/** Four lines: bundle id, application name, then the element's role and subrole, or `error:<number>` for the role. */
export const MACOS_FOCUS_SCRIPT = `
tell application "System Events"
  set frontProcess to first application process whose frontmost is true
  set bundleId to (bundle identifier of frontProcess) as text
  set processName to (name of frontProcess) as text
  set elementRole to ""
  set elementSubrole to ""
  try
    set focusedElement to value of attribute "AXFocusedUIElement" of frontProcess
    set elementRole to (value of attribute "AXRole" of focusedElement) as text
    try
      set elementSubrole to (value of attribute "AXSubrole" of focusedElement) as text
    end try
  on error errorText number errorNumber
    set elementRole to "error:" & errorNumber
  end try
  return bundleId & linefeed & processName & linefeed & elementRole & linefeed & elementSubrole
end tell
`;

const OSASCRIPT_TIMEOUT_MS = 2500;

/** osascript's errors for an app not allowed to control the computer (-1719, -25211) or to send Apple events (-1743). */
const PERMISSION_ERRORS = new Set(['-1719', '-25211', '-1743']);

const TEXT_ROLES = new Set(['AXTextField', 'AXTextArea', 'AXComboBox', 'AXSearchField']);

export const MACOS_PERMISSION_FIX =
  'allow the app that runs Sightline (your terminal, or Sightline) under System Settings > Privacy & Security > Accessibility';

export class MacosFocusReader implements DesktopFocusReader {
  constructor(private readonly run: CommandRunner) {}

  async focusedField(): Promise<FocusReading> {
    return parseMacosFocus(await this.ask()).reading;
  }

  async availability(): Promise<FocusAvailability> {
    const outcome = await this.ask();
    const { problem } = parseMacosFocus(outcome);
    if (problem === undefined) return { available: true, detail: 'System Events reports the focused element and the frontmost application' };
    return { available: false, reason: `focus detection is unavailable: ${problem}`, fix: MACOS_PERMISSION_FIX };
  }

  async close(): Promise<void> {
    // Nothing runs between questions.
  }

  private ask(): Promise<CommandOutcome> {
    return this.run('osascript', ['-e', MACOS_FOCUS_SCRIPT], OSASCRIPT_TIMEOUT_MS);
  }
}

/** The reading osascript's outcome gives, and what went wrong when it gives none. */
export function parseMacosFocus(outcome: CommandOutcome): { reading: FocusReading; problem?: string } {
  if (outcome.kind !== 'exited') return { reading: UNKNOWN_FOCUS, problem: describeFailure('osascript', outcome) };
  if (outcome.exitCode !== 0) {
    const denied = [...PERMISSION_ERRORS].some((code) => outcome.stderr.includes(`(${code})`)) || /not allowed assistive access/i.test(outcome.stderr);
    return { reading: UNKNOWN_FOCUS, problem: denied ? 'osascript is not allowed to read the focus (Accessibility permission)' : describeFailure('osascript', outcome) };
  }
  const lines = outcome.stdout.replace(/\r?\n$/, '').split(/\r?\n/);
  if (lines.length !== 4) return { reading: UNKNOWN_FOCUS, problem: `osascript answered ${lines.length} lines instead of 4` };
  const [bundleId = '', processName = '', role = '', subrole = ''] = lines.map(withoutMissingValue);
  const application = { name: bundleId || processName, isTerminal: isListedTerminal(MACOS_TERMINAL_BUNDLES, bundleId) };
  if (application.name === '') return { reading: UNKNOWN_FOCUS, problem: 'osascript named no frontmost application' };
  if (role.startsWith('error:')) {
    const code = role.slice('error:'.length);
    const problem = PERMISSION_ERRORS.has(code) ? 'osascript is not allowed to read the focus (Accessibility permission)' : undefined;
    // Other errors (-1728: the application has no focused element) leave only the field unknown.
    return problem === undefined ? { reading: focusReading('unknown', application) } : { reading: UNKNOWN_FOCUS, problem };
  }
  return { reading: focusReading(macosFieldKind(role, subrole), application) };
}

/** AppleScript writes an absent value (an app without a bundle id, an element without a subrole) as "missing value". */
function withoutMissingValue(text: string): string {
  return text === 'missing value' ? '' : text;
}

function macosFieldKind(role: string, subrole: string): FocusedFieldKind {
  if (subrole === 'AXSecureTextField' || role === 'AXSecureTextField') return 'password';
  if (role === '') return 'unknown';
  return TEXT_ROLES.has(role) ? 'text' : 'other';
}
