/**
 * The stop indicator's window and preload, and the emergency stop in the app's lifecycle, against the fake
 * electron module: the window is small, frameless, on top and as sandboxed as the main one; its page gets
 * Stop and the state only; the app installs the shortcut and the tray once its data is open and takes
 * them down when it quits.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeElectron, resetFakeElectron, useAppLifecycleHome } from '../helpers/fake-electron.js';
import { hardenedWebPreferences } from '../../src/main/electron/security-policy.js';
import { STOP_INDICATOR_SIZE, stopIndicatorBounds, stopIndicatorPreloadPath, stopIndicatorUrl, stopIndicatorWindowOptions } from '../../src/main/electron/stop-indicator-options.js';
import { STOP_INDICATOR_STATE_CHANNEL, STOP_INDICATOR_STOP_CHANNEL } from '../../src/shared/stop-indicator.js';
import { startApp } from '../../src/main/electron/app-lifecycle.js';
import { defaultStopAccelerator } from '../../src/shared/stop-shortcut.js';

vi.mock('electron', async () => (await import('../helpers/fake-electron.js')).fakeElectronModule);

describe('the indicator window', () => {
  it('loads its own page beside the app’s, built or from the dev server, with its own preload', () => {
    expect(stopIndicatorUrl({ entryUrl: 'file:///opt/sightline/out/renderer/index.html', devServerUrl: null })).toBe('file:///opt/sightline/out/renderer/stop-indicator.html');
    expect(stopIndicatorUrl({ entryUrl: 'http://localhost:5173/', devServerUrl: 'http://localhost:5173/' })).toBe('http://localhost:5173/stop-indicator.html');
    expect(stopIndicatorPreloadPath('/opt/sightline')).toBe('/opt/sightline/out/preload/stop-indicator.cjs');
  });

  it('is small, frameless, on top, out of the taskbar, shown only when asked, and hardened like the main window', () => {
    const bounds = stopIndicatorBounds({ x: 100, y: 30, width: 1920, height: 1040 });
    expect(bounds).toEqual({ x: 100 + 1920 - STOP_INDICATOR_SIZE.width - 16, y: 46, ...STOP_INDICATOR_SIZE });
    const options = stopIndicatorWindowOptions('/p/stop-indicator.cjs', bounds);
    expect(options).toMatchObject({ frame: false, alwaysOnTop: true, skipTaskbar: true, show: false, resizable: false, ...bounds });
    expect(options.webPreferences).toEqual(hardenedWebPreferences('/p/stop-indicator.cjs'));
  });
});

describe('the indicator preload', () => {
  beforeEach(() => {
    resetFakeElectron();
    vi.resetModules();
  });

  it('exposes Stop and onState only: Stop invokes its channel with no arguments, onState hands over the state alone', async () => {
    await import('../../src/preload/stop-indicator.js');
    const bridge = fakeElectron.exposedInMainWorld.get('sightlineStopIndicator') as {
      stop: (...ignored: unknown[]) => Promise<unknown>;
      onState: (listener: (state: unknown) => void) => () => void;
    };
    expect(Object.keys(bridge).sort()).toEqual(['onState', 'stop']);
    expect(fakeElectron.exposedInMainWorld.has('sightline')).toBe(false);
    await bridge.stop('smuggled');
    expect(fakeElectron.ipcRenderer.invoke.mock.calls).toEqual([[STOP_INDICATOR_STOP_CHANNEL]]);
    const received: unknown[] = [];
    const unsubscribe = bridge.onState((state) => received.push(state));
    fakeElectron.ipcRenderer.emit(STOP_INDICATOR_STATE_CHANNEL, { sender: 'electron internals' }, { phase: 'acting' });
    unsubscribe();
    fakeElectron.ipcRenderer.emit(STOP_INDICATOR_STATE_CHANNEL, { sender: 'electron internals' }, { phase: 'late' });
    expect(received).toEqual([{ phase: 'acting' }]);
  });
});

describe('the emergency stop in the app lifecycle', () => {
  useAppLifecycleHome('sightline-stop-home-');

  it('registers the shortcut and the tray once the data is open, with no indicator window until a run starts, and takes them down on quit', async () => {
    startApp();
    await fakeElectron.app.becomeReady();
    const accelerator = defaultStopAccelerator(process.platform);
    await vi.waitFor(() => expect(fakeElectron.globalShortcut.isRegistered(accelerator)).toBe(true));
    expect(fakeElectron.trays).toHaveLength(1);
    expect(fakeElectron.ipcMain.handlers.has(STOP_INDICATOR_STOP_CHANNEL)).toBe(true);
    // Only the main window: closing it still quits on Linux and Windows.
    expect(fakeElectron.windows).toHaveLength(1);

    fakeElectron.app.emit('before-quit', { preventDefault: () => undefined });
    await vi.waitFor(() => expect(fakeElectron.app.quit).toHaveBeenCalled());
    expect(fakeElectron.globalShortcut.isRegistered(accelerator)).toBe(false);
    expect(fakeElectron.trays[0]?.destroyed).toBe(true);
    expect(fakeElectron.ipcMain.handlers.has(STOP_INDICATOR_STOP_CHANNEL)).toBe(false);
  });
});
