/**
 * The `sightline` command line: builds the commander program and runs it against a CliIo.
 * Each command lives in its own file under commands/ and registers itself through `register(program, io)`.
 */
import { Command, CommanderError } from 'commander';
import { EXIT, UserError, type CliInvocation, type CliIo } from './io.js';
import { registerCommands } from './commands/index.js';
import { terminalWriter } from './terminal-output.js';

export const CLI_VERSION = '0.1.0';

export function buildProgram(invocation: CliInvocation): Command {
  const { io } = invocation;
  const program = new Command('sightline')
    .description('Sightline: a computer-use agent with visual memory')
    .version(CLI_VERSION)
    .option('--home <dir>', 'data folder (default ~/.sightline, or SIGHTLINE_HOME)')
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({
      writeOut: (text) => io.stdout(text),
      writeErr: (text) => io.stderr(text),
    })
    .exitOverride();
  registerCommands(program, invocation);
  // Subcommands inherit the output and the exit override, so usage errors anywhere come back to runCli.
  for (const command of allCommands(program)) {
    command.exitOverride();
    command.configureOutput({
      writeOut: (text) => io.stdout(text),
      writeErr: (text) => io.stderr(text),
    });
    command.showHelpAfterError('(run with --help for usage)');
    // `--home` belongs to the program, but a person reads `sightline flow --help`: show it there too.
    command.configureHelp({ showGlobalOptions: true });
  }
  return program;
}

function allCommands(command: Command): Command[] {
  return command.commands.flatMap((child) => [child, ...allCommands(child)]);
}

/** Runs the CLI and returns the exit code; never throws and never calls process.exit. */
export async function runCli(argv: readonly string[], rawIo: CliIo): Promise<number> {
  // stderr is only ever read by a person: whatever a command puts there passes the terminal sanitizer.
  const io: CliIo = { ...rawIo, stderr: terminalWriter(rawIo.stderr) };
  const invocation: CliInvocation = { io, exitCode: EXIT.ok };
  const program = buildProgram(invocation);
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return invocation.exitCode;
  } catch (error) {
    return exitCodeFor(error, io);
  }
}

function exitCodeFor(error: unknown, io: CliIo): number {
  if (error instanceof CommanderError) {
    // Asked-for help and version are "errors" to commander's override but successes to the user.
    // 'commander.help' is both `sightline help` (asked for: exit code 0) and help shown because a subcommand was
    // missing (a usage error: commander gives it exit code 1).
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return EXIT.ok;
    if (error.code === 'commander.help' && error.exitCode === 0) return EXIT.ok;
    return EXIT.usage; // commander already printed the message
  }
  if (error instanceof UserError) {
    io.stderr(`sightline: ${error.message}\n`);
    return error.exitCode;
  }
  const message = error instanceof Error ? error.message : String(error);
  io.stderr(`sightline: unexpected error: ${message}\n`);
  return EXIT.failed;
}
