/**
 * One question asked on the terminal: written to stderr (stdout may be a pipe of JSON lines), answered on
 * stdin. Only used when stdin is a terminal (CliIo.isInteractive); this is the one place the run command
 * reads the process's stdin.
 */
import { createInterface } from 'node:readline/promises';

/**
 * Resolves with the line typed, or undefined when the signal fires or stdin ends first. Ctrl+C typed at
 * the prompt reaches readline, not the process, so it is passed on to `onInterrupt`.
 */
export async function askOnTerminal(question: string, signal: AbortSignal, onInterrupt: () => void): Promise<string | undefined> {
  if (signal.aborted) return undefined;
  const terminal = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  terminal.on('SIGINT', onInterrupt);
  const ended = new Promise<undefined>((resolve) => terminal.once('close', () => resolve(undefined)));
  try {
    return await Promise.race([terminal.question(question, { signal }), ended]);
  } catch (error) {
    if (signal.aborted) return undefined;
    throw error;
  } finally {
    terminal.close();
  }
}
