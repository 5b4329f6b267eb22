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
});
