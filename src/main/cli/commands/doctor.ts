/**
 * `sightline doctor`: checks what a run needs (home folder, disk, database, screen capture, input, the
 * browser, API keys) and says how to fix what is missing. Exit 0 when nothing is a problem (warnings allowed), 1 otherwise.
 */
import type { Command } from 'commander';
import { loadCliConfig } from '../cli-config.js';
import { runDoctorChecks } from '../doctor/index.js';
import { formatDoctorReport } from '../doctor/report.js';
import { EXIT, type CliInvocation } from '../io.js';

export function registerDoctorCommand(program: Command, invocation: CliInvocation): void {
  program
    .command('doctor')
    .description('check the display, input, browser, API keys, database and disk, and say how to fix problems')
    .option('--json', 'print the results as JSON, for scripts')
    .action(async (options: { json?: boolean }, command: Command) => {
      const { io } = invocation;
      const { home, config, sources } = loadCliConfig(command, io);
      const results = await runDoctorChecks({ home, config, sources, env: io.env, platform: process.platform });
      const ok = results.every((result) => result.status !== 'problem');
      if (options.json) io.stdout(`${JSON.stringify({ ok, checks: results }, null, 2)}\n`);
      else io.stdout(formatDoctorReport(results));
      invocation.exitCode = ok ? EXIT.ok : EXIT.failed;
    });
}
