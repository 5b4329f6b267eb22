/**
 * Issue 17, finding 4: the home, its database (with -wal and -shm), image files and cold storage are
 * readable by their owner only on Unix; an older home's database and image folders are narrowed when
 * opened; an existing home open to others is reported by `doctor` and `run` with the chmod that closes it.
 */
import { chmodSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { homeAt } from '../../src/main/config/home.js';
import { homePrivacyWarning } from '../../src/main/cli/home-privacy.js';
import { runSightline } from '../helpers/cli-io.js';
import { createTemporaryHome, makePng, openHomeStorage, type TemporaryHome } from '../helpers/seed.js';

let parent: TemporaryHome;
beforeEach(() => {
  parent = createTemporaryHome('sightline-file-modes');
});
afterEach(() => {
  parent.remove();
});

function modeOf(path: string): string {
  return (statSync(path).mode & 0o777).toString(8);
}

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

describe.skipIf(process.platform === 'win32')('file modes of the home', () => {
  it('creates the home 700, the database with its -wal and -shm 600, image files 600 hot and cold', async () => {
    const home = homeAt(join(parent.root, 'new-home'));
    const storage = openHomeStorage(home);
    try {
      const session = storage.sessions.create({ title: 'modes' });
      const turn = storage.turns.start({ sessionId: session.id, userRequest: 'look' });
      const image = await storage.images.put({
        sessionId: session.id,
        turnId: turn.id,
        bytes: await makePng({ seed: 1 }),
        mime: 'image/png',
        width: 64,
        height: 48,
        source: 'screen',
      });
      await storage.images.put({
        sessionId: session.id,
        turnId: turn.id,
        bytes: await makePng({ seed: 2 }),
        mime: 'image/png',
        width: 64,
        height: 48,
        source: 'screen',
      });
      await storage.blobs.archive(image.sha256, image.mime);

      expect(modeOf(home.root)).toBe('700');
      for (const file of [home.databaseFile, `${home.databaseFile}-wal`, `${home.databaseFile}-shm`]) {
        expect(existsSync(file), file).toBe(true);
        expect(modeOf(file), file).toBe('600');
      }
      for (const folder of [home.blobsDirectory, home.coldStorageDirectory]) {
        expect(modeOf(folder), folder).toBe('700');
        const files = filesUnder(folder);
        expect(files.length, folder).toBeGreaterThan(0);
        for (const file of files) {
          expect(modeOf(file), file).toBe('600');
          expect(modeOf(join(file, '..')), file).toBe('700');
        }
      }
    } finally {
      storage.close();
    }
  });

  it("narrows an older home's database, -wal, -shm and image folders, and leaves the home's own mode to its owner", () => {
    const home = homeAt(join(parent.root, 'old-home'));
    mkdirSync(home.root, { mode: 0o755 });
    chmodSync(home.root, 0o755);
    const database = new BetterSqlite3(home.databaseFile);
    database.close();
    writeFileSync(`${home.databaseFile}-wal`, '');
    writeFileSync(`${home.databaseFile}-shm`, '');
    for (const folder of [home.blobsDirectory, home.coldStorageDirectory]) mkdirSync(folder, { mode: 0o755 });
    for (const path of [home.databaseFile, `${home.databaseFile}-wal`, `${home.databaseFile}-shm`]) chmodSync(path, 0o644);
    for (const folder of [home.blobsDirectory, home.coldStorageDirectory]) chmodSync(folder, 0o755);

    openHomeStorage(home).close();

    expect(modeOf(home.databaseFile)).toBe('600');
    for (const suffix of ['-wal', '-shm']) {
      const file = `${home.databaseFile}${suffix}`;
      if (existsSync(file)) expect(modeOf(file), file).toBe('600');
    }
    expect(modeOf(home.blobsDirectory)).toBe('700');
    expect(modeOf(home.coldStorageDirectory)).toBe('700');
    expect(modeOf(home.root)).toBe('755');
  });

  it('warns in doctor and in run about a home that others can read, with the chmod that fixes it', async () => {
    const root = join(parent.root, 'shared home');
    mkdirSync(root);
    chmodSync(root, 0o755);
    const fix = `chmod 700 '${root}'`;
    expect(homePrivacyWarning(root)).toBe(`warning: ${root} is open to other users (mode 755): they can read its screenshots and typed text; fix: ${fix}`);

    const doctor = JSON.parse((await runSightline(['--home', root, 'doctor', '--json'])).stdout) as {
      checks: { name: string; status: string; detail: string; fix?: string }[];
    };
    expect(doctor.checks.find((check) => check.name === 'home')).toEqual({
      name: 'home',
      status: 'warning',
      detail: `${root} is open to other users (mode 755): they can read its screenshots and typed text`,
      fix,
    });
    const text = await runSightline(['--home', root, 'doctor']);
    expect(text.stdout).toMatch(/^warning {2}home +.* is open to other users \(mode 755\)/m);
    expect(text.stdout).toContain(`fix: ${fix}`);

    // A run that stops at its first check (no key) has already said it, once, on one line.
    const run = await runSightline(['--home', root, 'run', 'look', '--base-url', 'https://api.example.com/v1']);
    expect(run.stderr.split('\n').filter((line) => line.includes('open to other users'))).toEqual([`sightline: ${homePrivacyWarning(root)}`]);

    chmodSync(root, 0o700);
    expect(homePrivacyWarning(root)).toBeUndefined();
    const closed = JSON.parse((await runSightline(['--home', root, 'doctor', '--json'])).stdout) as { checks: { name: string; status: string }[] };
    expect(closed.checks.find((check) => check.name === 'home')?.status).toBe('ok');
  });
});
