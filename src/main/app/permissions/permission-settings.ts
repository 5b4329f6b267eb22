/**
 * The permissions as the app API serves them: a fresh check on every ask, and the System Settings pane of a
 * permission opened on request. The desktop app builds one from Electron's answers; `sightline timeline`
 * from the environment only (it cannot ask macOS, and opens no pane).
 */
import type { PermissionStatus, SettingsPermission } from '../../../shared/permissions.js';
import { checkDesktopPermissions, type PermissionProbe } from './desktop-permissions.js';
import { PERMISSION_LABELS, SETTINGS_PANE_URLS } from './permission-texts.js';

export interface DesktopPermissions {
  status(): PermissionStatus;
  /** Opens the pane where the person grants it; throws SettingsUnavailableError where there is none. */
  openSettings(permission: SettingsPermission): Promise<{ opened: true; pane: string }>;
}

export class SettingsUnavailableError extends Error {
  override name = 'SettingsUnavailableError';
}

export interface DesktopPermissionsOptions {
  probe: PermissionProbe;
  /** Opens a URL with the system (Electron's shell.openExternal); absent where nothing can be opened. */
  openExternal?: (url: string) => Promise<void>;
  /**
   * Makes the app appear in the pane's list before it opens (macOS lists an app there only once it has
   * asked): isTrustedAccessibilityClient(true), a first screen capture.
   */
  announce?: (permission: SettingsPermission) => Promise<void>;
}

export function createDesktopPermissions({ probe, openExternal, announce }: DesktopPermissionsOptions): DesktopPermissions {
  return {
    status: () => checkDesktopPermissions(probe),
    async openSettings(permission) {
      if (probe.platform !== 'darwin' || openExternal === undefined) {
        throw new SettingsUnavailableError(`There is no ${PERMISSION_LABELS[permission]} pane to open here: only the Sightline app on macOS has one.`);
      }
      if (announce !== undefined) await announce(permission);
      const pane = SETTINGS_PANE_URLS[permission];
      await openExternal(pane);
      return { opened: true, pane };
    },
  };
}
