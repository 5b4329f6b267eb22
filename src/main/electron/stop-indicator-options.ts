/**
 * The emergency stop indicator's window as plain data (it imports only types from electron, so it is
 * tested under Node): a small frameless window, always on top, out of the taskbar, with the same hardened
 * web preferences as the main window and a preload of its own that exposes Stop and nothing else.
 */
import { join } from 'node:path';
import type { BrowserWindowConstructorOptions, Rectangle } from 'electron';
import { hardenedWebPreferences, WINDOW_BACKGROUND_COLOR, type RendererLocation } from './security-policy.js';

export const STOP_INDICATOR_SIZE = { width: 280, height: 64 } as const;
/** Space kept between the indicator and the work area's corner. */
const CORNER_MARGIN = 16;

/** The indicator's page, next to the main page: the built file, or the same path on the dev server. */
export function stopIndicatorUrl(location: RendererLocation): string {
  return new URL('stop-indicator.html', location.entryUrl).href;
}

export function stopIndicatorPreloadPath(appPath: string): string {
  return join(appPath, 'out', 'preload', 'stop-indicator.cjs');
}

/** Top right of the work area, where it covers little and is found at once. */
export function stopIndicatorBounds(workArea: Rectangle): Rectangle {
  return {
    x: workArea.x + workArea.width - STOP_INDICATOR_SIZE.width - CORNER_MARGIN,
    y: workArea.y + CORNER_MARGIN,
    width: STOP_INDICATOR_SIZE.width,
    height: STOP_INDICATOR_SIZE.height,
  };
}

export function stopIndicatorWindowOptions(preloadPath: string, bounds: Rectangle): BrowserWindowConstructorOptions {
  return {
    title: 'Sightline is acting',
    ...bounds,
    frame: false,
    resizable: false,
    minimizable: false,
    maximizable: false,
    fullscreenable: false,
    skipTaskbar: true,
    alwaysOnTop: true,
    // Shown with showInactive when a run starts, so it never takes the keyboard from the agent's target.
    show: false,
    backgroundColor: WINDOW_BACKGROUND_COLOR,
    webPreferences: hardenedWebPreferences(preloadPath),
  };
}
