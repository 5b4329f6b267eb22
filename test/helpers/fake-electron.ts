/**
 * A fake of the part of the `electron` module Sightline's shell uses, for tests under plain Node where the
 * Electron binary is absent. Use it with
 *
 *   vi.mock('electron', async () => (await import('../helpers/fake-electron.js')).fakeElectronModule);
 *
 * The fakes record what the code under test did (constructor options, handlers, listeners) and let a test
 * play Electron's side: emit app events, invoke an IPC channel from a given frame URL, fire navigations.
 * Objects are singletons mutated in place by `resetFakeElectron()`, because the modules under test keep the
 * references they imported.
 */
import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, vi } from 'vitest';

/** Every notable call, in order, so tests can assert sequencing (the sandbox is enabled before ready). */
export const electronCalls: string[] = [];

type WindowOpenHandler = (details: { url: string }) => { action: 'allow' | 'deny' };

/** What a preventable Electron event looks like to a listener (will-navigate, will-redirect, …). */
export interface FakePreventableEvent {
  url: string;
  defaultPrevented: boolean;
  preventDefault: () => void;
}

export class FakeWebContents extends EventEmitter {
  windowOpenHandler: WindowOpenHandler | null = null;
  /** Every webContents.send, as [channel, ...arguments]. */
  readonly sent: unknown[][] = [];
  destroyed = false;

  send(channel: string, ...callArguments: unknown[]): void {
    this.sent.push([channel, ...callArguments]);
  }

  isDestroyed(): boolean {
    return this.destroyed;
  }

  setWindowOpenHandler(handler: WindowOpenHandler): void {
    this.windowOpenHandler = handler;
  }

  /** Fires an event as Electron does for a navigation; returns whether some listener prevented it. */
  emitPreventable(eventName: 'will-navigate' | 'will-redirect' | 'will-attach-webview', url: string): boolean {
    const event: FakePreventableEvent = {
      url,
      defaultPrevented: false,
      preventDefault() {
        event.defaultPrevented = true;
      },
    };
    this.emit(eventName, event, url);
    return event.defaultPrevented;
  }
}

export class FakeBrowserWindow extends EventEmitter {
  static readonly instances: FakeBrowserWindow[] = [];

  static getAllWindows(): FakeBrowserWindow[] {
    return FakeBrowserWindow.instances.filter((window) => !window.closed);
  }

  readonly webContents = new FakeWebContents();
  contentProtection = false;
  visible = false;
  closed = false;
  loadedUrl: string | null = null;

  constructor(readonly options: Record<string, unknown>) {
    super();
    FakeBrowserWindow.instances.push(this);
    electronCalls.push('new BrowserWindow');
    // Electron announces a window's web contents while the window is being constructed.
    fakeApp.emit('web-contents-created', {}, this.webContents);
  }

  setContentProtection(enable: boolean): void {
    this.contentProtection = enable;
  }

  /** setAlwaysOnTop's last level, or null when never set (the constructor's alwaysOnTop option aside). */
  alwaysOnTopLevel: string | null = null;
  /** Whether clicks pass through the window (setIgnoreMouseEvents). */
  ignoresMouseEvents = false;

  setAlwaysOnTop(flag: boolean, level = 'floating'): void {
    this.alwaysOnTopLevel = flag ? level : null;
  }

  setIgnoreMouseEvents(ignore: boolean): void {
    this.ignoresMouseEvents = ignore;
  }

  /** How the window was last shown: `show` takes the focus, `showInactive` does not. */
  lastShownWith: 'show' | 'showInactive' | null = null;

  show(): void {
    this.visible = true;
    this.lastShownWith = 'show';
  }

  showInactive(): void {
    this.visible = true;
    this.lastShownWith = 'showInactive';
  }

  hide(): void {
    this.visible = false;
  }

  isVisible(): boolean {
    return this.visible;
  }

  isDestroyed(): boolean {
    return this.closed;
  }

  loadURL(url: string): Promise<void> {
    this.loadedUrl = url;
    return Promise.resolve();
  }

