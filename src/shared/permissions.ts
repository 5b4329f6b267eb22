/**
 * What the desktop needs from the operating system before the agent can see and act on it, as the app API
 * reports it (permissionStatus) and the renderer's permissions panel shows it. The checks themselves live in
 * src/main/app/permissions; this is only their shape, shared by the main process and the renderer.
 *
 * - macOS: Screen Recording (without it every capture is black or shows only the wallpaper) and
 *   Accessibility (without it clicks and keys are silently dropped). Each has a System Settings pane.
 * - Linux: an X11 display; a Wayland session without XWayland has none, and capture and input need X11.
 * - Windows: nothing to grant.
 */
import { z } from 'zod';

/** A requirement of the desktop operator. `x11-display` is Linux's; the other two are macOS privacy permissions. */
export const DESKTOP_PERMISSIONS = ['screen-recording', 'accessibility', 'x11-display'] as const;
export type DesktopPermission = (typeof DESKTOP_PERMISSIONS)[number];

/** The ones a person grants in a System Settings pane that the app can open. */
export const SETTINGS_PERMISSIONS = ['screen-recording', 'accessibility'] as const;
export type SettingsPermission = (typeof SETTINGS_PERMISSIONS)[number];

/**
 * Electron's answers (systemPreferences.getMediaAccessStatus), plus `unsupported` for a session that cannot
 * give it at all (Wayland without XWayland). `unknown`: the process could not tell; never a refusal.
 */
export const PERMISSION_STATES = ['granted', 'denied', 'not-determined', 'restricted', 'unknown', 'unsupported'] as const;
export type PermissionState = (typeof PERMISSION_STATES)[number];

export const PermissionCheckSchema = z
  .object({
    permission: z.enum(DESKTOP_PERMISSIONS),
    /** As System Settings names it: "Screen Recording", "Accessibility"; "X11 display" on Linux. */
    label: z.string().min(1),
    state: z.enum(PERMISSION_STATES),
    /** Whether a desktop run is refused for it. */
    missing: z.boolean(),
    /** What goes wrong without it, for the person. */
    consequence: z.string().min(1),
    /** What to do and where; present when it is missing or could not be checked. */
    remedy: z.string().optional(),
    /** The pane openPermissionSettings opens for it, when there is one. */
    settings: z.enum(SETTINGS_PERMISSIONS).nullable(),
  })
  .strict();
export type PermissionCheck = z.infer<typeof PermissionCheckSchema>;

export const PermissionStatusSchema = z
  .object({
    /** Whether this process could ask the system (the desktop app can; `sightline timeline` cannot on macOS). */
    checked: z.boolean(),
    permissions: z.array(PermissionCheckSchema),
    /** For the person, when there is something to say beyond the list (Windows needs nothing, say so). */
    note: z.string().optional(),
    /**
     * Whether a task started without naming an operator runs on the desktop (the configuration's
     * agent.operator): the timeline's task form then says what the desktop lacks. Absent where nobody asked.
     */
    desktopByDefault: z.boolean().optional(),
  })
  .strict();
export type PermissionStatus = z.infer<typeof PermissionStatusSchema>;

export const OpenPermissionSettingsResultSchema = z.object({ opened: z.literal(true), pane: z.string() }).strict();

/** The requirements a desktop run is refused for. */
export function missingPermissions(status: PermissionStatus): PermissionCheck[] {
  return status.permissions.filter((check) => check.missing);
}
