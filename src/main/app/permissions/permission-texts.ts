/**
 * What the person reads about each requirement: its name as System Settings shows it, what goes wrong
 * without it, and what to do. One wording for the app's panel, the refusal of a desktop run and the doctor,
 * so the three never disagree. `grantee` is who must be allowed: Sightline itself in the app, the terminal
 * for the CLI (macOS grants a command-line program through the app that started it).
 */
import type { DesktopPermission, SettingsPermission } from '../../../shared/permissions.js';

export const PERMISSION_LABELS: Record<DesktopPermission, string> = {
  'screen-recording': 'Screen Recording',
  accessibility: 'Accessibility',
  'x11-display': 'X11 display',
};

export const PERMISSION_CONSEQUENCES: Record<DesktopPermission, string> = {
  'screen-recording': 'without it every screenshot is black or shows only the wallpaper, and the agent works blind',
  accessibility: 'without it the clicks and keys the agent sends are silently dropped',
  'x11-display': 'Sightline captures the screen and sends input through X11',
};

/** The System Settings panes, as URLs macOS opens (shell.openExternal). */
export const SETTINGS_PANE_URLS: Record<SettingsPermission, string> = {
  'screen-recording': 'x-apple.systempreferences:com.apple.preference.security?Privacy_ScreenCapture',
  accessibility: 'x-apple.systempreferences:com.apple.preference.security?Privacy_Accessibility',
};

export const SIGHTLINE_GRANTEE = 'Sightline';
export const TERMINAL_GRANTEE = 'your terminal app (the one you run sightline from)';

export function settingsPath(permission: SettingsPermission): string {
  return `System Settings > Privacy & Security > ${PERMISSION_LABELS[permission]}`;
}

export function grantRemedy(permission: SettingsPermission, grantee: string): string {
  // macOS applies a new Screen Recording grant only to processes started after it.
  const restart = permission === 'screen-recording' ? `, then quit and reopen ${grantee === SIGHTLINE_GRANTEE ? 'Sightline' : 'it'}` : '';
  return `open ${settingsPath(permission)} and turn on ${grantee}${restart}`;
}

export function restrictedRemedy(permission: SettingsPermission): string {
  return `${PERMISSION_LABELS[permission]} is restricted by a device management profile on this Mac: ask its administrator to allow it`;
}

export const WAYLAND_PROBLEM = 'this is a Wayland session without XWayland, and screen capture and input need X11';
export const WAYLAND_REMEDY =
  'log in to an X11 session (on the login screen pick "GNOME on Xorg", "Plasma (X11)" or similar), or enable XWayland so that DISPLAY is set';
export const NO_DISPLAY_PROBLEM = 'DISPLAY is not set: there is no X display to capture or send input to';
export const NO_DISPLAY_REMEDY = 'run under a desktop session, or start Xvfb: Xvfb :99 & export DISPLAY=:99';

/** Said instead of a list where there is nothing to grant. */
export const WINDOWS_NOTE = 'Windows asks for no permission to capture the screen or send input.';
export const UNSUPPORTED_PLATFORM_NOTE = 'The desktop operator runs on macOS, Windows and Linux with X11.';
export const UNCHECKED_MAC_NOTE =
  'This process cannot ask macOS about its permissions; the Sightline app checks them before each desktop run.';