  isMinimized(): boolean {
    return false;
  }

  restore(): void {}

  focus(): void {}

  close(): void {
    this.closed = true;
    this.emit('closed');
  }
}

class FakeApp extends EventEmitter {
  isPackaged = true;
  /** What app.getAppPath() answers: the installed app's folder, or a checkout under `npm start`. */
  appPath = '/opt/sightline';
  singleInstanceLockAvailable = true;
  private ready = false;
  private resolveReady: () => void = () => {};
  private readyPromise = this.newReadyPromise();

  readonly enableSandbox = vi.fn(() => {
    electronCalls.push('app.enableSandbox');
  });
  readonly commandLine = {
    appendSwitch: vi.fn((name: string, value?: string) => {
      electronCalls.push(`app.commandLine.appendSwitch(${name}${value === undefined ? '' : `=${value}`})`);
    }),
  };
  readonly requestSingleInstanceLock = vi.fn(() => {
    electronCalls.push('app.requestSingleInstanceLock');
    return this.singleInstanceLockAvailable;
  });
  readonly quit = vi.fn(() => {
    electronCalls.push('app.quit');
  });
  readonly exit = vi.fn((code?: number) => {
    electronCalls.push(`app.exit(${code ?? 0})`);
  });

  getAppPath(): string {
    return this.appPath;
  }

  getVersion(): string {
    return '0.1.0';
  }

  isReady(): boolean {
    return this.ready;
  }

  whenReady(): Promise<void> {
    return this.readyPromise;
  }

  /** Plays Electron's `ready`: resolves whenReady() and waits for the code chained on it to run. */
  async becomeReady(): Promise<void> {
    electronCalls.push('app ready');
    this.ready = true;
    this.resolveReady();
    this.emit('ready');
    await this.readyPromise;
    await new Promise((resolve) => setImmediate(resolve));
  }

  reset(): void {
    this.removeAllListeners();
    this.isPackaged = true;
    this.appPath = '/opt/sightline';
    this.singleInstanceLockAvailable = true;
    this.ready = false;
    this.readyPromise = this.newReadyPromise();
    this.enableSandbox.mockClear();
    this.requestSingleInstanceLock.mockClear();
    this.quit.mockClear();
    this.exit.mockClear();
    this.commandLine.appendSwitch.mockClear();
  }

  private newReadyPromise(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.resolveReady = resolve;
    });
  }
}

type InvokeHandler = (event: unknown, ...callArguments: unknown[]) => unknown;

class FakeIpcMain {
  readonly handlers = new Map<string, InvokeHandler>();

  handle(channel: string, handler: InvokeHandler): void {
    // Electron refuses a second handler for the same channel; so does the fake.
    if (this.handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    this.handlers.set(channel, handler);
  }

  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  }

  /** Plays a renderer's ipcRenderer.invoke from a frame at `frameUrl` (null: the frame is gone). */
  async invoke(channel: string, frameUrl: string | null, ...callArguments: unknown[]): Promise<unknown> {
    const handler = this.handlers.get(channel);
    if (!handler) throw new Error(`No handler registered for '${channel}'`);
    const event = { senderFrame: frameUrl === null ? null : { url: frameUrl }, sender: {} };
    return handler(event, ...callArguments);
  }
}

type HeadersListener = (
  details: { url: string; resourceType: string; responseHeaders?: Record<string, string[]> },
  callback: (response: { responseHeaders?: Record<string, string | string[]> }) => void,
) => void;
type PermissionRequestHandler = (
  webContents: unknown,
  permission: string,
  callback: (granted: boolean) => void,
  details: { requestingUrl: string },
) => void;
type PermissionCheckHandler = (webContents: unknown, permission: string, requestingOrigin: string, details: { requestingUrl?: string }) => boolean;

class FakeSession {
  headersListener: HeadersListener | null = null;
  permissionRequestHandler: PermissionRequestHandler | null = null;
  permissionCheckHandler: PermissionCheckHandler | null = null;
  devicePermissionHandler: ((details: unknown) => boolean) | null = null;

