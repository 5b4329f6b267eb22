/** A CliIo for in-process CLI tests: a private environment and captured output. */
import type { CliIo } from '../../src/main/cli/io.js';
import { runCli } from '../../src/main/cli/program.js';

export interface CapturedIo extends CliIo {
  output: { stdout: string; stderr: string };
}

export function captureIo(env: Record<string, string | undefined> = {}, cwd = process.cwd()): CapturedIo {
  const output = { stdout: '', stderr: '' };
  return {
    output,
    stdout: (text) => {
      output.stdout += text;
    },
    stderr: (text) => {
      output.stderr += text;
    },
    env,
    cwd,
    isInteractive: false,
  };
}

export interface CliRun {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** Runs `sightline <argv>` in-process and returns its exit code and output. */
export async function runSightline(argv: readonly string[], env: Record<string, string | undefined> = {}): Promise<CliRun> {
  const io = captureIo(env);
  const exitCode = await runCli(argv, io);
  return { exitCode, ...io.output };
}
