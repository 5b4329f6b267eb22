/**
 * The work of `sightline config show` (commands/config.ts declares it): the effective configuration, secrets redacted,
 * where each value came from, the dialect in effect and the price table. Loaded only when it runs: the dialect in
 * effect is the agent's and the model adapters' knowledge, which no other command's start needs.
 */
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { redactConfig, type ModelProvider } from '../../../shared/config.js';
import { modelProvider } from '../../../shared/providers.js';
import { secretRedactor } from '../../../shared/secret-redaction.js';
import { CONFIG_FIELDS, CONFIG_SET_WHOLE_PATHS, ENVIRONMENT_ALIASES, PROVIDER_ENVIRONMENT_ALIASES, type ConfigField } from '../../config/fields.js';
import { valueAt } from '../../config/load.js';
import { providerVariableFor, providerVariablesNotInEffect } from '../../config/provider-scope.js';
import { describeSource } from '../../config/sources.js';
import { loadCliConfig, type CliConfig } from '../cli-config.js';
import { modelToolMemoryAt } from '../../storage/index.js';
import { dialectInEffect, dialectLines } from '../dialect-in-effect.js';
import { pricingInEffect, pricingLine } from '../pricing-in-effect.js';
import type { CliInvocation } from '../io.js';
import { commandOutput } from '../terminal-output.js';
import { redactingWriter } from '../run/secrets.js';

export function showConfig(invocation: CliInvocation, command: Command, options: { json?: boolean }): void {
  const loaded = loadCliConfig(command, invocation.io);
  const unused = providerVariablesNotInEffect(invocation.io.env, modelProvider(loaded.config.model));
  // Past redactConfig, the one redactor too: an MCP server's URL credential may appear in any line.
  const stdout = redactingWriter(commandOutput(invocation.io.stdout, options.json), secretRedactor(loaded.config));
  stdout(options.json ? showJson(loaded, unused) : showText(loaded, unused));
}

/** `unusedVariables`: another provider's variables (OPENAI_BASE_URL for a Claude model) that are set and ignored. */
function showJson(loaded: CliConfig, unusedVariables: readonly string[]): string {
  const document = {
    home: loaded.home.root,
    configFile: loaded.home.configFile,
    configFileExists: existsSync(loaded.home.configFile),
    config: redactConfig(loaded.config),
    sources: loaded.sources,
    dialect: dialectInEffect(loaded.config, loaded.sources, modelToolMemoryAt(loaded.home.root)),
    pricing: pricingInEffect(loaded.config),
    unusedVariables,
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}

/** One aligned line per field: path, value, source; unset optional fields say so, with their variable. */
function showText(loaded: CliConfig, unusedVariables: readonly string[]): string {
  const redacted = redactConfig(loaded.config);
  const provider = modelProvider(loaded.config.model);
  const rows = CONFIG_FIELDS.map((field) => {
    const value = valueAt(redacted, field.segments);
    const source = loaded.sources[field.path];
    return value === undefined || source === undefined
      ? [field.path, '(not set)', `set with ${variableFor(field, provider)}`]
      : [field.path, typeof value === 'string' ? value : JSON.stringify(value), describeSource(source)];
  });
  // Records (mcp.servers) and whole objects (model.pricing) are set in config.json only; shown as JSON, their secrets redacted.
  for (const path of CONFIG_SET_WHOLE_PATHS) {
    const value = valueAt(redacted, path.split('.'));
    const source = loaded.sources[path];
    if (value === undefined) rows.push([path, '(not set)', 'set in config.json']);
    else rows.push([path, JSON.stringify(value), source === undefined ? 'default' : describeSource(source)]);
  }
  const pathWidth = Math.max(...rows.map(([path]) => path!.length));
  const valueWidth = Math.max(...rows.map(([, value]) => value!.length));
  const fileState = existsSync(loaded.home.configFile) ? '' : ' (not found: defaults apply)';
  const lines = [
    `config file: ${loaded.home.configFile}${fileState}`,
    '',
    ...rows.map(([path, value, source]) => `${path!.padEnd(pathWidth)}  ${value!.padEnd(valueWidth)}  ${source}`),
    ...unusedVariables.map((variable) => unusedVariableLine(variable, loaded.config.model.name, provider)),
    '',
    ...dialectLines(dialectInEffect(loaded.config, loaded.sources, modelToolMemoryAt(loaded.home.root))),
    pricingLine(pricingInEffect(loaded.config), loaded.config.model.name),
  ];
  return `${lines.join('\n')}\n`;
}

/** Why a variable the person set changes nothing, so its absence from the table above is no mystery. */
function unusedVariableLine(variable: string, model: string, provider: ModelProvider): string {
  const owner = PROVIDER_ENVIRONMENT_ALIASES[variable]?.provider ?? 'another';
  return `${variable} is set but not used: it counts for the ${owner} provider only, and ${model} goes through ${provider}`;
}

/** The variable people know best for a field: the well-known alias if there is one (the provider's own, for the base URL). */
function variableFor(field: ConfigField, provider: ModelProvider): string {
  const alias = Object.entries(ENVIRONMENT_ALIASES).find(([, path]) => path === field.path);
  return alias?.[0] ?? providerVariableFor(field.path, provider) ?? field.environmentVariable;
}