  readonly webRequest = {
    onHeadersReceived: (listener: HeadersListener): void => {
      this.headersListener = listener;
    },
  };

  setPermissionRequestHandler(handler: PermissionRequestHandler): void {
    this.permissionRequestHandler = handler;
  }

  setPermissionCheckHandler(handler: PermissionCheckHandler): void {
    this.permissionCheckHandler = handler;
  }

  setDevicePermissionHandler(handler: (details: unknown) => boolean): void {
    this.devicePermissionHandler = handler;
  }

  /** Runs a response through the installed header listener and returns the headers it answered with. */
  respond(url: string, responseHeaders: Record<string, string[]> = {}): Record<string, string | string[]> | undefined {
    if (!this.headersListener) throw new Error('No onHeadersReceived listener installed');
    let answered: Record<string, string | string[]> | undefined;
    this.headersListener({ url, resourceType: 'mainFrame', responseHeaders }, (response) => {
      answered = response.responseHeaders;
    });
    return answered;
  }

  /** Asks the permission request handler, as a page at `requestingUrl` would; resolves to its answer. */
  requestPermission(permission: string, requestingUrl: string): Promise<boolean> {
    const handler = this.permissionRequestHandler;
    if (!handler) throw new Error('No permission request handler installed');
    return new Promise((resolve) => handler({}, permission, resolve, { requestingUrl }));
  }

  reset(): void {
    this.headersListener = null;
    this.permissionRequestHandler = null;
    this.permissionCheckHandler = null;
    this.devicePermissionHandler = null;
  }
}

/**
 * globalShortcut: register answers false for a combination a test marks as taken (another application holds
 * it) and throws for one marked as unparsable, as Electron does; `press` plays the person pressing it.
 */
class FakeGlobalShortcut {
  readonly registered = new Map<string, () => void>();
  readonly taken = new Set<string>();
  readonly unparsable = new Set<string>();

  register(accelerator: string, callback: () => void): boolean {
    if (this.unparsable.has(accelerator)) throw new Error(`Failed to parse accelerator "${accelerator}"`);
    if (this.taken.has(accelerator) || this.registered.has(accelerator)) return false;
    this.registered.set(accelerator, callback);
    return true;
  }

  unregister(accelerator: string): void {
    this.registered.delete(accelerator);
  }

  isRegistered(accelerator: string): boolean {
    return this.registered.has(accelerator);
  }

  unregisterAll(): void {
    this.registered.clear();
  }

  /** Plays the person pressing the combination; false when nothing holds it. */
  press(accelerator: string): boolean {
    const callback = this.registered.get(accelerator);
    if (callback === undefined) return false;
    callback();
    return true;
  }

  reset(): void {
    this.registered.clear();
    this.taken.clear();
    this.unparsable.clear();
  }
}

/** A menu item as Menu.buildFromTemplate received it. */
export interface FakeMenuItem {
  label?: string;
  type?: string;
  enabled?: boolean;
  click?: () => void;
}

export class FakeMenu {
  constructor(readonly items: FakeMenuItem[]) {}

  static buildFromTemplate(template: FakeMenuItem[]): FakeMenu {
    return new FakeMenu(template.map((item) => ({ ...item })));
  }

  /** Plays a click on the item with this label; throws when there is none or it is disabled, as a person could not click it. */
  click(label: string): void {
    const item = this.items.find((candidate) => candidate.label === label);
    if (item === undefined) throw new Error(`No menu item "${label}"`);
    if (item.enabled === false) throw new Error(`The menu item "${label}" is disabled`);
    item.click?.();
  }
}

export class FakeTray {
  static readonly instances: FakeTray[] = [];
  contextMenu: FakeMenu | null = null;
  tooltip = '';
  destroyed = false;

  constructor(readonly image: unknown) {
    FakeTray.instances.push(this);
  }

  setContextMenu(menu: FakeMenu | null): void {
    this.contextMenu = menu;
  }

