/**
 * The Electron shell's security settings, under plain Node: first the pure policy, then the wiring of the
 * window, session, IPC, preload and app lifecycle against a fake of the electron module.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { electronCalls, fakeElectron, resetFakeElectron, type FakeBrowserWindow, useAppLifecycleHome } from '../helpers/fake-electron.js';
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
import { forwardEvents } from '../../src/main/electron/event-forwarding.js';
import { ownWindowHook } from '../../src/main/electron/own-window.js';
import { SECRET_FILE_NAME, SecretStore } from '../../src/main/electron/secret-store.js';
import { startAppBackend } from '../../src/main/electron/app-backend.js';
import { withStoredSecrets } from '../../src/main/api/api-keys.js';
import { EventBus } from '../../src/main/app/event-bus.js';
import { APP_API, APP_API_CHANNELS, APP_EVENT_CHANNEL, decodeAppApiError, type AppApiName } from '../../src/shared/app-api.js';
import { DEFAULT_CONFIG } from '../../src/shared/config.js';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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
    expect(directive(header, 'media-src')).toBe("media-src 'self' data: blob:");
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

/** An implementation whose every call is a spy; appInfo answers, the others must never be reached in these tests. */
function spyImplementation(): AppApiImplementation {
  const calls = Object.fromEntries(
    (Object.keys(APP_API) as AppApiName[]).map((name) => [name, vi.fn(() => Promise.reject(new Error(`${name} should not run`)))]),
  ) as unknown as AppApiImplementation;
  return { ...calls, appInfo: vi.fn(() => ({ version: '1.2.3', platform: 'linux' as const })) };
}

/** Arguments each call's schema refuses. */
const BAD_ARGUMENTS: Record<AppApiName, unknown[]> = {
  appInfo: [{ unexpected: true }],
  listSessions: [{ limit: -1 }],
  getSession: ['not-a-session'],
  deleteSession: [42],
  exportReport: [{ sessionId: 'ses_0123456789ab', maxBytes: 10 }],
  listSteps: [{ sessionId: 'ses_0123456789ab', limit: 100_000 }],
  getImage: [{ imageId: 'img_0123456789ab', maxBytes: 0 }],
  pinImage: ['../etc/passwd'],
  unpinImage: [{ imageId: 'img_0123456789ab' }],
  listMedia: ['not-a-session'],
  getMedia: [{ mediaId: 'med_tooshort' }],
  listSearchReports: [],
  listInjections: [{}],
  listRuns: ['extra'],
  startRun: [{ task: '' }],
  stopRun: [null],
  pauseRun: ['ses_xyz'],
  resumeRun: [['ses_0123456789ab']],
  answerConfirmation: [{ requestId: 'r1' }],
  answerQuestion: [{ requestId: 'r1', answer: 7 }],
  getKeyStatus: ['model'],
  saveApiKey: [{ kind: 'model', key: 'sk-with a space' }],
  permissionStatus: ['screen-recording'],
  openPermissionSettings: ['camera'],
};

