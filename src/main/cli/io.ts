import { uiohookLoader, type GlobalKeyHookLoader } from '../operators/global-key-hook.js';

/**
 * What a CLI command may touch of the outside world. Commands never use `process` directly, so tests run
 * them in-process with captured output and a private environment, through the same code path as the bin.
 */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: Record<string, string | undefined>;
  cwd: string;
  /** Whether stdin is an interactive terminal (confirmation prompts are only possible then). */
  isInteractive: boolean;
  /** The system-wide keyboard hook the emergency stop listens through; absent, a desktop run has only Ctrl+C. */
  globalKeyHook?: GlobalKeyHookLoader;
}

export function processIo(): CliIo {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    env: process.env,
    cwd: process.cwd(),
    isInteractive: Boolean(process.stdin.isTTY),
    globalKeyHook: uiohookLoader({ platform: process.platform, display: process.env.DISPLAY }),
  };
}

/**
 * What every command receives: the IO, and a place to set the exit code when a command finishes normally
 * but with a result scripts must see (a failed task is 1, a stopped one 3).
 */
export interface CliInvocation {
  io: CliIo;
  exitCode: number;
}

/** Exit codes are part of the CLI's contract (docs/cli.md): scripts branch on them. */
export const EXIT = {
  ok: 0,
  failed: 1,
  usage: 2,
  stopped: 3,
} as const;

/**
 * A failure the user can fix: wrong arguments, bad config, a missing file. Its message is printed as is
 * (no stack trace) and the CLI exits with `exitCode`.
 */
export class UserError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.usage,
  ) {
    super(message);
    this.name = 'UserError';
  }
}
