/**
 * The main window: built from the pure options of security-policy.ts, with its web contents locked to the
 * app's own page, content-protected so it never shows up in the screenshots the agent takes of the desktop,
 * and shown only once it has painted.
 */
import { BrowserWindow, shell, type WebContents } from 'electron';
import { decideWindowOpen, isNavigationAllowed, mainWindowOptions, type RendererLocation } from './security-policy.js';

export interface MainWindowOptions {
  location: RendererLocation;
  preloadPath: string;
}

export function createMainWindow({ location, preloadPath }: MainWindowOptions): BrowserWindow {
  const window = new BrowserWindow(mainWindowOptions(preloadPath));
  // The agent screenshots the desktop; its own timeline must not end up in what the model sees.
  window.setContentProtection(true);
  window.once('ready-to-show', () => window.show());
  lockWebContents(window.webContents, location.entryUrl);
  window.loadURL(location.entryUrl).catch((error: unknown) => {
    console.error(`Sightline could not load its window (${location.entryUrl}): ${error instanceof Error ? error.message : String(error)}`);
  });
  return window;
}

/**
 * Keeps a web contents on the app's page: no new windows (web links open in the OS browser), no navigation
 * or redirect to anything but the app, no webviews.
 */
export function lockWebContents(contents: WebContents, entryUrl: string): void {
  contents.setWindowOpenHandler(({ url }) => {
    const decision = decideWindowOpen(url);
    if (decision.openExternally) openInBrowser(decision.openExternally);
    return { action: decision.action };
  });
  const refuseForeignNavigation = (event: { preventDefault: () => void }, url: string): void => {
    if (!isNavigationAllowed(url, entryUrl)) event.preventDefault();
  };
  contents.on('will-navigate', (event) => refuseForeignNavigation(event, event.url));
  contents.on('will-redirect', (event) => refuseForeignNavigation(event, event.url));
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

function openInBrowser(url: string): void {
  shell.openExternal(url).catch((error: unknown) => {
    console.error(`Sightline could not open ${url} in the browser: ${error instanceof Error ? error.message : String(error)}`);
  });
}
