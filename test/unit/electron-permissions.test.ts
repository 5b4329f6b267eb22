/**
 * The Electron side of the permissions, against the fake electron module: systemPreferences asked without a
 * prompt, the right System Settings pane opened, the IPC contract of the two calls, the first start's check,
 * the re-check when the window regains the focus, and a desktop run refused over IPC while X11 is missing.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeElectron, resetFakeElectron, useAppLifecycleHome } from '../helpers/fake-electron.js';
import { electronPermissions, recheckPermissionsOnFocus, startPermissionWatch } from '../../src/main/electron/permissions.js';
import { registerAppApiHandlers, type AppApiImplementation } from '../../src/main/electron/ipc.js';
import { startApp } from '../../src/main/electron/app-lifecycle.js';
import { isAppUrl } from '../../src/main/electron/security-policy.js';
import { APP_API, APP_API_CHANNELS, APP_EVENT_CHANNEL, AppEventSchema, decodeAppApiError, type AppApiName } from '../../src/shared/app-api.js';
import { missingPermissions, type PermissionStatus } from '../../src/shared/permissions.js';

vi.mock('electron', async () => (await import('../helpers/fake-electron.js')).fakeElectronModule);

const FILE_ENTRY = 'file:///opt/sightline/out/renderer/index.html';
const SCREEN_PANE = 'x-apple.systempreferences:com.apple.preference.security?Privacy_ScreenCapture';
const ACCESSIBILITY_PANE = 'x-apple.systempreferences:com.apple.preference.security?Privacy_Accessibility';

/** The permissions events the window received, as the renderer would read them. */
function permissionEvents(window: { webContents: { sent: unknown[][] } }): PermissionStatus[] {
  return window.webContents.sent
    .filter(([channel]) => channel === APP_EVENT_CHANNEL)
    .map(([, event]) => AppEventSchema.parse(event))
    .flatMap((event) => (event.type === 'permissions' ? [event.status] : []));
}

describe('macOS permissions through Electron', () => {
  beforeEach(() => resetFakeElectron());

  it('asks systemPreferences for Screen Recording and Accessibility, never raising the prompt on a check', () => {
    fakeElectron.systemPreferences.screenAccess = 'denied';
    fakeElectron.systemPreferences.accessibilityTrusted = false;
    const status = electronPermissions('darwin', {}).status();
    expect(missingPermissions(status).map((check) => check.permission)).toEqual(['screen-recording', 'accessibility']);
    expect(fakeElectron.systemPreferences.getMediaAccessStatus).toHaveBeenCalledWith('screen');
    expect(fakeElectron.systemPreferences.isTrustedAccessibilityClient.mock.calls).toEqual([[false]]);
  });

  it('opens the Screen Recording pane after a first capture request, so that Sightline is listed there', async () => {
    await expect(electronPermissions('darwin', {}).openSettings('screen-recording')).resolves.toEqual({ opened: true, pane: SCREEN_PANE });
    expect(fakeElectron.desktopCapturer.getSources).toHaveBeenCalledOnce();
    expect(fakeElectron.shell.openExternal.mock.calls).toEqual([[SCREEN_PANE]]);
  });

  it('opens the Accessibility pane after asking with the prompt, which lists Sightline there', async () => {
    await electronPermissions('darwin', {}).openSettings('accessibility');
    expect(fakeElectron.systemPreferences.isTrustedAccessibilityClient.mock.calls).toEqual([[true]]);
    expect(fakeElectron.shell.openExternal.mock.calls).toEqual([[ACCESSIBILITY_PANE]]);
  });

  it('asks systemPreferences nothing on Linux or Windows', () => {
    electronPermissions('linux', { DISPLAY: ':0' }).status();
    electronPermissions('win32', {}).status();
    expect(fakeElectron.systemPreferences.getMediaAccessStatus).not.toHaveBeenCalled();
    expect(fakeElectron.systemPreferences.isTrustedAccessibilityClient).not.toHaveBeenCalled();
  });

  it('re-checks when the window regains the focus and tells the renderer only what changed', () => {
    fakeElectron.systemPreferences.screenAccess = 'not-determined';
    const window = new fakeElectron.windowClass({});
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const watch = startPermissionWatch(electronPermissions('darwin', {}), () => window.webContents as never);
    // The first start's check is logged, not sent: the page asks for it when it loads.
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('Screen Recording is missing'));
    warn.mockRestore();
    recheckPermissionsOnFocus(window as never, watch);

    window.emit('focus');
    expect(permissionEvents(window)).toEqual([]);

    fakeElectron.systemPreferences.screenAccess = 'granted';
    window.emit('focus');
    const events = permissionEvents(window);
    expect(events).toHaveLength(1);
    expect(missingPermissions(events[0]!)).toEqual([]);

    window.emit('focus');
    expect(permissionEvents(window)).toHaveLength(1);
  });
});

