/**
 * Ctrl+C through `npx sightline` (issue 38, part 2): the installed package's bin, run by npx as a person runs it,
 * the Ctrl+C sent to the whole process group as a terminal sends it. npm forwards the one it got to its child,
 * which got it from the terminal too; one Ctrl+C must stay one, and the run exit 3 (stopped), not 130.
 *
 * npm's script shell is bash here, as on macOS (its sh is bash): bash runs the command in its own place, so the
 * forwarded copy reaches sightline. Debian's sh (dash) stays in between and dies of the Ctrl+C itself, which npm
 * reports as 130 whatever sightline exits with (docs/cli.md says so).
 *
 * The click is held by the latch page while both signals land, so the stop cannot end the turn before the copy
 * arrives; it is held for the window in which sightline takes a second Ctrl+C for npm's copy.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORWARDED_COPY_MS } from '../../src/main/cli/run/interrupts.js';
import { builtCli } from '../helpers/built-cli.js';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../helpers/fake-openai-server.js';
import { startLatchPage } from '../helpers/latch-page.js';
import { scriptedMoves } from '../helpers/scripted-computer-model.js';
import { createTemporaryHome, type TemporaryHome } from '../helpers/seed.js';
import { CLI_TEST_MS, scaledLimit } from '../helpers/time-limits.js';
import { waitFor } from '../helpers/wait-for.js';

const ROOT = resolve(import.meta.dirname, '../..');
let project: string;
let home: TemporaryHome;
let model: FakeOpenAiServer;

beforeAll(async () => {
  // A project with sightline installed: the package's bin, its out/main/cli.js the bundle under test.
  project = mkdtempSync(join(tmpdir(), 'sightline-npx-'));
  const installed = join(project, 'node_modules/sightline');
  mkdirSync(join(installed, 'bin'), { recursive: true });
  mkdirSync(join(installed, 'out/main'), { recursive: true });
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }));
  writeFileSync(join(installed, 'package.json'), JSON.stringify({ name: 'sightline', version: '0.1.0', type: 'module', bin: { sightline: './bin/sightline.js' } }));
  copyFileSync(join(ROOT, 'bin/sightline.js'), join(installed, 'bin/sightline.js'));
  symlinkSync(builtCli(), join(installed, 'out/main/cli.js'));
  mkdirSync(join(project, 'node_modules/.bin'));
  symlinkSync('../sightline/bin/sightline.js', join(project, 'node_modules/.bin/sightline'));
  home = createTemporaryHome('sightline-npx-interrupt');
  model = await startFakeOpenAiServer();
});

afterAll(async () => {
  await model?.close();
  home?.remove();
  if (project !== undefined) rmSync(project, { recursive: true, force: true });
});

describe('Ctrl+C through npx sightline', () => {
  it('exits 3, the code sightline chose, when the terminal and npm both deliver the one Ctrl+C', { timeout: scaledLimit(CLI_TEST_MS) }, async () => {
    const latch = await startLatchPage();
    try {
      model.script(scriptedMoves([{ action: { action: 'click', x: 400, y: 300 } }, { finish: 'Clicked.' }]));
      const modelSetting = (name: string) => /^(OPENAI_|ANTHROPIC_|SIGHTLINE_|GEMINI_|GOOGLE_)/.test(name);
      const env = { ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !modelSetting(name))), npm_config_script_shell: 'bash', npm_config_update_notifier: 'false' };
      const args = ['--home', home.root, 'run', 'Click the button', '--operator', 'browser', '--url', latch.url, '--base-url', model.baseUrl];
      // Its own process group, which the test signals as a terminal signals its foreground group.
      const child = spawn('npx', ['--no-install', 'sightline', ...args], { cwd: project, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolveExit) => child.once('close', (code, signal) => resolveExit({ code, signal })));
      const exitedEarly = exited.then((exit) => Promise.reject(new Error(`npx sightline exited (${exit.code}) before the click:\n${stderr}`)));
      await Promise.race([latch.reached, exitedEarly]);
      process.kill(-child.pid!, 'SIGINT');
      await waitFor(() => stderr.includes('stopping'), { description: 'the Ctrl+C to be taken', timeoutMs: scaledLimit(60_000) });
      // Held for the window in which a second Ctrl+C is npm's copy: before the fix, the copy quit at once (130) here.
      const quitEarly = await Promise.race([exited.then(() => true), delay(FORWARDED_COPY_MS).then(() => false)]);
      expect(quitEarly, stderr).toBe(false);
      latch.release();
      const exit = await exited;
      expect(exit, stderr).toEqual({ code: 3, signal: null });
      expect(stderr).not.toContain('quitting at once');
    } finally {
      await latch.close();
    }
  });
});