describe('app API over IPC', () => {
  beforeEach(() => resetFakeElectron());

  function register(implementation: AppApiImplementation = spyImplementation()): AppApiImplementation {
    registerAppApiHandlers({ implementation, isTrustedFrameUrl: (url) => isAppUrl(url, FILE_ENTRY) });
    return implementation;
  }

  it('installs a handler for every call of the app API', () => {
    register();
    expect([...fakeElectron.ipcMain.handlers.keys()].sort()).toEqual(Object.values(APP_API).map((call) => call.channel).sort());
  });

  it('answers the app itself with a validated result', async () => {
    register();
    await expect(fakeElectron.ipcMain.invoke(APP_API_CHANNELS.appInfo, FILE_ENTRY)).resolves.toEqual({ version: '1.2.3', platform: 'linux' });
  });

  it('rejects every call from a foreign frame, or from a frame that is gone, before running it', async () => {
    const implementation = register();
    for (const name of Object.keys(APP_API) as AppApiName[]) {
      const channel = APP_API_CHANNELS[name];
      for (const frame of ['https://evil.example/', 'file:///tmp/evil.html', null]) {
        const error: unknown = await fakeElectron.ipcMain.invoke(channel, frame).catch((caught: unknown) => caught);
        expect(error, `${name} from ${String(frame)}`).toBeInstanceOf(Error);
        expect(decodeAppApiError((error as Error).message)).toMatchObject({ code: 'refused', message: expect.stringContaining(`Refused ${channel}`) });
      }
      expect(implementation[name], name).not.toHaveBeenCalled();
    }
  });

  it('rejects arguments the schema of each call does not allow, before running it', async () => {
    const implementation = register();
    for (const name of Object.keys(APP_API) as AppApiName[]) {
      const channel = APP_API_CHANNELS[name];
      const error: unknown = await fakeElectron.ipcMain.invoke(channel, FILE_ENTRY, ...BAD_ARGUMENTS[name]).catch((caught: unknown) => caught);
      expect(error, name).toBeInstanceOf(Error);
      expect(decodeAppApiError((error as Error).message), name).toMatchObject({
        code: 'invalid-arguments',
        message: expect.stringContaining(`Invalid arguments for ${channel}`),
      });
      expect(implementation[name], name).not.toHaveBeenCalled();
    }
  });

  it('refuses an API key of an unknown kind, empty or too long, naming the field and never quoting the key', async () => {
    const implementation = register();
    const cases: Array<[unknown, string]> = [
      [{ kind: 'github', key: 'sk-secret-1' }, 'kind'],
      [{ kind: 'model', key: '   ' }, 'key'],
      [{ kind: 'model', key: `sk-${'x'.repeat(2_000)}` }, 'key'],
      [{ kind: 'model' }, 'key'],
    ];
    for (const [argument, field] of cases) {
      const error: unknown = await fakeElectron.ipcMain.invoke(APP_API_CHANNELS.saveApiKey, FILE_ENTRY, argument).catch((caught: unknown) => caught);
      const decoded = decodeAppApiError((error as Error).message);
      expect(decoded.code, field).toBe('invalid-arguments');
      expect(decoded.message, field).toContain(field);
      expect(decoded.message).not.toContain('sk-');
    }
    expect(implementation.saveApiKey).not.toHaveBeenCalled();
  });

  it('never sends a result that breaks the schema', async () => {
    register({ ...spyImplementation(), appInfo: () => ({ version: '', platform: 'linux', secret: 'x' }) as never });
    await expect(fakeElectron.ipcMain.invoke(APP_API_CHANNELS.appInfo, FILE_ENTRY)).rejects.toThrow(/invalid result for app:info/);
  });

  it('sends live events to the app window only, on the event channel', () => {
    const bus = new EventBus();
    const window = new (fakeElectronWindowClass())({});
    forwardEvents(bus, () => window.webContents as never);
    const event = { type: 'warning' as const, sessionId: 'ses_0123456789ab', at: 1, message: 'hi' };
    bus.publish(event);
    expect(window.webContents.sent).toEqual([[APP_EVENT_CHANNEL, event]]);
    window.webContents.destroyed = true;
    bus.publish(event);
    expect(window.webContents.sent).toHaveLength(1);
  });
});

function fakeElectronWindowClass() {
  return fakeElectron.windowClass;
}

describe('the window while the agent acts', () => {
  beforeEach(() => resetFakeElectron());

  it('hides the window for a capture or an action and shows it again without taking the focus', async () => {
    const window = new (fakeElectronWindowClass())({});
    window.show();
    const hook = ownWindowHook(() => window as never, 0);
    await hook.hide();
    expect(window.visible).toBe(false);
    await hook.show();
    expect(window.visible).toBe(true);
    expect(window.lastShownWith).toBe('showInactive');
  });

  it('leaves a window the user had hidden hidden', async () => {
    const window = new (fakeElectronWindowClass())({});
    const hook = ownWindowHook(() => window as never, 0);
    await hook.hide();
    await hook.show();
    expect(window.visible).toBe(false);
  });
});

