/**
 * `sightline config show` prints the effective configuration (secrets redacted) and where each value
 * came from, then the dialect in effect and why; `sightline config path` prints where config.json is,
 * whether or not it exists yet. After the dialect, the price table in effect (pricing-in-effect.ts).
 * The work of `show` is in ../config/show-config.ts, loaded only when it runs.
 */
import type { Command } from 'commander';
import { resolveCliHome } from '../cli-config.js';
import type { CliInvocation } from '../io.js';
import { jsonHelp } from '../option-help.js';

export function registerConfigCommand(program: Command, invocation: CliInvocation): void {
  const config = program.command('config').description('show the effective configuration, or where config.json is');

  config
    .command('show')
    .description('print the effective configuration (secrets redacted) and the source of each value')
    .option('--json', jsonHelp('each value with where it came from'))
    .action(async (options: { json?: boolean }, command: Command) => {
      const { showConfig } = await import('../config/show-config.js');
      showConfig(invocation, command, options);
    });

  config
    .command('path')
    .description('print the path of config.json (it need not exist)')
    .action((_options: unknown, command: Command) => {
      invocation.io.stdout(`${resolveCliHome(command, invocation.io).configFile}\n`);
    });
}
