/**
 * `sightline` as a child process, the way a script runs it, for the end-to-end tests that need a real process:
 * real signals, a real exit code, a fresh X connection. It runs the CLI bundle global setup built from the
 * sources for this run (test/helpers/built-cli.ts), not a cold `tsx src/main/cli/main.ts`: the same code,
 * without transpiling it on every start.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { builtCli } from '../../helpers/built-cli.js';

export const REPO_ROOT = resolve(import.meta.dirname, '../../..');

export interface SightlineExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface SightlineProcess {
  child: ChildProcess;
  /** What has been written so far. */
  output: { stdout: string; stderr: string };
  exited: Promise<SightlineExit>;
}

/**
 * Starts `sightline <args>`. The environment is the test's own minus model settings (a developer's real
 * key or endpoint must never reach a test), plus `env`.
 */
export function startSightline(args: readonly string[], env: Record<string, string | undefined> = {}): SightlineProcess {
  const modelSetting = (name: string) => /^(OPENAI_|ANTHROPIC_|SIGHTLINE_|GEMINI_|GOOGLE_)/.test(name);
  // The tests run under npm (`npm test`, `npx vitest`), but this process is started directly, not by npm: it must
  // not take a second Ctrl+C for npm's forwarded copy (cli/run/interrupts.ts).
  const npmRun = (name: string) => name === 'npm_lifecycle_event';
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !modelSetting(name) && !npmRun(name)));
  const child = spawn(process.execPath, [builtCli(), ...args], {
    cwd: REPO_ROOT,
    env: { ...inherited, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = { stdout: '', stderr: '' };
  child.stdout!.on('data', (chunk: Buffer) => (output.stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output.stderr += chunk.toString()));
  const exited = new Promise<SightlineExit>((resolveExit, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => resolveExit({ code, signal, ...output }));
  });
  return { child, output, exited };
}

export async function runSightlineProcess(args: readonly string[], env: Record<string, string | undefined> = {}): Promise<SightlineExit> {
  return startSightline(args, env).exited;
}
