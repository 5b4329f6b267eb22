/**
 * Loads the configuration: `config.json` in the home, then environment variables, then CLI flags, each
 * overriding the one before, merged per field and validated once with ConfigSchema. Every problem is
 * reported together in one ConfigError; a valid result says where each of its values came from.
 */
import type { Config } from '../../shared/config.js';
import { ConfigError, type ConfigIssue } from './errors.js';
import { entriesFromEnvironment, entriesFromFile, entriesFromFlags, isPlainObject, type ConfigEntry, type ConfigFlags } from './entries.js';
import { CONFIG_FIELDS, CONFIG_SET_WHOLE_PATHS } from './fields.js';
import { readConfigFile } from './file.js';
import type { SightlineHome } from './home.js';
import { entriesForProviderInEffect } from './provider-scope.js';
import type { ConfigSource } from './sources.js';
import { validateConfig } from './validation.js';

export interface LoadConfigOptions {
  home: SightlineHome;
  env: Readonly<Record<string, string | undefined>>;
  /** Dotted paths to values, from a command's options; undefined values are ignored. */
  flags?: ConfigFlags;
  /** How each flag is spelled on the command line (`{'model.name': '--model'}`), for messages. */
  flagNames?: Readonly<Record<string, string>>;
}

export interface LoadedConfig {
  config: Config;
  /** For each field that has a value, by dotted path: where that value came from. */
  sources: Record<string, ConfigSource>;
}

/** Throws ConfigError when the file cannot be read or parsed, or when any field is unknown or invalid. */
export function loadConfig(options: LoadConfigOptions): LoadedConfig {
  const file = options.home.configFile;
  const layers = [
    entriesFromFile(readConfigFile(file), file),
    entriesFromEnvironment(options.env),
    entriesFromFlags(options.flags ?? {}, options.flagNames),
  ];
  // Later layers win: a Map keeps the last value set for each path.
  const entries = new Map<string, ConfigEntry>();
  for (const entry of entriesForProviderInEffect(layers.flatMap((layer) => layer.entries))) entries.set(entry.path, entry);

  const issues: ConfigIssue[] = layers.flatMap((layer) => layer.issues);
  const validation = validateConfig(nestEntries(entries.values()), entries);
  if (!validation.ok) issues.push(...validation.issues);
  if (issues.length > 0 || !validation.ok) throw ConfigError.fromIssues(issues, file);

  return { config: validation.config, sources: sourcesOf(validation.config, entries) };
}

/** Builds the nested object zod validates from dotted paths. */
function nestEntries(entries: Iterable<ConfigEntry>): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const entry of entries) {
    const segments = entry.path.split('.');
    const last = segments.pop() as string;
    let holder: Record<string, unknown> | undefined = root;
    for (const segment of segments) {
      holder[segment] ??= {};
      const next: unknown = holder[segment];
      // The file put a non-object where this section belongs; that is reported on the section itself.
      holder = isPlainObject(next) ? next : undefined;
      if (holder === undefined) break;
    }
    if (holder !== undefined) holder[last] = entry.value;
  }
  return root;
}

function sourcesOf(config: Config, entries: ReadonlyMap<string, ConfigEntry>): Record<string, ConfigSource> {
  const sources: Record<string, ConfigSource> = {};
  for (const field of CONFIG_FIELDS) {
    if (valueAt(config, field.segments) === undefined) continue;
    sources[field.path] = entries.get(field.path)?.source ?? { kind: 'default' };
  }
  for (const path of CONFIG_SET_WHOLE_PATHS) {
    if (valueAt(config, path.split('.')) === undefined) continue;
    sources[path] = entries.get(path)?.source ?? { kind: 'default' };
  }
  return sources;
}

export function valueAt(config: Config, segments: readonly string[]): unknown {
  let current: unknown = config;
  for (const segment of segments) {
    if (!isPlainObject(current)) return undefined;
    current = current[segment];
  }
  return current;
}