  setToolTip(tooltip: string): void {
    this.tooltip = tooltip;
  }

  destroy(): void {
    this.destroyed = true;
  }

  isDestroyed(): boolean {
    return this.destroyed;
  }
}

const fakeNativeImage = {
  createFromDataURL: (dataUrl: string) => ({ dataUrl, isEmpty: () => !dataUrl.startsWith('data:image/') }),
  createEmpty: () => ({ dataUrl: '', isEmpty: () => true }),
};

const fakeScreen = {
  getPrimaryDisplay: () => ({ id: 1, workArea: { x: 0, y: 0, width: 1920, height: 1040 }, bounds: { x: 0, y: 0, width: 1920, height: 1080 }, scaleFactor: 1 }),
};

const fakeGlobalShortcut = new FakeGlobalShortcut();
const fakeApp = new FakeApp();
const fakeIpcMain = new FakeIpcMain();
const fakeDefaultSession = new FakeSession();
const fakeShell = { openExternal: vi.fn((_url: string) => Promise.resolve()) };
const exposedInMainWorld = new Map<string, unknown>();
const fakeContextBridge = {
  exposeInMainWorld: vi.fn((key: string, api: unknown) => {
    exposedInMainWorld.set(key, api);
  }),
};
class FakeIpcRenderer extends EventEmitter {
  readonly invoke = vi.fn((_channel: string, ..._callArguments: unknown[]) => Promise.resolve<unknown>(undefined));
}
const fakeIpcRenderer = new FakeIpcRenderer();

/**
 * safeStorage: "encrypts" by reversing and base64-encoding (enough to tell stored text from plain text), with
 * the backend a test chooses ('basic_text' is Linux without a keyring).
 */
const fakeSafeStorage = {
  encryptionAvailable: true,
  backend: 'gnome_libsecret',
  isEncryptionAvailable(): boolean {
    return this.encryptionAvailable;
  },
  encryptString(plainText: string): Buffer {
    return Buffer.from(Buffer.from([...plainText].reverse().join('')).toString('base64'));
  },
  decryptString(encrypted: Buffer): string {
    return [...Buffer.from(encrypted.toString(), 'base64').toString()].reverse().join('');
  },
  getSelectedStorageBackend(): string {
    return this.backend;
  },
};

/**
 * systemPreferences on macOS: the answers a test sets (`screen` media access, whether the app is a trusted
 * accessibility client), and the calls made (a prompt asked for shows as isTrustedAccessibilityClient(true)).
 */
const fakeSystemPreferences = {
  screenAccess: 'granted',
  accessibilityTrusted: true,
  getMediaAccessStatus: vi.fn((mediaType: string): string => (mediaType === 'screen' ? fakeSystemPreferences.screenAccess : 'granted')),
  isTrustedAccessibilityClient: vi.fn((_prompt: boolean): boolean => fakeSystemPreferences.accessibilityTrusted),
};

/** desktopCapturer: no sources; a test sees that it was asked (macOS lists the app under Screen Recording then). */
const fakeDesktopCapturer = {
  getSources: vi.fn((_options: { types: string[]; thumbnailSize?: { width: number; height: number } }) => Promise.resolve<unknown[]>([])),
};

/**
 * Message boxes: each call is recorded with the window it was given (null for none) and answered with
 * the button at `nextResponse`.
 */
export const fakeDialog = {
  nextResponse: 0,
  shown: [] as { window: FakeBrowserWindow | null; options: Record<string, unknown> }[],
  async showMessageBox(
    windowOrOptions: FakeBrowserWindow | Record<string, unknown>,
    maybeOptions?: Record<string, unknown>,
  ): Promise<{ response: number; checkboxChecked: boolean }> {
    const window = windowOrOptions instanceof FakeBrowserWindow ? windowOrOptions : null;
    const options = maybeOptions ?? (windowOrOptions as Record<string, unknown>);
    fakeDialog.shown.push({ window, options });
    electronCalls.push('dialog.showMessageBox');
    return { response: fakeDialog.nextResponse, checkboxChecked: false };
  },
  reset(): void {
    fakeDialog.nextResponse = 0;
    fakeDialog.shown.length = 0;
  },
};