describe('API keys in the secret store', () => {
  let homeRoot: string;
  beforeEach(() => {
    resetFakeElectron();
    homeRoot = mkdtempSync(join(tmpdir(), 'sightline-secrets-'));
  });
  afterEach(() => rmSync(homeRoot, { recursive: true, force: true }));

  it('stores keys encrypted in a file only the user can read, and reads them back', () => {
    const store = new SecretStore(homeRoot, fakeElectron.safeStorage, 'linux');
    store.save('model.apiKey', 'sk-very-secret-key-123');
    const file = join(homeRoot, SECRET_FILE_NAME);
    expect(readFileSync(file, 'utf8')).not.toContain('sk-very-secret-key-123');
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(new SecretStore(homeRoot, fakeElectron.safeStorage, 'linux').load()).toEqual({ 'model.apiKey': 'sk-very-secret-key-123' });
  });

  it('warns when Linux offers only the plain-text backend', () => {
    const store = new SecretStore(homeRoot, fakeElectron.safeStorage, 'linux');
    expect(store.weakEncryptionWarning()).toBeUndefined();
    fakeElectron.safeStorage.backend = 'basic_text';
    expect(store.weakEncryptionWarning()).toMatch(/keyring/);
    expect(new SecretStore(homeRoot, fakeElectron.safeStorage, 'darwin').weakEncryptionWarning()).toBeUndefined();
  });

  it('refuses to store a key when nothing can encrypt it', () => {
    fakeElectron.safeStorage.encryptionAvailable = false;
    expect(() => new SecretStore(homeRoot, fakeElectron.safeStorage, 'linux').save('model.apiKey', 'sk-x')).toThrow(/environment/);
  });

  it('fills in only keys the config and environment left unset', () => {
    const config = { ...DEFAULT_CONFIG, model: { ...DEFAULT_CONFIG.model, apiKey: 'from-env' } };
    const merged = withStoredSecrets(config, { 'model.apiKey': 'stored', 'search.tavilyApiKey': 'tvly-stored' });
    expect(merged.model.apiKey).toBe('from-env');
    expect(merged.search.tavilyApiKey).toBe('tvly-stored');
    expect(merged.model.anthropicApiKey).toBeUndefined();
    expect(withStoredSecrets(config, { 'model.anthropicApiKey': 'sk-ant-stored' }).model.anthropicApiKey).toBe('sk-ant-stored');
    const withAnthropic = { ...config, model: { ...config.model, anthropicApiKey: 'sk-ant-from-env' } };
    expect(withStoredSecrets(withAnthropic, { 'model.anthropicApiKey': 'sk-ant-stored' }).model.anthropicApiKey).toBe('sk-ant-from-env');
  });
});

describe('API keys saved through the desktop app', () => {
  let homeRoot: string;
  beforeEach(() => {
    resetFakeElectron();
    homeRoot = mkdtempSync(join(tmpdir(), 'sightline-keys-'));
    vi.stubEnv('SIGHTLINE_HOME', homeRoot);
    vi.stubEnv('OPENAI_API_KEY', undefined);
    vi.stubEnv('SIGHTLINE_MODEL_API_KEY', undefined);
    vi.stubEnv('ANTHROPIC_API_KEY', undefined);
    vi.stubEnv('SIGHTLINE_MODEL_ANTHROPIC_API_KEY', undefined);
    vi.stubEnv('TAVILY_API_KEY', undefined);
    vi.stubEnv('SIGHTLINE_SEARCH_TAVILY_API_KEY', undefined);
  });
  afterEach(() => {
    fakeElectron.safeStorage.backend = 'gnome_libsecret';
    fakeElectron.safeStorage.encryptionAvailable = true;
    vi.unstubAllEnvs();
    rmSync(homeRoot, { recursive: true, force: true });
  });

  it('encrypts a saved key on disk with safeStorage and reports it as saved, never returning it', async () => {
    const backend = startAppBackend(() => null);
    try {
      const before = await backend.implementation.getKeyStatus();
      expect(before).toEqual({ model: { set: false, source: null }, anthropic: { set: false, source: null }, tavily: { set: false, source: null }, canSave: true });
      const saved = await backend.implementation.saveApiKey({ kind: 'model', key: 'sk-desktop-secret-456' });
      expect(saved).toEqual({ saved: true });
      const onDisk = readFileSync(join(homeRoot, SECRET_FILE_NAME), 'utf8');
      expect(onDisk).not.toContain('sk-desktop-secret-456');
      expect(new SecretStore(homeRoot, fakeElectron.safeStorage, 'linux').load()).toEqual({ 'model.apiKey': 'sk-desktop-secret-456' });
      const after = await backend.implementation.getKeyStatus();
      expect(after).toEqual({ model: { set: true, source: 'saved' }, anthropic: { set: false, source: null }, tavily: { set: false, source: null }, canSave: true });
      expect(JSON.stringify(after)).not.toContain('sk-desktop');
    } finally {
      await backend.close();
    }
  });

  it("saves Anthropic's key encrypted under its own field, and says when ANTHROPIC_API_KEY in the environment overrides it", async () => {
    vi.stubEnv('ANTHROPIC_API_KEY', 'sk-ant-from-the-environment-123');
    const backend = startAppBackend(() => null);
    try {
      expect((await backend.implementation.getKeyStatus()).anthropic).toEqual({ set: true, source: 'environment' });
      const saved = await backend.implementation.saveApiKey({ kind: 'anthropic', key: 'sk-ant-desktop-secret-789' });
      expect(saved.warning).toMatch(/^The Anthropic API key set in the environment takes precedence; the saved one is used once it is removed there\./);
      expect(readFileSync(join(homeRoot, SECRET_FILE_NAME), 'utf8')).not.toContain('sk-ant-desktop');
      expect(new SecretStore(homeRoot, fakeElectron.safeStorage, 'linux').load()).toEqual({ 'model.anthropicApiKey': 'sk-ant-desktop-secret-789' });
      const after = await backend.implementation.getKeyStatus();
      expect(after).toMatchObject({ model: { set: false, source: null }, anthropic: { set: true, source: 'environment' } });
      expect(JSON.stringify([saved, after])).not.toContain('sk-ant-');
    } finally {
      await backend.close();
    }
  });

  // The backend reads process.platform: the plain-text backend exists on Linux only.
  it.runIf(process.platform === 'linux')('warns when Linux offers only the plain-text backend, and refuses when nothing encrypts', async () => {
    fakeElectron.safeStorage.backend = 'basic_text';
    const backend = startAppBackend(() => null);
    try {
      expect((await backend.implementation.getKeyStatus()).warning).toMatch(/plain text/);
      expect((await backend.implementation.saveApiKey({ kind: 'tavily', key: 'tvly-desktop-789' })).warning).toMatch(/plain text/);
      fakeElectron.safeStorage.encryptionAvailable = false;
      expect(await backend.implementation.getKeyStatus()).toMatchObject({ canSave: false, warning: expect.stringMatching(/no way to encrypt/) });
      await expect(backend.implementation.saveApiKey({ kind: 'model', key: 'sk-never' })).rejects.toMatchObject({ code: 'unavailable' });
    } finally {
      await backend.close();
    }
  });
});

