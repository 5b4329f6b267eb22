/**
 * `sightline doctor`: checks what a run needs (home folder, disk, database, screen capture, input, the
 * browser, API keys, a dialect that can work with the configuration) and says how to fix what is missing,
 * and which dialect a run would speak and why. Exit 0 when nothing is a problem (warnings allowed), 1 otherwise.
 * The work is in ../doctor/run-doctor.ts, loaded only when the command runs.
 */
import type { Command } from 'commander';
import type { CliInvocation } from '../io.js';
import { jsonHelp } from '../option-help.js';

export function registerDoctorCommand(program: Command, invocation: CliInvocation): void {
  program
    .command('doctor')
    .description('check the display, input, browser, API keys, database and disk, and say how to fix problems')
    .option('--json', jsonHelp('each check with its result'))
    .action(async (options: { json?: boolean }, command: Command) => {
      const { runDoctor } = await import('../doctor/run-doctor.js');
      await runDoctor(invocation, command, options);
    });
}
