/**
 * `sightline doctor`: checks what a run needs (home folder, disk, database, screen capture, input, the
 * browser, API keys, a dialect that can work with the configuration) and says how to fix what is missing,
 * and which dialect a run would speak and why. Exit 0 when nothing is a problem (warnings allowed), 1 otherwise.
 */
import type { Command } from 'commander';
import { modelToolMemoryAt } from '../../storage/index.js';
import { loadCliConfig } from '../cli-config.js';
import { dialectInEffect, dialectLines, type DialectInEffect } from '../dialect-in-effect.js';
import { runDoctorChecks, type DoctorCheckResult } from '../doctor/index.js';
import { formatDoctorReport } from '../doctor/report.js';
import { EXIT, type CliInvocation } from '../io.js';
import { commandOutput } from '../terminal-output.js';

export function registerDoctorCommand(program: Command, invocation: CliInvocation): void {
  program
    .command('doctor')
    .description('check the display, input, browser, API keys, database and disk, and say how to fix problems')
    .option('--json', 'print the results as JSON, for scripts')
    .action(async (options: { json?: boolean }, command: Command) => {
      const { io } = invocation;
      const { home, config, sources } = loadCliConfig(command, io);
      const dialect = dialectInEffect(config, sources, modelToolMemoryAt(home.root));
      const checks = await runDoctorChecks({ home, config, sources, env: io.env, platform: process.platform });
      const results = [...checks, ...dialectCheck(dialect)];
      const ok = results.every((result) => result.status !== 'problem');
      const stdout = commandOutput(io.stdout, options.json);
      if (options.json) stdout(`${JSON.stringify({ ok, checks: results, dialect }, null, 2)}\n`);
      else stdout(formatDoctorReport(results, dialectLines(dialect)));
      invocation.exitCode = ok ? EXIT.ok : EXIT.failed;
    });
}

/** A dialect that cannot work with the configuration is a problem like a missing display: a run would refuse to start. */
function dialectCheck(dialect: DialectInEffect): DoctorCheckResult[] {
  if (dialect.problems.length === 0) return [];
  return [{ name: 'dialect', status: 'problem', detail: dialect.problems.join(' ') }];
}