describe('preload', () => {
  beforeEach(() => {
    resetFakeElectron();
    vi.resetModules();
  });

  it('exposes exactly one method per app API call, each invoking its own channel, and onEvent', async () => {
    await import('../../src/preload/index.js');
    const bridge = fakeElectron.exposedInMainWorld.get('sightline') as Record<string, (...callArguments: unknown[]) => unknown>;
    expect(Object.keys(bridge).sort()).toEqual([...Object.keys(APP_API), 'onEvent'].sort());
    for (const method of Object.values(bridge)) expect(typeof method).toBe('function');
    for (const name of Object.keys(APP_API) as AppApiName[]) {
      fakeElectron.ipcRenderer.invoke.mockClear();
      await bridge[name]?.({ probe: name });
      expect(fakeElectron.ipcRenderer.invoke.mock.calls).toEqual([[APP_API_CHANNELS[name], { probe: name }]]);
    }
  });

  it('hands the page the event only, and unsubscribes', async () => {
    await import('../../src/preload/index.js');
    const bridge = fakeElectron.exposedInMainWorld.get('sightline') as { onEvent: (listener: (event: unknown) => void) => () => void };
    const received: unknown[] = [];
    const unsubscribe = bridge.onEvent((event) => received.push(event));
    fakeElectron.ipcRenderer.emit(APP_EVENT_CHANNEL, { sender: 'electron internals' }, { type: 'warning' });
    unsubscribe();
    fakeElectron.ipcRenderer.emit(APP_EVENT_CHANNEL, { sender: 'electron internals' }, { type: 'late' });
    expect(received).toEqual([{ type: 'warning' }]);
  });
});

describe('app lifecycle', () => {
  useAppLifecycleHome('sightline-app-home-');

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

  it.runIf(process.platform === 'linux')('binds the stop shortcut through the desktop portal in a Wayland session, and not under X11', () => {
    vi.stubEnv('XDG_SESSION_TYPE', 'wayland');
    startApp();
    expect(electronCalls).toEqual(['app.enableSandbox', 'app.commandLine.appendSwitch(enable-features=GlobalShortcutsPortal)', 'app.requestSingleInstanceLock']);
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
