/**
 * The Chromium features the app turns on at start (Electron reads them from its command line, so they are
 * set before `ready`).
 *
 * GlobalShortcutsPortal, in a Wayland session: the emergency stop's global shortcut is then bound through
 * the desktop's GlobalShortcuts portal (xdg-desktop-portal; KDE Plasma 6, GNOME 48 and later), so it is heard
 * whatever application has the focus. Without it, Electron grabs the keys through X11, which under Wayland
 * hears them only while an XWayland window has the focus. Electron documents the switch for this case
 * (globalShortcut, "GlobalShortcutsPortal", Electron 35 and later). It stays off in an X11 session, where the
 * X11 grab already hears every key and a portal could consume the keys it binds.
 */
import { isWaylandSession } from './permissions/index.js';

export function chromiumFeaturesFor(platform: NodeJS.Platform, env: Readonly<Record<string, string | undefined>>): string[] {
  return platform === 'linux' && isWaylandSession(env) ? ['GlobalShortcutsPortal'] : [];
}
