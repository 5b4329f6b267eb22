/**
 * The desktop operator's OS requirements, answered by Electron: systemPreferences for the two macOS
 * permissions, shell to open their System Settings panes. What to check, the wording and when to re-check
 * are the plain module's (src/main/app/permissions); this file only plugs Electron in. Windows needs nothing,
 * and Linux's X11 check reads the environment only, so neither asks Electron anything.
 */
import { desktopCapturer, shell, systemPreferences, type BrowserWindow, type WebContents } from 'electron';
import type { SettingsPermission } from '../../shared/permissions.js';
import { sendToWindow } from './event-forwarding.js';
import { createDesktopPermissions, desktopRunRefusal, PermissionWatch, SIGHTLINE_GRANTEE, type DesktopPermissions } from '../app/permissions/index.js';

export function electronPermissions(platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): DesktopPermissions {
  const macOnly =
    platform === 'darwin'
      ? {
          screenRecordingStatus: () => systemPreferences.getMediaAccessStatus('screen'),
          // false: only ask, never raise the system prompt on a mere check.
          isAccessibilityTrusted: () => systemPreferences.isTrustedAccessibilityClient(false),
        }
      : {};
  return createDesktopPermissions({
    probe: { platform, env, grantee: SIGHTLINE_GRANTEE, ...macOnly },
    openExternal: (url) => shell.openExternal(url),
    announce: announceToMacOs,
  });
}

/**
 * macOS lists an app in a privacy pane only after it asked once; without this the person would have to add
 * Sightline by hand. Asking for Accessibility also raises the system's own prompt, which points to the
 * same pane.
 */
async function announceToMacOs(permission: SettingsPermission): Promise<void> {
  if (permission === 'accessibility') {
    systemPreferences.isTrustedAccessibilityClient(true);
    return;
  }
  await desktopCapturer.getSources({ types: ['screen'], thumbnailSize: { width: 1, height: 1 } });
}

/**
 * The first start's check (logged when something is missing: the window's panel shows it too) and the
 * watch that tells the renderer when a re-check finds a change.
 */
export function startPermissionWatch(permissions: DesktopPermissions, currentContents: () => WebContents | null): PermissionWatch {
  const watch = new PermissionWatch(
    () => permissions.status(),
    (status) => sendToWindow(currentContents, { type: 'permissions', at: Date.now(), status }),
  );
  const refusal = desktopRunRefusal(watch.current());
  if (refusal !== undefined) console.warn(`Sightline: ${refusal}`);
  return watch;
}

/** A person coming back from System Settings focuses the window again: that is when to look again. */
export function recheckPermissionsOnFocus(window: BrowserWindow, watch: PermissionWatch): void {
  window.on('focus', () => watch.recheck());
}
