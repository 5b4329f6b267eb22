/**
 * Windows: UI Automation through the OS's own PowerShell: AutomationElement.FocusedElement's IsPassword and
 * ControlType, and the name of the process that owns it (a console or Windows Terminal is a terminal).
 * One PowerShell per question: slower than a resident helper (a few hundred ms), but nothing to leak.
 */
import { z } from 'zod';
import { describeFailure, type CommandOutcome, type CommandRunner } from './command-runner.js';
import { focusReading, UNKNOWN_FOCUS, type DesktopFocusReader, type FocusAvailability, type FocusReading } from './focus-reading.js';
import type { FocusedFieldKind } from '../operator.js';
import { isListedTerminal, WINDOWS_TERMINAL_PROCESSES } from './terminal-applications.js';

export const WINDOWS_FOCUS_SCRIPT = [
  "$ErrorActionPreference = 'Stop'",
  'Add-Type -AssemblyName UIAutomationClient',
  'Add-Type -AssemblyName UIAutomationTypes',
  '$current = [System.Windows.Automation.AutomationElement]::FocusedElement.Current',
  "$processName = ''",
  'try { $processName = (Get-Process -Id $current.ProcessId).ProcessName } catch { }',
  '@{ isPassword = $current.IsPassword; controlType = $current.ControlType.ProgrammaticName; processName = $processName } | ConvertTo-Json -Compress',
].join('; ');

const POWERSHELL_TIMEOUT_MS = 4000;

const AnswerSchema = z.object({ isPassword: z.boolean(), controlType: z.string(), processName: z.string() });

const TEXT_CONTROL_TYPES = new Set(['ControlType.Edit', 'ControlType.Document', 'ControlType.ComboBox']);

export class WindowsFocusReader implements DesktopFocusReader {
  constructor(private readonly run: CommandRunner) {}

  async focusedField(): Promise<FocusReading> {
    return parseWindowsFocus(await this.ask()).reading;
  }

  async availability(): Promise<FocusAvailability> {
    const { problem } = parseWindowsFocus(await this.ask());
    if (problem === undefined) return { available: true, detail: 'UI Automation reports the focused element and its process' };
    return {
      available: false,
      reason: `focus detection is unavailable: ${problem}`,
      fix: 'make sure Windows PowerShell (powershell.exe) runs with .NET UI Automation, and run Sightline in the desktop session',
    };
  }

  async close(): Promise<void> {
    // Nothing runs between questions.
  }

  private ask(): Promise<CommandOutcome> {
    return this.run('powershell.exe', ['-NoProfile', '-NonInteractive', '-ExecutionPolicy', 'Bypass', '-Command', WINDOWS_FOCUS_SCRIPT], POWERSHELL_TIMEOUT_MS);
  }
}

export function parseWindowsFocus(outcome: CommandOutcome): { reading: FocusReading; problem?: string } {
  if (outcome.kind !== 'exited' || outcome.exitCode !== 0) {
    const denied = outcome.kind === 'exited' && /access is denied|UnauthorizedAccess/i.test(outcome.stderr);
    return { reading: UNKNOWN_FOCUS, problem: denied ? 'UI Automation was denied access to the focused element' : describeFailure('powershell.exe', outcome) };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(outcome.stdout.trim());
  } catch {
    return { reading: UNKNOWN_FOCUS, problem: 'PowerShell answered something that is not JSON' };
  }
  const answer = AnswerSchema.safeParse(parsed);
  if (!answer.success) return { reading: UNKNOWN_FOCUS, problem: 'PowerShell answered JSON of an unexpected shape' };
  const { isPassword, controlType, processName } = answer.data;
  const application = processName === '' ? undefined : { name: processName, isTerminal: isListedTerminal(WINDOWS_TERMINAL_PROCESSES, processName) };
  return { reading: focusReading(windowsFieldKind(isPassword, controlType), application) };
}

function windowsFieldKind(isPassword: boolean, controlType: string): FocusedFieldKind {
  if (isPassword) return 'password';
  return TEXT_CONTROL_TYPES.has(controlType) ? 'text' : 'other';
}
