/**
 * The reference pages are the user's manual; they must not fall behind the code. Every config field, with
 * its environment variables, has its row in docs/configuration.md; every CLI command has its row in
 * docs/cli.md, naming each of its flags. The README is the front door: it links every page of docs/.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/main/cli/program.js';
import { CONFIG_FIELDS, ENVIRONMENT_ALIASES, PROVIDER_ENVIRONMENT_ALIASES } from '../../src/main/config/fields.js';
import { captureIo } from '../helpers/cli-io.js';

const ROOT = resolve(import.meta.dirname, '../..');
const read = (file: string): string => readFileSync(resolve(ROOT, file), 'utf8');

/** Each leaf command with its path (`sessions ls`), help excluded. */
function leafCommands(command: Command, prefix: string[] = []): { path: string; command: Command }[] {
  return command.commands
    .filter((child) => child.name() !== 'help')
    .flatMap((child) => {
      const path = [...prefix, child.name()];
      return child.commands.length > 0 ? leafCommands(child, path) : [{ path: path.join(' '), command: child }];
    });
}

/** The table row whose first cell starts with `start`, or undefined. */
function rowStartingWith(page: string, start: string): string | undefined {
  return page.split('\n').find((line) => line.startsWith(start));
}

describe('the reference pages', () => {
  it('give every config field a row in docs/configuration.md, with each environment variable that sets it', () => {
    const configuration = read('docs/configuration.md');
    const aliasOf = new Map(Object.entries(ENVIRONMENT_ALIASES).map(([variable, path]) => [path, variable]));
    const providerVariables = Object.entries(PROVIDER_ENVIRONMENT_ALIASES);
    for (const field of CONFIG_FIELDS) {
      const row = rowStartingWith(configuration, `| \`${field.path}\` |`);
      expect(row, `docs/configuration.md row for ${field.path}`).toBeDefined();
      const variables = [
        aliasOf.get(field.path) ?? field.environmentVariable,
        ...providerVariables.filter(([, alias]) => alias.path === field.path).map(([variable]) => variable),
      ];
      for (const variable of variables) expect(row, `${field.path} names ${variable}`).toContain(variable);
    }
  });

  it('give every CLI command a row in docs/cli.md that names each of its flags', () => {
    const cli = read('docs/cli.md');
    const program = buildProgram({ io: captureIo(), exitCode: 0 });
    const commands = leafCommands(program);
    expect(commands.length).toBeGreaterThan(3);
    for (const { path, command } of commands) {
      const row = [' ', '`'].map((end) => rowStartingWith(cli, `| \`sightline ${path}${end}`)).find((found) => found !== undefined);
      expect(row, `docs/cli.md row for sightline ${path}`).toBeDefined();
      for (const option of command.options) expect(row, `sightline ${path} ${option.long}`).toContain(option.long);
    }
    for (const option of program.options) expect(cli, `docs/cli.md names ${option.long}`).toContain(option.long);
  });

  it('are each linked from the README', () => {
    const readme = read('README.md');
    // One decision per file under docs/decisions/: the README links their index, which links each of them.
    const pages = execFileSync('git', ['ls-files', 'docs/*.md'], { cwd: ROOT, encoding: 'utf8' })
      .split('\n')
      .filter((file) => file !== '' && !(file.startsWith('docs/decisions/') && file !== 'docs/decisions/README.md'));
    expect(pages.length).toBeGreaterThan(2);
    for (const page of pages) expect(readme, `README links ${page}`).toContain(`](${page})`);
  });
});