describe('the permission calls over IPC', () => {
  beforeEach(() => resetFakeElectron());

  function register(overrides: Partial<AppApiImplementation>): void {
    const refusing = Object.fromEntries(
      (Object.keys(APP_API) as AppApiName[]).map((name) => [name, vi.fn(() => Promise.reject(new Error(`${name} should not run`)))]),
    ) as unknown as AppApiImplementation;
    registerAppApiHandlers({ implementation: { ...refusing, ...overrides }, isTrustedFrameUrl: (url) => isAppUrl(url, FILE_ENTRY) });
  }

  async function invokeError(channel: string, ...callArguments: unknown[]) {
    const error: unknown = await fakeElectron.ipcMain.invoke(channel, FILE_ENTRY, ...callArguments).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    return decodeAppApiError((error as Error).message);
  }

  it('answers permissionStatus with the validated status', async () => {
    fakeElectron.systemPreferences.accessibilityTrusted = false;
    const permissions = electronPermissions('darwin', {});
    register({ permissionStatus: () => permissions.status() });
    const status = (await fakeElectron.ipcMain.invoke(APP_API_CHANNELS.permissionStatus, FILE_ENTRY)) as PermissionStatus;
    expect(missingPermissions(status).map((check) => check.label)).toEqual(['Accessibility']);
  });

  it('opens only the panes it knows, refusing anything else before it runs', async () => {
    const openPermissionSettings = vi.fn((permission: 'screen-recording' | 'accessibility') =>
      electronPermissions('darwin', {}).openSettings(permission),
    );
    register({ openPermissionSettings });
    for (const bad of [['camera'], [], ['accessibility', 'extra'], [{ permission: 'accessibility' }], ['x11-display']]) {
      const error = await invokeError(APP_API_CHANNELS.openPermissionSettings, ...bad);
      expect(error.code, JSON.stringify(bad)).toBe('invalid-arguments');
      expect(error.message).toContain('Invalid arguments for permissions:open-settings');
    }
    expect(openPermissionSettings).not.toHaveBeenCalled();
    expect(fakeElectron.shell.openExternal).not.toHaveBeenCalled();
    await expect(fakeElectron.ipcMain.invoke(APP_API_CHANNELS.openPermissionSettings, FILE_ENTRY, 'accessibility')).resolves.toEqual({
      opened: true,
      pane: ACCESSIBILITY_PANE,
    });
  });

  it('does not hand the renderer a malformed status', async () => {
    register({ permissionStatus: () => ({ checked: true, permissions: [{ permission: 'camera' }] }) as never });
    const error = await invokeError(APP_API_CHANNELS.permissionStatus);
    expect(error.code).toBe('internal');
    expect(error.message).toContain('invalid result for permissions:status');
  });

  it('refuses permission calls from a foreign page', async () => {
    register({ permissionStatus: () => electronPermissions('win32', {}).status() });
    const error: unknown = await fakeElectron.ipcMain.invoke(APP_API_CHANNELS.permissionStatus, 'https://evil.example/').catch((caught: unknown) => caught);
    expect(decodeAppApiError((error as Error).message).code).toBe('refused');
  });
});

describe('the app with a requirement missing', () => {
  useAppLifecycleHome('sightline-app-permissions-');
  beforeEach(() => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  // The app checks the platform it runs on; under Linux, the requirement a test can take away is X11.
  it.runIf(process.platform === 'linux')(
    'says so at the first start, refuses a desktop run with the message, and tells the window once X11 is back',
    async () => {
      vi.stubEnv('DISPLAY', '');
      vi.stubEnv('WAYLAND_DISPLAY', 'wayland-0');
      vi.stubEnv('XDG_SESSION_TYPE', 'wayland');
      startApp();
      await fakeElectron.app.becomeReady();
      expect(console.warn).toHaveBeenCalledWith(expect.stringContaining('screen capture and input need X11'));

      const status = (await fakeElectron.ipcMain.invoke(APP_API_CHANNELS.permissionStatus, FILE_ENTRY)) as PermissionStatus;
      expect(missingPermissions(status).map((check) => check.permission)).toEqual(['x11-display']);

      const refused: unknown = await fakeElectron.ipcMain
        .invoke(APP_API_CHANNELS.startRun, FILE_ENTRY, { task: 'open the calculator' })
        .catch((caught: unknown) => caught);
      const error = decodeAppApiError((refused as Error).message);
      expect(error.code).toBe('refused');
      expect(error.message).toMatch(/^The desktop operator cannot run yet\. X11 display is missing \(DISPLAY is not set: this is a Wayland session without XWayland/);
      expect(error.message).toContain('log in to an X11 session');
      await expect(fakeElectron.ipcMain.invoke(APP_API_CHANNELS.listSessions, FILE_ENTRY, {})).resolves.toMatchObject({ total: 0 });

      const window = fakeElectron.windows[0]!;
      window.emit('focus');
      expect(permissionEvents(window)).toEqual([]);
      vi.stubEnv('DISPLAY', ':0');
      window.emit('focus');
      expect(permissionEvents(window).map((event) => missingPermissions(event).length)).toEqual([0]);
    },
  );
});
