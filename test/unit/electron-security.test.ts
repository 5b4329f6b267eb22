/**
 * The Electron shell's security settings, under plain Node: first the pure policy, then the wiring of the
 * window, session, IPC, preload and app lifecycle against a fake of the electron module.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { electronCalls, fakeElectron, resetFakeElectron, type FakeBrowserWindow } from '../helpers/fake-electron.js';
import {
  contentSecurityPolicy,
  decideWindowOpen,
  hardenedWebPreferences,
  isAppUrl,
  isNavigationAllowed,
  isPermissionGranted,
  mainWindowOptions,
  PERMISSION_ALLOWLIST,
  preloadScriptPath,
  resolveRendererLocation,
  type RendererLocation,
} from '../../src/main/electron/security-policy.js';
import { createMainWindow } from '../../src/main/electron/window.js';
import { hardenSession } from '../../src/main/electron/session.js';
import { registerAppApiHandlers, type AppApiImplementation } from '../../src/main/electron/ipc.js';
import { startApp } from '../../src/main/electron/app-lifecycle.js';
import { APP_API, APP_API_CHANNELS } from '../../src/shared/app-api.js';

vi.mock('electron', async () => (await import('../helpers/fake-electron.js')).fakeElectronModule);

const FILE_ENTRY = 'file:///opt/sightline/out/renderer/index.html';
const DEV_SERVER = 'http://localhost:5173/';
const PACKAGED: RendererLocation = { entryUrl: FILE_ENTRY, devServerUrl: null };
const DEVELOPMENT: RendererLocation = { entryUrl: DEV_SERVER, devServerUrl: DEV_SERVER };

function directive(policy: string, name: string): string | undefined {
  return policy
    .split(';')
    .map((part) => part.trim())
    .find((part) => part === name || part.startsWith(`${name} `));
}

describe('security policy', () => {
  it('hardens every web preference that matters', () => {
    const preferences = hardenedWebPreferences('/app/out/preload/index.cjs');
    expect(preferences).toMatchObject({
      preload: '/app/out/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
    });
  });

  it('creates the window hidden, to be shown once painted', () => {
    const options = mainWindowOptions('/app/out/preload/index.cjs');
    expect(options.show).toBe(false);
    expect(options.webPreferences).toEqual(hardenedWebPreferences('/app/out/preload/index.cjs'));
  });

  it('loads the preload as CommonJS from out/preload', () => {
    expect(preloadScriptPath('/opt/sightline')).toBe('/opt/sightline/out/preload/index.cjs');
  });

  it('builds a strict CSP for the built app', () => {
    const header = contentSecurityPolicy({ delivery: 'header', devServerUrl: null });
    expect(header).not.toContain('unsafe-eval');
    expect(header).not.toContain('unsafe-inline');
    expect(directive(header, 'default-src')).toBe("default-src 'self'");
    expect(directive(header, 'script-src')).toBe("script-src 'self'");
    expect(directive(header, 'object-src')).toBe("object-src 'none'");
    expect(directive(header, 'base-uri')).toBe("base-uri 'none'");
    expect(directive(header, 'form-action')).toBe("form-action 'none'");
    expect(directive(header, 'frame-ancestors')).toBe("frame-ancestors 'none'");
    expect(directive(header, 'img-src')).toBe("img-src 'self' data: blob:");
  });

  it('leaves frame-ancestors out of the meta tag, where browsers ignore it', () => {
    const meta = contentSecurityPolicy({ delivery: 'meta', devServerUrl: null });
    expect(directive(meta, 'frame-ancestors')).toBeUndefined();
    expect(directive(meta, 'object-src')).toBe("object-src 'none'");
  });

  it('admits the dev server and its websocket in development, still without eval', () => {
    const policy = contentSecurityPolicy({ delivery: 'header', devServerUrl: DEV_SERVER });
    expect(directive(policy, 'connect-src')).toBe("connect-src 'self' http://localhost:5173 ws://localhost:5173");
    expect(directive(policy, 'script-src')).toContain('http://localhost:5173');
    expect(policy).not.toContain('unsafe-eval');
    expect(directive(policy, 'object-src')).toBe("object-src 'none'");
  });

  it('allows navigation only to the app itself', () => {
    expect(isNavigationAllowed(`${FILE_ENTRY}#/sessions`, FILE_ENTRY)).toBe(true);
    expect(isNavigationAllowed('file:///etc/passwd', FILE_ENTRY)).toBe(false);
    expect(isNavigationAllowed('file:///opt/sightline/out/renderer/other.html', FILE_ENTRY)).toBe(false);
    expect(isNavigationAllowed('https://example.com/', FILE_ENTRY)).toBe(false);
    expect(isNavigationAllowed('http://localhost:5173/sessions/1', DEV_SERVER)).toBe(true);
    expect(isNavigationAllowed('http://localhost:5174/', DEV_SERVER)).toBe(false);
    expect(isNavigationAllowed('http://evil.example:5173/', DEV_SERVER)).toBe(false);
    expect(isNavigationAllowed('not a url', DEV_SERVER)).toBe(false);
  });

  it('denies every window.open and sends only web links to the browser', () => {
    expect(decideWindowOpen('https://example.com/docs')).toEqual({ action: 'deny', openExternally: 'https://example.com/docs' });
    expect(decideWindowOpen('http://example.com/')).toEqual({ action: 'deny', openExternally: 'http://example.com/' });
    for (const url of ['javascript:alert(1)', 'file:///etc/passwd', 'smb://host/share', 'sightline://x', '']) {
      expect(decideWindowOpen(url)).toEqual({ action: 'deny', openExternally: null });
    }
  });

  it('grants no permission outside the allowlist, and none to foreign pages', () => {
    expect(PERMISSION_ALLOWLIST.size).toBe(0);
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'display-capture']) {
      expect(isPermissionGranted(permission, FILE_ENTRY, FILE_ENTRY)).toBe(false);
    }
    const allowlist = new Set(['clipboard-sanitized-write']);
    expect(isPermissionGranted('clipboard-sanitized-write', FILE_ENTRY, FILE_ENTRY, allowlist)).toBe(true);
    expect(isPermissionGranted('clipboard-sanitized-write', 'https://example.com/', FILE_ENTRY, allowlist)).toBe(false);
    expect(isPermissionGranted('clipboard-sanitized-write', undefined, FILE_ENTRY, allowlist)).toBe(false);
    expect(isPermissionGranted('media', FILE_ENTRY, FILE_ENTRY, allowlist)).toBe(false);
  });

  it('uses the dev server only in an unpackaged app, and only on this machine', () => {
    expect(resolveRendererLocation({ appPath: '/opt/sightline', isPackaged: false, devServerUrl: DEV_SERVER })).toEqual(DEVELOPMENT);
    expect(resolveRendererLocation({ appPath: '/opt/sightline', isPackaged: true, devServerUrl: DEV_SERVER })).toEqual(PACKAGED);
    expect(resolveRendererLocation({ appPath: '/opt/sightline', isPackaged: false, devServerUrl: undefined })).toEqual(PACKAGED);
    expect(() => resolveRendererLocation({ appPath: '/opt/sightline', isPackaged: false, devServerUrl: 'https://evil.example/' })).toThrow(
      /ELECTRON_RENDERER_URL/,
    );
  });
});

describe('main window wiring', () => {
  beforeEach(() => resetFakeElectron());

  function openWindow(location: RendererLocation = PACKAGED): FakeBrowserWindow {
    createMainWindow({ location, preloadPath: '/opt/sightline/out/preload/index.cjs' });
    const window = fakeElectron.windows.at(-1);
    if (!window) throw new Error('createMainWindow constructed no BrowserWindow');
    return window;
  }

  it('constructs the BrowserWindow with the hardened options and loads the app', () => {
    const window = openWindow();
    expect(window.options).toEqual(mainWindowOptions('/opt/sightline/out/preload/index.cjs'));
    expect(window.options['webPreferences']).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false });
    expect(window.loadedUrl).toBe(FILE_ENTRY);
  });

  it('protects the window from screenshots and shows it only when ready', () => {
    const window = openWindow();
    expect(window.contentProtection).toBe(true);
    expect(window.visible).toBe(false);
    window.emit('ready-to-show');
    expect(window.visible).toBe(true);
  });

  it('denies window.open and opens web links in the browser only', () => {
    const { webContents } = openWindow();
    expect(webContents.windowOpenHandler?.({ url: 'https://example.com/' })).toEqual({ action: 'deny' });
    expect(webContents.windowOpenHandler?.({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
    expect(fakeElectron.shell.openExternal.mock.calls).toEqual([['https://example.com/']]);
  });

  it('blocks navigation and redirects away from the app, and webviews', () => {
    const { webContents } = openWindow(DEVELOPMENT);
    expect(webContents.emitPreventable('will-navigate', 'https://evil.example/')).toBe(true);
    expect(webContents.emitPreventable('will-redirect', 'https://evil.example/')).toBe(true);
    expect(webContents.emitPreventable('will-navigate', 'http://localhost:5173/other')).toBe(false);
    expect(webContents.emitPreventable('will-attach-webview', 'https://example.com/')).toBe(true);
  });
});

describe('session wiring', () => {
  beforeEach(() => resetFakeElectron());

  it('sends the CSP header with every response', () => {
    hardenSession(fakeElectron.session as never, PACKAGED);
    const headers = fakeElectron.session.respond(FILE_ENTRY, { 'Content-Type': ['text/html'] });
    expect(headers?.['Content-Type']).toEqual(['text/html']);
    expect(headers?.['Content-Security-Policy']).toEqual([contentSecurityPolicy({ delivery: 'header', devServerUrl: null })]);
  });

  it('refuses permissions outside the allowlist, on request and on check', async () => {
    hardenSession(fakeElectron.session as never, PACKAGED);
    await expect(fakeElectron.session.requestPermission('media', FILE_ENTRY)).resolves.toBe(false);
    await expect(fakeElectron.session.requestPermission('notifications', FILE_ENTRY)).resolves.toBe(false);
    expect(fakeElectron.session.permissionCheckHandler?.({}, 'clipboard-read', 'file:///', { requestingUrl: FILE_ENTRY })).toBe(false);
    expect(fakeElectron.session.devicePermissionHandler?.({})).toBe(false);
  });
});

describe('app API over IPC', () => {
  beforeEach(() => resetFakeElectron());

  function register(implementation: AppApiImplementation = { appInfo: () => ({ version: '1.2.3', platform: 'linux' }) }): void {
    registerAppApiHandlers({ implementation, isTrustedFrameUrl: (url) => isAppUrl(url, FILE_ENTRY) });
  }

  it('installs a handler for every call of the app API', () => {
    register();
    expect([...fakeElectron.ipcMain.handlers.keys()].sort()).toEqual(Object.values(APP_API).map((call) => call.channel).sort());
  });

  it('answers the app itself with a validated result', async () => {
    register();
    await expect(fakeElectron.ipcMain.invoke(APP_API_CHANNELS.appInfo, FILE_ENTRY)).resolves.toEqual({ version: '1.2.3', platform: 'linux' });
  });

  it('rejects a call from a foreign frame, or from a frame that is gone', async () => {
    const appInfo = vi.fn(() => ({ version: '1.2.3', platform: 'linux' as const }));
    register({ appInfo });
    await expect(fakeElectron.ipcMain.invoke(APP_API_CHANNELS.appInfo, 'https://evil.example/')).rejects.toThrow(/Refused app:info/);
    await expect(fakeElectron.ipcMain.invoke(APP_API_CHANNELS.appInfo, 'file:///tmp/evil.html')).rejects.toThrow(/Refused app:info/);
    await expect(fakeElectron.ipcMain.invoke(APP_API_CHANNELS.appInfo, null)).rejects.toThrow(/Refused app:info/);
    expect(appInfo).not.toHaveBeenCalled();
  });

  it('rejects arguments the schema does not allow', async () => {
    const appInfo = vi.fn(() => ({ version: '1.2.3', platform: 'linux' as const }));
    register({ appInfo });
    await expect(fakeElectron.ipcMain.invoke(APP_API_CHANNELS.appInfo, FILE_ENTRY, { unexpected: true })).rejects.toThrow(
      /Invalid arguments for app:info/,
    );
    expect(appInfo).not.toHaveBeenCalled();
  });

  it('never sends a result that breaks the schema', async () => {
    register({ appInfo: () => ({ version: '', platform: 'linux', secret: 'x' }) as never });
    await expect(fakeElectron.ipcMain.invoke(APP_API_CHANNELS.appInfo, FILE_ENTRY)).rejects.toThrow(/invalid result for app:info/);
  });
});

describe('preload', () => {
  beforeEach(() => {
    resetFakeElectron();
    vi.resetModules();
  });

  it('exposes exactly one method per app API call, each invoking its own channel', async () => {
    await import('../../src/preload/index.js');
    const bridge = fakeElectron.exposedInMainWorld.get('sightline') as Record<string, (...callArguments: unknown[]) => unknown>;
    expect(Object.keys(bridge).sort()).toEqual(Object.keys(APP_API).sort());
    for (const method of Object.values(bridge)) expect(typeof method).toBe('function');
    await bridge['appInfo']?.();
    expect(fakeElectron.ipcRenderer.invoke.mock.calls).toEqual([[APP_API_CHANNELS.appInfo]]);
  });
});

describe('app lifecycle', () => {
  beforeEach(() => {
    resetFakeElectron();
    vi.stubEnv('ELECTRON_RENDERER_URL', undefined);
  });

  it('enables the sandbox before ready, then hardens the session, serves the API and opens the window', async () => {
    startApp();
    expect(electronCalls).toEqual(['app.enableSandbox', 'app.requestSingleInstanceLock']);
    expect(fakeElectron.windows).toHaveLength(0);
    await fakeElectron.app.becomeReady();
    expect(fakeElectron.session.headersListener).not.toBeNull();
    expect(fakeElectron.session.permissionRequestHandler).not.toBeNull();
    expect(fakeElectron.ipcMain.handlers.has(APP_API_CHANNELS.appInfo)).toBe(true);
    expect(fakeElectron.windows).toHaveLength(1);
    expect(fakeElectron.windows[0]?.options['webPreferences']).toMatchObject({ preload: '/opt/sightline/out/preload/index.cjs', sandbox: true });
    expect(fakeElectron.windows[0]?.loadedUrl).toBe(FILE_ENTRY);
    await expect(fakeElectron.ipcMain.invoke(APP_API_CHANNELS.appInfo, FILE_ENTRY)).resolves.toEqual({
      version: '0.1.0',
      platform: process.platform,
    });
  });

  it('quits at once when another instance holds the lock', async () => {
    fakeElectron.app.singleInstanceLockAvailable = false;
    startApp();
    expect(fakeElectron.app.quit).toHaveBeenCalledOnce();
    await fakeElectron.app.becomeReady();
    expect(fakeElectron.windows).toHaveLength(0);
  });

  it('locks any other web contents too', async () => {
    startApp();
    await fakeElectron.app.becomeReady();
    const { FakeWebContents } = await import('../helpers/fake-electron.js');
    const stray = new FakeWebContents();
    fakeElectron.app.emit('web-contents-created', {}, stray);
    expect(stray.windowOpenHandler?.({ url: 'https://example.com/' })).toEqual({ action: 'deny' });
    expect(stray.emitPreventable('will-navigate', 'https://evil.example/')).toBe(true);
  });

  it('quits when the last window closes on Linux and Windows, and reopens one on activate', async () => {
    startApp();
    await fakeElectron.app.becomeReady();
    fakeElectron.windows[0]?.close();
    fakeElectron.app.emit('activate');
    expect(fakeElectron.windows.filter((window) => !window.closed)).toHaveLength(1);
    fakeElectron.app.emit('window-all-closed');
    if (process.platform === 'darwin') expect(fakeElectron.app.quit).not.toHaveBeenCalled();
    else expect(fakeElectron.app.quit).toHaveBeenCalledOnce();
  });
});
