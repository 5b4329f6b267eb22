/**
 * Runs one of the OS's own tools (osascript, powershell, xprop, xdotool) with a time limit, and says how it
 * ended instead of throwing: the focus readers turn every failure into "unknown". Injected, so the readers'
 * parsing and failure paths are tested with fakes on any OS.
 */
import { execFile } from 'node:child_process';

export type CommandOutcome =
  | { kind: 'exited'; exitCode: number; stdout: string; stderr: string }
  /** The tool is not installed (ENOENT) or cannot be started (EACCES). */
  | { kind: 'not-started'; reason: string }
  | { kind: 'timed-out'; timeoutMs: number };

export type CommandRunner = (command: string, args: readonly string[], timeoutMs: number) => Promise<CommandOutcome>;

const MAX_OUTPUT_BYTES = 1024 * 1024;

/** A runner whose commands see `env` (DISPLAY says which X server xdotool asks). */
export function commandRunner(env: NodeJS.ProcessEnv = process.env): CommandRunner {
  return (command, args, timeoutMs) => runOnce(command, args, timeoutMs, env);
}

function runOnce(command: string, args: readonly string[], timeoutMs: number, env: NodeJS.ProcessEnv): Promise<CommandOutcome> {
  return new Promise((resolve) => {
    const options = { timeout: timeoutMs, maxBuffer: MAX_OUTPUT_BYTES, windowsHide: true, encoding: 'utf8' as const, env };
    execFile(command, [...args], options, (error, stdout, stderr) => {
      if (error === null) return resolve({ kind: 'exited', exitCode: 0, stdout, stderr });
      const failure = error as NodeJS.ErrnoException & { killed?: boolean; code?: number | string };
      if (typeof failure.code === 'string' && !failure.code.startsWith('ERR_')) return resolve({ kind: 'not-started', reason: `${command}: ${failure.code}` });
      if (failure.killed === true) return resolve({ kind: 'timed-out', timeoutMs });
      // Exited with a status, or died by a signal, or wrote more than anyone reads: nothing usable.
      resolve({ kind: 'exited', exitCode: typeof failure.code === 'number' ? failure.code : 1, stdout, stderr });
    });
  });
}

/** One line saying why a command gave nothing usable, for doctor. */
export function describeFailure(command: string, outcome: CommandOutcome): string {
  switch (outcome.kind) {
    case 'not-started':
      return `${command} could not be started (${outcome.reason})`;
    case 'timed-out':
      return `${command} did not answer within ${outcome.timeoutMs} ms`;
    case 'exited':
      return `${command} exited with ${outcome.exitCode}${outcome.stderr.trim() === '' ? '' : `: ${outcome.stderr.trim().split('\n')[0]}`}`;
  }
}
