/**
 * The work of `sightline doctor` (commands/doctor.ts declares it). Loaded only when it runs: its checks open the
 * database, look for the browser and the display, and the dialect in effect is the model adapters' knowledge.
 */
import type { Command } from 'commander';
import { modelToolMemoryAt } from '../../storage/index.js';
import { loadCliConfig } from '../cli-config.js';
import { dialectInEffect, dialectLines, type DialectInEffect } from '../dialect-in-effect.js';
import { EXIT, type CliInvocation } from '../io.js';
import { commandOutput } from '../terminal-output.js';
import { runDoctorChecks, type DoctorCheckResult } from './index.js';
import { formatDoctorReport } from './report.js';

export async function runDoctor(invocation: CliInvocation, command: Command, options: { json?: boolean }): Promise<void> {
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
}

/** A dialect that cannot work with the configuration is a problem like a missing display: a run would refuse to start. */
function dialectCheck(dialect: DialectInEffect): DoctorCheckResult[] {
  if (dialect.problems.length === 0) return [];
  return [{ name: 'dialect', status: 'problem', detail: dialect.problems.join(' ') }];
}
