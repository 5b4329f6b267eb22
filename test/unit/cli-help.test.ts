/** What `--help` says: each option's default once, in words a person can use. */
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/main/cli/program.js';
import { captureIo, runSightline } from '../helpers/cli-io.js';

function everyCommand(command: Command): Command[] {
  return command.commands.flatMap((child) => [child, ...everyCommand(child)]);
}

describe('sightline --help', () => {
  it('says the default of timeline --port once, in words', async () => {
    const help = await runSightline(['timeline', '--help']);
    expect(help.exitCode).toBe(0);
    const portLine = help.stdout.split('\n').find((line) => line.trimStart().startsWith('--port'));
    expect(portLine).toMatch(/^\s+--port <number>\s+port to listen on \(default: a free one\)$/);
  });

  it('names no default twice in the help of any command', () => {
    const program = buildProgram({ io: captureIo(), exitCode: 0 });
    for (const command of everyCommand(program)) {
      const doubled = command.helpInformation().split('\n').filter((line) => (line.match(/\(default:/g) ?? []).length > 1);
      expect(doubled, `sightline ${command.name()} --help`).toEqual([]);
    }
  });

  it('`sightline help` is asked-for help (exit 0); a command group without its subcommand is a usage error (exit 2)', async () => {
    const help = await runSightline(['help']);
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toContain('Usage: sightline');
    expect((await runSightline(['help', 'flow'])).exitCode).toBe(0);
    const queue = await runSightline(['queue']);
    expect(queue.exitCode).toBe(2);
    expect(queue.stderr).toContain('ls');
  });

  it("every command's help shows the global --home, and queue's description names its real subcommands", async () => {
    const program = buildProgram({ io: captureIo(), exitCode: 0 });
    for (const command of everyCommand(program)) {
      const help = await runSightline([...commandPath(command), '--help']);
      expect(help.stdout, `sightline ${commandPath(command).join(' ')} --help`).toMatch(/^\s+--home <dir>/m);
    }
    const queue = program.commands.find((command) => command.name() === 'queue')!;
    const named = queue.commands.map((command) => command.name());
    for (const word of queue.description().split(': ')[1]!.split(', ')) expect(named).toContain(word);
  });
});

function commandPath(command: Command): string[] {
  const names: string[] = [];
  for (let at: Command | null = command; at?.parent; at = at.parent) names.unshift(at.name());
  return names;
}
