/**
 * Runs a command to its end without blocking the test's event loop, so servers the test runs in-process (the
 * fake model, a page server) keep answering the child meanwhile.
 *
 *   const result = await runProcess('npm', ['pack'], { cwd });
 *   expect(result.code, result.output).toBe(0);
 */
import { spawn } from 'node:child_process';

export interface ProcessResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout and stderr together, for a failure message. */
  output: string;
}

export function runProcess(
  command: string,
  args: readonly string[],
  options: { cwd: string; env?: Record<string, string | undefined> },
): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, output: `$ ${command} ${args.join(' ')}\n${stdout}\n${stderr}` }));
  });
}