/** The handles a test uses to drive and inspect the fake. */
export const fakeElectron = {
  app: fakeApp,
  ipcMain: fakeIpcMain,
  session: fakeDefaultSession,
  shell: fakeShell,
  windows: FakeBrowserWindow.instances,
  windowClass: FakeBrowserWindow,
  exposedInMainWorld,
  contextBridge: fakeContextBridge,
  ipcRenderer: fakeIpcRenderer,
  safeStorage: fakeSafeStorage,
  systemPreferences: fakeSystemPreferences,
  desktopCapturer: fakeDesktopCapturer,
  dialog: fakeDialog,
  globalShortcut: fakeGlobalShortcut,
  trays: FakeTray.instances,
};

/** What `vi.mock('electron', …)` should return. */
export const fakeElectronModule = {
  app: fakeApp,
  BrowserWindow: FakeBrowserWindow,
  ipcMain: fakeIpcMain,
  session: { defaultSession: fakeDefaultSession },
  shell: fakeShell,
  contextBridge: fakeContextBridge,
  ipcRenderer: fakeIpcRenderer,
  safeStorage: fakeSafeStorage,
  systemPreferences: fakeSystemPreferences,
  desktopCapturer: fakeDesktopCapturer,
  dialog: fakeDialog,
  globalShortcut: fakeGlobalShortcut,
  Tray: FakeTray,
  Menu: FakeMenu,
  nativeImage: fakeNativeImage,
  screen: fakeScreen,
};

export function resetFakeElectron(): void {
  electronCalls.length = 0;
  fakeApp.reset();
  fakeIpcMain.handlers.clear();
  fakeDefaultSession.reset();
  FakeBrowserWindow.instances.length = 0;
  FakeTray.instances.length = 0;
  fakeGlobalShortcut.reset();
  fakeShell.openExternal.mockClear();
  exposedInMainWorld.clear();
  fakeContextBridge.exposeInMainWorld.mockClear();
  fakeIpcRenderer.invoke.mockClear();
  fakeIpcRenderer.removeAllListeners();
  fakeSafeStorage.encryptionAvailable = true;
  fakeSafeStorage.backend = 'gnome_libsecret';
  fakeSystemPreferences.screenAccess = 'granted';
  fakeSystemPreferences.accessibilityTrusted = true;
  fakeSystemPreferences.getMediaAccessStatus.mockClear();
  fakeSystemPreferences.isTrustedAccessibilityClient.mockClear();
  fakeDesktopCapturer.getSources.mockClear();
  fakeDialog.reset();
}

/**
 * For tests that call startApp(): before each, a reset fake Electron, a fresh home (never ~/.sightline; the
 * app opens its database when ready) and an X11 session unless the test says otherwise (the app's switches
 * depend on it); after each, the app quit the way Electron quits it (runs stopped, the database closed
 * before the folder goes), unless the test quit it already.
 */
export function useAppLifecycleHome(prefix: string): void {
  let homeRoot = '';
  beforeEach(() => {
    resetFakeElectron();
    vi.stubEnv('ELECTRON_RENDERER_URL', undefined);
    vi.stubEnv('XDG_SESSION_TYPE', 'x11');
    vi.stubEnv('WAYLAND_DISPLAY', undefined);
    homeRoot = mkdtempSync(join(tmpdir(), prefix));
    vi.stubEnv('SIGHTLINE_HOME', homeRoot);
  });
  afterEach(async () => {
    if (fakeApp.listenerCount('before-quit') > 0 && fakeApp.quit.mock.calls.length === 0) {
      fakeApp.emit('before-quit', { preventDefault: () => undefined });
      await vi.waitFor(() => expect(fakeApp.quit).toHaveBeenCalled());
    }
    vi.unstubAllEnvs();
    rmSync(homeRoot, { recursive: true, force: true });
  });
}
