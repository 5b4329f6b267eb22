/** Every CLI command, registered in the order `--help` lists them. Each lives in a file of its own. */
import type { Command } from 'commander';
import type { CliContext } from '../io.js';

export function registerCommands(program: Command, context: CliContext): void {
  void program;
  void context;
}
