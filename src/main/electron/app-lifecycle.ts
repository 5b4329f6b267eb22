/**
 * The Electron app's lifecycle: one instance at a time, a sandbox for every renderer, the session hardened
 * and the app API served before the first window opens, quit when the last window closes (except on macOS,
 * where apps stay in the dock and reopen a window on activate).
 */
import { app, BrowserWindow, session } from 'electron';
import { chromiumFeaturesFor } from '../app/chromium-features.js';
import type { OwnWindowHook } from '../operators/operator.js';
import { startAppBackend } from './app-backend.js';
import { startUpdates } from './app-updates.js';
import { installEmergencyStop, type EmergencyStop } from './emergency-stop.js';
import { forwardEvents } from './event-forwarding.js';
import { registerAppApiHandlers } from './ipc.js';
import { electronPermissions, recheckPermissionsOnFocus, startPermissionWatch } from './permissions.js';
import { isAppUrl, preloadScriptPath, resolveRendererLocation } from './security-policy.js';
import { stopIndicatorPreloadPath, stopIndicatorUrl } from './stop-indicator-options.js';
import { hardenSession } from './session.js';
import { createMainWindow, lockWebContents } from './window.js';

export function startApp(): void {
  // Must run before `ready`: it sandboxes every renderer, including any created without our options.
  app.enableSandbox();
  // Read by Chromium at `ready` too (chromium-features.ts: the stop shortcut under Wayland).
  const features = chromiumFeaturesFor(process.platform, process.env);
  if (features.length > 0) app.commandLine.appendSwitch('enable-features', features.join(','));
  if (!app.requestSingleInstanceLock()) {
    // Another Sightline is running; it receives `second-instance` and comes to the front.
    app.quit();
    return;
  }

  let mainWindow: BrowserWindow | null = null;
  let onWindowOpened: (window: BrowserWindow) => void = () => undefined;
  const location = resolveRendererLocation({
    appPath: app.getAppPath(),
    isPackaged: app.isPackaged,
    devServerUrl: process.env['ELECTRON_RENDERER_URL'],
  });
  const openMainWindow = (): void => {
    mainWindow = createMainWindow({ location, preloadPath: preloadScriptPath(app.getAppPath()) });
    mainWindow.on('closed', () => {
      mainWindow = null;
    });
    onWindowOpened(mainWindow);
  };

  // Any web contents, not only our window's, gets the same lock, so no stray page escapes the policy.
  // (createMainWindow locks its own too, to be safe wherever it is called; the listeners are idempotent.)
  app.on('web-contents-created', (_event, contents) => lockWebContents(contents, location.entryUrl));
  app.on('second-instance', () => {
    if (!mainWindow) return;
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('activate', () => {
    if (app.isReady() && BrowserWindow.getAllWindows().length === 0) openMainWindow();
  });

  app
    .whenReady()
    .then(() => {
      hardenSession(session.defaultSession, location);
      const permissions = electronPermissions();
      // Checked at the first start, then each time the window regains the focus.
      const permissionWatch = startPermissionWatch(permissions, () => mainWindow?.webContents ?? null);
      onWindowOpened = (window) => recheckPermissionsOnFocus(window, permissionWatch);
      // The stop indicator is kept out of the agent's way with the main window, once the emergency stop exists.
      let emergencyStop: EmergencyStop | null = null;
      const indicatorWindow: OwnWindowHook = {
        hide: async () => emergencyStop?.ownWindow.hide(),
        show: async () => emergencyStop?.ownWindow.show(),
      };
      const backend = startAppBackend(() => mainWindow, { permissions, otherOwnWindow: indicatorWindow });
      registerAppApiHandlers({
        implementation: backend.implementation,
        isTrustedFrameUrl: (frameUrl) => isAppUrl(frameUrl, location.entryUrl),
      });
      backend.service
        .then(async (service) => {
          forwardEvents(service.events, () => mainWindow?.webContents ?? null);
          emergencyStop = installEmergencyStop({
            service,
            configuredShortcut: await backend.stopShortcut,
            platform: process.platform,
            indicator: { pageUrl: stopIndicatorUrl(location), preloadPath: stopIndicatorPreloadPath(app.getAppPath()) },
            showMainWindow: () => {
              if (mainWindow === null) openMainWindow();
              else mainWindow.show();
            },
            quit: () => app.quit(),
          });
        }, () => undefined /* a back end that failed to open is logged by startAppBackend */)
        .catch((error: unknown) => {
          console.error(`Sightline could not set up its emergency stop: ${error instanceof Error ? error.message : String(error)}`);
        });
      // Runs are stopped and the database closed before the app exits: quitting waits for that once.
      let closed = false;
      app.on('before-quit', (event) => {
        if (closed) return;
        event.preventDefault();
        closed = true;
        emergencyStop?.dispose();
        void backend.close().finally(() => app.quit());
      });
      openMainWindow();
      startUpdates(() => mainWindow).catch((error: unknown) =>
        console.warn(`Sightline: updates are off: ${error instanceof Error ? error.message : String(error)}`),
      );
    })
    .catch((error: unknown) => {
      console.error(`Sightline could not start: ${error instanceof Error ? error.message : String(error)}`);
      app.exit(1);
    });
}
