/**
 * Every command's `--help` and docs/cli.md say the same: each command the CLI has is a row of the docs'
 * table and each row a command; each flag a command takes is in its row and each flag its row names is
 * one the command takes. Flags several commands share read the same in every `--help`
 * (src/main/cli/option-help.ts), so a person who learned `--yes` on run is not told something else on mcp.
 */
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/main/cli/program.js';
import { BASE_URL_HELP, YES_HELP } from '../../src/main/cli/option-help.js';

const io = { stdout: () => undefined, stderr: () => undefined, env: {}, cwd: process.cwd(), isInteractive: false };
const program = buildProgram({ io, exitCode: 0 });

/** Commands that run something (the leaves), named as the docs name them: "sightline queue ls". */
function leaves(command: Command, path: string[] = []): { name: string; command: Command }[] {
  return command.commands.flatMap((child) => {
    const childPath = [...path, child.name()];
    return child.commands.length === 0 ? [{ name: `sightline ${childPath.join(' ')}`, command: child }] : leaves(child, childPath);
  });
}

/** docs/cli.md's command table: each row's command cell, keyed by the command's words before its first argument. */
function documentedRows(): Map<string, string> {
  const text = readFileSync(new URL('../../docs/cli.md', import.meta.url), 'utf8');
  const rows = new Map<string, string>();
  for (const line of text.split('\n')) {
    const cell = /^\| `(sightline [^`]*)` \|/.exec(line)?.[1];
    if (cell === undefined) continue;
    // "sightline queue ls [--queue URL] …" → "sightline queue ls": the lower-case words before the first argument.
    const name = /^sightline(?: [a-z]+)*/.exec(cell)![0];
    rows.set(name, cell);
  }
  return rows;
}

const commands = leaves(program);
const rows = documentedRows();

describe('sightline --help and docs/cli.md', () => {
  it('name the same commands', () => {
    expect([...rows.keys()].sort()).toEqual(commands.map(({ name }) => name).sort());
  });

  it.each(commands.map(({ name, command }) => [name, command] as const))('%s: its flags are its row\'s flags', (name, command) => {
    const row = rows.get(name) ?? '';
    const flags = command.options.map((option) => option.long).filter((flag): flag is string => flag !== undefined).sort();
    const documented = [...new Set([...row.matchAll(/--[a-z][a-z-]*/g)].map((match) => match[0]))].sort();
    expect(documented).toEqual(flags);
  });

  it('words each shared flag one way', () => {
    const help = (flag: string) =>
      commands.flatMap(({ name, command }) => command.options.filter((option) => option.long === flag).map((option) => [name, option.description] as const));
    for (const [, description] of help('--yes')) expect(description).toBe(YES_HELP);
    for (const [, description] of help('--base-url')) expect(description).toBe(BASE_URL_HELP);
    for (const [name, description] of help('--json')) expect(description, name).toMatch(/^print JSON for scripts: /);
    for (const [name, description] of help('--limit')) expect(description, name).toMatch(/^show at most this many .+ \(default \d+\)$/);
    expect(help('--yes').length).toBeGreaterThanOrEqual(4);
    expect(help('--json').length).toBeGreaterThanOrEqual(10);
  });

  it('says --max-cost bounds what the code bounds: the turn for run, each flow for flow', () => {
    const maxCost = (name: string) => commands.find((command) => command.name === name)!.command.options.find((option) => option.long === '--max-cost')!.description;
    expect(maxCost('sightline run')).toMatch(/the turn/);
    expect(maxCost('sightline flow')).toMatch(/each flow/);
  });
});
