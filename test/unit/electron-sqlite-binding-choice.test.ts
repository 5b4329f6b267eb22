/**
 * The desktop app opens its database with the better-sqlite3 build its runtime needs (issue 18, item 1):
 * from a checkout under Electron, the side folder's; packaged, the rebuilt default. Electron is the fake
 * module and `process.versions.electron` is set for the test; Node's own build, copied into the side folder
 * with a manifest for Node's ABI, stands in for Electron's, so the database really opens through it.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeElectron, resetFakeElectron } from '../helpers/fake-electron.js';
import { startAppBackend } from '../../src/main/electron/app-backend.js';
import { electronBindingFolder, sha256 } from '../../src/main/storage/sqlite-binding.js';

vi.mock('electron', async () => (await import('../helpers/fake-electron.js')).fakeElectronModule);

const ELECTRON_VERSION = '41.7.1';
const nodeBuild = join(createRequire(import.meta.url).resolve('better-sqlite3/package.json'), '..', 'build', 'Release', 'better_sqlite3.node');

let checkout: string;
let homeRoot: string;

function provideSideFolderBuild(): void {
  const target = { projectRoot: checkout, electronVersion: ELECTRON_VERSION, arch: process.arch, moduleVersion: process.versions.modules };
  const folder = electronBindingFolder(target);
  mkdirSync(folder, { recursive: true });
  copyFileSync(nodeBuild, join(folder, 'better_sqlite3.node'));
  const bytes = readFileSync(nodeBuild);
  const manifest = { ...target, betterSqliteVersion: '12.11.1', sha256: sha256(bytes), bytes: bytes.length, builtWith: 'prebuild-install' };
  delete (manifest as { projectRoot?: string }).projectRoot;
  writeFileSync(join(folder, 'binding.json'), JSON.stringify(manifest));
}

beforeEach(() => {
  resetFakeElectron();
  checkout = mkdtempSync(join(tmpdir(), 'sightline-checkout-'));
  mkdirSync(join(checkout, 'node_modules', 'better-sqlite3'), { recursive: true });
  writeFileSync(join(checkout, 'node_modules', 'better-sqlite3', 'package.json'), JSON.stringify({ version: '12.11.1' }));
  homeRoot = mkdtempSync(join(tmpdir(), 'sightline-binding-home-'));
  vi.stubEnv('SIGHTLINE_HOME', homeRoot);
  Object.defineProperty(process.versions, 'electron', { value: ELECTRON_VERSION, configurable: true });
  fakeElectron.app.appPath = checkout;
});

afterEach(() => {
  delete (process.versions as { electron?: string }).electron;
  vi.unstubAllEnvs();
  rmSync(checkout, { recursive: true, force: true });
  rmSync(homeRoot, { recursive: true, force: true });
});

describe('the desktop app’s SQLite build', () => {
  it('from a checkout, is the side folder’s: the database opens through it', async () => {
    fakeElectron.app.isPackaged = false;
    provideSideFolderBuild();
    const backend = startAppBackend(() => null);
    try {
      await expect(backend.implementation.getKeyStatus()).resolves.toMatchObject({ canSave: true });
    } finally {
      await backend.close();
    }
  });

  it('from a checkout without it, fails to open with the command that builds it', async () => {
    fakeElectron.app.isPackaged = false;
    const backend = startAppBackend(() => null);
    try {
      await expect(backend.implementation.getKeyStatus()).rejects.toMatchObject({
        code: 'unavailable',
        message: expect.stringMatching(/SQLite is not built for this Electron yet.*Run `npm run native:electron`/),
      });
    } finally {
      await backend.close();
    }
  });

  it('packaged, is the one electron-builder rebuilt, with no side folder anywhere', async () => {
    fakeElectron.app.isPackaged = true;
    const backend = startAppBackend(() => null);
    try {
      await expect(backend.implementation.getKeyStatus()).resolves.toMatchObject({ canSave: true });
    } finally {
      await backend.close();
    }
  });
});
