/**
 * Every `sightline` command starts at once (issue 36, part 3): printing help or the version loads commander and
 * zod, not the browser driver, the image library, the queue, the team store's clients or a model SDK. Those load
 * when a command that needs them runs. The built CLI is spawned as the bin runs it (test/helpers/built-cli.ts), and
 * a module hook inside the child notes every package it loads (test/helpers/module-loads.ts).
 */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtCli } from '../helpers/built-cli.js';
import { heavyPackageOf } from '../helpers/cli-bundle.js';
import { packagesLoaded } from '../helpers/module-loads.js';
import { createTemporaryHome } from '../helpers/seed.js';
import { CLI_TEST_MS, scaledLimit } from '../helpers/time-limits.js';

const ROOT = resolve(import.meta.dirname, '../..');
const FRAME = resolve(ROOT, 'test/fixtures/frames/03-type-one-char-a.png');

async function sightline(...args: string[]) {
  const home = createTemporaryHome('sightline-startup');
  try {
    return await packagesLoaded(process.execPath, [builtCli(), '--home', home.root, ...args], { cwd: ROOT });
  } finally {
    home.remove();
  }
}

describe('sightline starts without its heavy packages', () => {
  it.each(['--help', '--version', 'flow --help', 'worker --help', 'sessions ls --help'])(
    '`sightline %s` loads only what printing needs',
    { timeout: scaledLimit(CLI_TEST_MS) },
    async (command) => {
      const run = await sightline(...command.split(' '));
      expect(run.code, run.output).toBe(0);
      expect(run.stdout).not.toBe('');
      // The record sees packages at all: commander parses every command line.
      expect(run.packages).toContain('commander');
      expect(run.packages.filter((name) => heavyPackageOf(name) !== undefined)).toEqual([]);
    },
  );

  it('loads a heavy package once a command that needs it runs: frames hash decodes with sharp', { timeout: scaledLimit(CLI_TEST_MS) }, async () => {
    const run = await sightline('frames', 'hash', FRAME);
    expect(run.code, run.output).toBe(0);
    expect(run.stdout).toMatch(/^[0-9a-f]{16}\n$/);
    expect(run.packages).toContain('sharp');
    // Still only the one it needs: no model SDK, no browser, no queue.
    expect(run.packages).not.toContain('playwright-core');
    expect(run.packages).not.toContain('openai');
    expect(run.packages).not.toContain('bullmq');
  });
});
