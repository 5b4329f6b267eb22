/**
 * How every command finds its home folder and loads its configuration, the same way: the global
 * `--home` option (else SIGHTLINE_HOME, else ~/.sightline), then config.json < environment < the
 * command's own flags. A configuration problem is the user's to fix, so it becomes a UserError (exit 2)
 * whose message lists every bad field.
 */
import type { Command } from 'commander';
import { ConfigError } from '../config/errors.js';
import { resolveHome, type SightlineHome } from '../config/home.js';
import { loadConfig, type LoadedConfig } from '../config/load.js';
import type { ConfigFlags } from '../config/entries.js';
import { EXIT, UserError, type CliIo } from './io.js';

export interface CliConfig extends LoadedConfig {
  home: SightlineHome;
}

/** The home folder chosen for this invocation; nothing is created. */
export function resolveCliHome(command: Command, io: CliIo): SightlineHome {
  const options = command.optsWithGlobals<{ home?: string }>();
  return resolveHome({ flag: options.home, env: io.env, cwd: io.cwd });
}

/**
 * @param flags dotted config paths to the values of this command's options, e.g. `{'model.name': options.model}`;
 *   options that were not given are undefined and ignored.
 * @param flagNames how those options are spelled (`{'model.name': '--model'}`), so errors name the flag typed.
 */
export function loadCliConfig(
  command: Command,
  io: CliIo,
  flags: ConfigFlags = {},
  flagNames: Readonly<Record<string, string>> = {},
): CliConfig {
  const home = resolveCliHome(command, io);
  try {
    return { home, ...loadConfig({ home, env: io.env, flags, flagNames }) };
  } catch (error) {
    if (error instanceof ConfigError) throw new UserError(error.message, EXIT.usage);
    throw error;
  }
}
