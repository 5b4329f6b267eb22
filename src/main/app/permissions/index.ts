/** The desktop operator's OS requirements (macOS permissions, Linux's X11): checks, wording, and when to re-check. */
export { checkDesktopPermissions, desktopRunRefusal, isWaylandSession, isWaylandWithoutXWayland, type PermissionProbe } from './desktop-permissions.js';
export { createDesktopPermissions, SettingsUnavailableError, type DesktopPermissions, type DesktopPermissionsOptions } from './permission-settings.js';
export { PermissionWatch } from './permission-watch.js';
export * from './permission-texts.js';
