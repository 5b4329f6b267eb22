/**
 * Which of the desktop operator's requirements are met, from what the system answers: the permission logic
 * the app, the app API and the doctor share, free of Electron so that it runs and is tested under plain Node.
 * The Electron shell only supplies the answers (systemPreferences) and opens the panes (shell).
 *
 * When to check: at the app's first start, before each desktop run (a run with a missing requirement is
 * refused with desktopRunRefusal's message instead of working blind), and each time the app's window
 * regains the focus (permission-watch.ts), since that is when a person comes back from System Settings.
 * Windows needs nothing; Linux needs an X11 display (Wayland without XWayland has none).
 */
import {
  missingPermissions,
  type PermissionCheck,
  type PermissionState,
  type PermissionStatus,
  type SettingsPermission,
} from '../../../shared/permissions.js';
import {
  NO_DISPLAY_PROBLEM,
  NO_DISPLAY_REMEDY,
  PERMISSION_CONSEQUENCES,
  PERMISSION_LABELS,
  SIGHTLINE_GRANTEE,
  UNCHECKED_MAC_NOTE,
  UNSUPPORTED_PLATFORM_NOTE,
  WAYLAND_PROBLEM,
  WAYLAND_REMEDY,
  WINDOWS_NOTE,
  grantRemedy,
  restrictedRemedy,
  settingsPath,
} from './permission-texts.js';

/** What the system answers about this process. */
export interface PermissionProbe {
  platform: NodeJS.Platform;
  env: Readonly<Record<string, string | undefined>>;
  /** macOS, in the app: systemPreferences.getMediaAccessStatus('screen'). Absent where it cannot be asked. */
  screenRecordingStatus?: () => string;
  /** macOS, in the app: systemPreferences.isTrustedAccessibilityClient(false). */
  isAccessibilityTrusted?: () => boolean;
  /** Who the person must allow (SIGHTLINE_GRANTEE in the app, TERMINAL_GRANTEE in the CLI). */
  grantee?: string;
}

const MEDIA_ACCESS_STATES: readonly PermissionState[] = ['granted', 'denied', 'not-determined', 'restricted', 'unknown'];

export function checkDesktopPermissions(probe: PermissionProbe): PermissionStatus {
  switch (probe.platform) {
    case 'darwin':
      return checkMacPermissions(probe);
    case 'linux':
      return { checked: true, permissions: [checkX11Display(probe.env)] };
    case 'win32':
      // Capture (node-screenshots) and input (nut-js) need no grant on Windows; only a locked or
      // service session cannot be driven, and that is the doctor's display check.
      return { checked: true, permissions: [], note: WINDOWS_NOTE };
    default:
      return { checked: false, permissions: [], note: UNSUPPORTED_PLATFORM_NOTE };
  }
}

/** The message a desktop run is refused with; undefined when nothing is missing. */
export function desktopRunRefusal(status: PermissionStatus): string | undefined {
  const missing = missingPermissions(status);
  if (missing.length === 0) return undefined;
  const reasons = missing.map((check) => `${check.label} is missing (${check.consequence}): ${check.remedy ?? 'see the permissions panel'}`);
  return `The desktop operator cannot run yet. ${reasons.join('. ')}.`;
}

/** A Wayland session, with or without XWayland beside it. */
export function isWaylandSession(env: Readonly<Record<string, string | undefined>>): boolean {
  return (env['XDG_SESSION_TYPE'] ?? '').toLowerCase() === 'wayland' || (env['WAYLAND_DISPLAY'] ?? '').trim() !== '';
}

/** A Wayland session whose X11 compatibility (XWayland) is absent: nothing X11-based can capture or click there. */
export function isWaylandWithoutXWayland(env: Readonly<Record<string, string | undefined>>): boolean {
  return isWaylandSession(env) && (env['DISPLAY'] ?? '').trim() === '';
}

function checkMacPermissions(probe: PermissionProbe): PermissionStatus {
  const grantee = probe.grantee ?? SIGHTLINE_GRANTEE;
  const screen = probe.screenRecordingStatus === undefined ? 'unknown' : mediaAccessState(probe.screenRecordingStatus());
  const accessibility = probe.isAccessibilityTrusted === undefined ? 'unknown' : probe.isAccessibilityTrusted() ? 'granted' : 'denied';
  const checked = probe.screenRecordingStatus !== undefined && probe.isAccessibilityTrusted !== undefined;
  return {
    checked,
    permissions: [settingsCheck('screen-recording', screen, grantee), settingsCheck('accessibility', accessibility, grantee)],
    ...(checked ? {} : { note: UNCHECKED_MAC_NOTE }),
  };
}

function settingsCheck(permission: SettingsPermission, state: PermissionState, grantee: string): PermissionCheck {
  const base = { permission, label: PERMISSION_LABELS[permission], state, consequence: PERMISSION_CONSEQUENCES[permission], settings: permission };
  switch (state) {
    case 'granted':
      return { ...base, missing: false };
    case 'restricted':
      return { ...base, missing: true, remedy: restrictedRemedy(permission) };
    case 'unknown':
      // Not refused on a guess: the run may well work, and the person is told where to look.
      return { ...base, missing: false, remedy: `check that ${grantee} is on under ${settingsPath(permission)}` };
    default:
      return { ...base, missing: true, remedy: grantRemedy(permission, grantee) };
  }
}

function checkX11Display(env: Readonly<Record<string, string | undefined>>): PermissionCheck {
  const base = { permission: 'x11-display' as const, label: PERMISSION_LABELS['x11-display'], consequence: PERMISSION_CONSEQUENCES['x11-display'], settings: null };
  if (isWaylandWithoutXWayland(env)) {
    return { ...base, state: 'unsupported', missing: true, consequence: `DISPLAY is not set: ${WAYLAND_PROBLEM}`, remedy: WAYLAND_REMEDY };
  }
  if ((env['DISPLAY'] ?? '').trim() === '') {
    return { ...base, state: 'unsupported', missing: true, consequence: NO_DISPLAY_PROBLEM, remedy: NO_DISPLAY_REMEDY };
  }
  return { ...base, state: 'granted', missing: false };
}

function mediaAccessState(answer: string): PermissionState {
  return MEDIA_ACCESS_STATES.find((state) => state === answer) ?? 'unknown';
}
