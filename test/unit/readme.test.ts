/**
 * The README is the user's manual; it must not fall behind the code. Every config field, its environment
 * variable, and every CLI command must be documented there.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/main/cli/program.js';
import { CONFIG_FIELDS, ENVIRONMENT_ALIASES } from '../../src/main/config/fields.js';
import { captureIo } from '../helpers/cli-io.js';

const readme = readFileSync(resolve(import.meta.dirname, '../../README.md'), 'utf8');

function commandPaths(command: Command, prefix: string[] = []): string[] {
  return command.commands
    .filter((child) => child.name() !== 'help')
    .flatMap((child) => {
      const path = [...prefix, child.name()];
      return child.commands.length > 0 ? commandPaths(child, path) : [path.join(' ')];
    });
}

describe('the README', () => {
  it('documents every config field with its environment variable', () => {
    const aliasFor = Object.fromEntries(Object.entries(ENVIRONMENT_ALIASES).map(([variable, path]) => [path, variable]));
    for (const field of CONFIG_FIELDS) {
      const row = readme.split('\n').find((line) => line.startsWith(`| \`${field.path}\` |`));
      expect(row, `README config table row for ${field.path}`).toBeDefined();
      expect(row).toContain(aliasFor[field.path] ?? field.environmentVariable);
    }
  });

  it('documents every CLI command', () => {
    const program = buildProgram({ io: captureIo(), exitCode: 0 });
    const paths = commandPaths(program);
    expect(paths.length).toBeGreaterThan(3);
    for (const path of paths) expect(readme, `README mentions sightline ${path}`).toContain(`sightline ${path}`);
  });
});
