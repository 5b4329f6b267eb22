/**
 * `sightline report`: the HTML file and the animation written from a stored session, and every way it can be
 * asked wrongly (no such session, no file named, a file it cannot write, a bad size) exits 2 with a message
 * that says what to do.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Storage } from '../../src/main/storage/index.js';
import { runSightline } from '../helpers/cli-io.js';
import { createTemporaryHome, openHomeStorage, type TemporaryHome } from '../helpers/seed.js';
import { failingFlow, type SeededFlow } from '../helpers/report-sessions.js';

let home: TemporaryHome;
let storage: Storage;
let flow: SeededFlow;
let out: string;

beforeAll(async () => {
  home = createTemporaryHome('sightline-cli-report');
  storage = openHomeStorage(home);
  flow = await failingFlow(storage);
  storage.close();
  out = join(home.root, 'out');
  mkdirSync(out);
});

afterAll(() => home.remove());

const report = (...argv: string[]) => runSightline(['--home', home.root, 'report', ...argv], {});

describe('sightline report', () => {
  it('writes the session as one HTML file', async () => {
    const file = join(out, 'session.html');
    const run = await report(flow.session.id, '--html', file);
    expect(run.exitCode, run.stderr).toBe(0);
    const html = readFileSync(file, 'utf8');
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).toContain('a toast says the invite was sent');
    expect(run.stderr).toContain(`wrote ${file}`);
    // A file the person asked for follows their umask, as a file this process writes plainly does.
    const probe = join(out, 'probe.txt');
    writeFileSync(probe, '');
    expect(statSync(file).mode & 0o777).toBe(statSync(probe).mode & 0o777);
  });

  it('writes an animated GIF of the settled frames, one per step, under the cap', async () => {
    const file = join(out, 'session.gif');
    const run = await report(flow.session.id.replace('ses_', ''), '--gif', file, '--max-size', '2MB');
    expect(run.exitCode, run.stderr).toBe(0);
    const bytes = readFileSync(file);
    expect(bytes.byteLength).toBeLessThanOrEqual(2 * 1024 * 1024);
    const metadata = await sharp(bytes, { animated: true }).metadata();
    expect(metadata.format).toBe('gif');
    expect(metadata.pages).toBe(3);
    expect(metadata.loop).toBe(0);
  });

  it('writes an animated WebP when the file says .webp', async () => {
    const file = join(out, 'session.webp');
    const run = await report(flow.session.id, '--gif', file);
    expect(run.exitCode, run.stderr).toBe(0);
    const metadata = await sharp(readFileSync(file), { animated: true }).metadata();
    expect([metadata.format, metadata.pages]).toEqual(['webp', 3]);
  });

  it('exits 2 for a session that is not there', async () => {
    const run = await report('ses_0123456789ab', '--html', join(out, 'missing.html'));
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('no session ses_0123456789ab in');
    expect(run.stderr).toContain('sightline sessions ls');
    expect(existsSync(join(out, 'missing.html'))).toBe(false);
  });

  it('exits 2 when nothing is asked for, or the size or the file name is wrong', async () => {
    expect((await report(flow.session.id)).stderr).toContain('say what to write: --html FILE, --gif FILE, or both.');
    const size = await report(flow.session.id, '--html', join(out, 'a.html'), '--max-size', 'lots');
    expect([size.exitCode, size.stderr.includes('--max-size: expected a size')]).toEqual([2, true]);
    const gif = await report(flow.session.id, '--gif', join(out, 'a.png'));
    expect([gif.exitCode, gif.stderr.includes('--gif: name the file .gif or .webp')]).toEqual([2, true]);
    const notAnId = await report('yesterday', '--html', join(out, 'a.html'));
    expect([notAnId.exitCode, notAnId.stderr.includes('is not a session id')]).toEqual([2, true]);
  });

  it('exits 2 with the reason when the file cannot be written', async () => {
    const noFolder = await report(flow.session.id, '--html', join(out, 'no-such-folder', 'r.html'));
    expect(noFolder.exitCode).toBe(2);
    expect(noFolder.stderr).toContain(`--html: the folder ${join(out, 'no-such-folder')} does not exist.`);
    const folder = await report(flow.session.id, '--html', out);
    expect([folder.exitCode, folder.stderr.includes('is a folder; give a file name')]).toEqual([2, true]);
    // A folder no one may write in, root included.
    const proc = await report(flow.session.id, '--html', '/proc/sightline-report.html');
    expect(proc.exitCode).toBe(2);
    expect(proc.stderr).toMatch(/--html: could not write \/proc\/sightline-report\.html \(E[A-Z]+: /);
    if (process.getuid?.() !== 0) {
      const locked = join(home.root, 'locked');
      mkdirSync(locked, { mode: 0o500 });
      const refused = await report(flow.session.id, '--html', join(locked, 'r.html'));
      chmodSync(locked, 0o700);
      expect(refused.exitCode).toBe(2);
      expect(refused.stderr).toMatch(/--html: could not write .*r\.html \(EACCES/);
    }
  });
});
