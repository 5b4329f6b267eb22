/**
 * `sightline config show` prints the effective configuration (secrets redacted) and where each value
 * came from, then the dialect in effect and why; `sightline config path` prints where config.json is,
 * whether or not it exists yet.
 */
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { redactConfig } from '../../../shared/config.js';
import { CONFIG_FIELDS, CONFIG_RECORD_PATHS, ENVIRONMENT_ALIASES, type ConfigField } from '../../config/fields.js';
import { valueAt } from '../../config/load.js';
import { describeSource } from '../../config/sources.js';
import { loadCliConfig, resolveCliHome, type CliConfig } from '../cli-config.js';
import { dialectInEffect, dialectLines } from '../dialect-in-effect.js';
import type { CliInvocation } from '../io.js';

export function registerConfigCommand(program: Command, invocation: CliInvocation): void {
  const config = program.command('config').description('show the effective configuration, or where config.json is');

  config
    .command('show')
    .description('print the effective configuration (secrets redacted) and the source of each value')
    .option('--json', 'print JSON, for scripts')
    .action((options: { json?: boolean }, command: Command) => {
      const loaded = loadCliConfig(command, invocation.io);
      invocation.io.stdout(options.json ? showJson(loaded) : showText(loaded));
    });

  config
    .command('path')
    .description('print the path of config.json (it need not exist)')
    .action((_options: unknown, command: Command) => {
      invocation.io.stdout(`${resolveCliHome(command, invocation.io).configFile}\n`);
    });
}

function showJson(loaded: CliConfig): string {
  const document = {
    home: loaded.home.root,
    configFile: loaded.home.configFile,
    configFileExists: existsSync(loaded.home.configFile),
    config: redactConfig(loaded.config),
    sources: loaded.sources,
    dialect: dialectInEffect(loaded.config, loaded.sources),
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}

/** One aligned line per field: path, value, source; unset optional fields say so, with their variable. */
function showText(loaded: CliConfig): string {
  const redacted = redactConfig(loaded.config);
  const rows = CONFIG_FIELDS.map((field) => {
    const value = valueAt(redacted, field.segments);
    const source = loaded.sources[field.path];
    return value === undefined || source === undefined
      ? [field.path, '(not set)', `set with ${variableFor(field)}`]
      : [field.path, typeof value === 'string' ? value : JSON.stringify(value), describeSource(source)];
  });
  // Records (mcp.servers) are set in config.json only; shown as JSON, their secrets redacted.
  for (const path of CONFIG_RECORD_PATHS) {
    const source = loaded.sources[path];
    rows.push([path, JSON.stringify(valueAt(redacted, path.split('.'))), source === undefined ? 'default' : describeSource(source)]);
  }
  const pathWidth = Math.max(...rows.map(([path]) => path!.length));
  const valueWidth = Math.max(...rows.map(([, value]) => value!.length));
  const fileState = existsSync(loaded.home.configFile) ? '' : ' (not found: defaults apply)';
  const lines = [
    `config file: ${loaded.home.configFile}${fileState}`,
    '',
    ...rows.map(([path, value, source]) => `${path!.padEnd(pathWidth)}  ${value!.padEnd(valueWidth)}  ${source}`),
    '',
    ...dialectLines(dialectInEffect(loaded.config, loaded.sources)),
  ];
  return `${lines.join('\n')}\n`;
}

/** The variable people know best for a field: the well-known alias if there is one. */
function variableFor(field: ConfigField): string {
  const alias = Object.entries(ENVIRONMENT_ALIASES).find(([, path]) => path === field.path);
  return alias?.[0] ?? field.environmentVariable;
}
