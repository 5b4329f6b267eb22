/**
 * The Electron side of auto-update (issue 18, item 4): it stays thin, so this only checks the wiring. The
 * feed is app-update.yml in the app's resources, the question goes through the dialog (on the window when
 * there is one), and the clicked button decides the restart. electron and electron-updater are fakes.
 */
import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

class FakeAutoUpdater extends EventEmitter {
  autoDownload = false;
  autoInstallOnAppQuit = false;
  checks = 0;
  installs = 0;
  async checkForUpdates(): Promise<null> {
    this.checks += 1;
    return null;
  }
  quitAndInstall(): void {
    this.installs += 1;
  }
}

const fakeAutoUpdater = vi.hoisted(() => ({ current: undefined as unknown }));

vi.mock('electron', async () => (await import('../helpers/fake-electron.js')).fakeElectronModule);
vi.mock('electron-updater', () => ({ default: { get autoUpdater() { return fakeAutoUpdater.current; } } }));

const { fakeElectron, resetFakeElectron, FakeBrowserWindow } = await import('../helpers/fake-electron.js');
const { startUpdates } = await import('../../src/main/electron/app-updates.js');

let resources: string;
let updater: FakeAutoUpdater;
const processWithResources = process as { resourcesPath?: string };

beforeEach(() => {
  resetFakeElectron();
  resources = mkdtempSync(join(tmpdir(), 'sightline-resources-'));
  processWithResources.resourcesPath = resources;
  updater = new FakeAutoUpdater();
  fakeAutoUpdater.current = updater;
});

afterEach(() => {
  delete processWithResources.resourcesPath;
  rmSync(resources, { recursive: true, force: true });
});

async function settle(): Promise<void> {
  for (let round = 0; round < 10; round += 1) await Promise.resolve();
}

describe('the app’s updates under Electron', () => {
  it('stay off when the packaged app has no app-update.yml', async () => {
    const updates = await startUpdates(() => null);
    expect(updates).toMatchObject({ enabled: false, reason: expect.stringMatching(/no update feed/) });
    expect(updater.checks).toBe(0);
  });

  it('stay off under npm start, even with a feed', async () => {
    writeFileSync(join(resources, 'app-update.yml'), 'provider: generic\nurl: https://downloads.example.com/\n');
    fakeElectron.app.isPackaged = false;
    expect(await startUpdates(() => null)).toMatchObject({ enabled: false, reason: expect.stringMatching(/development/) });
  });

  it('check with a feed, ask on the window, and restart only on “Restart now”', async () => {
    writeFileSync(join(resources, 'app-update.yml'), 'provider: generic\nurl: https://downloads.example.com/\n');
    const window = new FakeBrowserWindow({});
    const updates = await startUpdates(() => window as never);
    expect(updates.enabled).toBe(true);
    expect(updater.checks).toBe(1);

    fakeElectron.dialog.nextResponse = 1;
    updater.emit('update-downloaded', { version: '0.2.0' });
    await settle();
    expect(fakeElectron.dialog.shown).toHaveLength(1);
    expect(fakeElectron.dialog.shown[0]!.window).toBe(window);
    expect(fakeElectron.dialog.shown[0]!.options).toMatchObject({ message: 'Sightline 0.2.0 is ready to install.' });
    expect(updater.installs).toBe(0);

    fakeElectron.dialog.nextResponse = 0;
    updater.emit('update-downloaded', { version: '0.3.0' });
    await settle();
    expect(updater.installs).toBe(1);
    if (updates.enabled) updates.stop();
  });
});
