/** What a doctor check reports, and what it may look at. */
import type { Config } from '../../../shared/config.js';
import type { SightlineHome } from '../../config/home.js';
import type { ConfigSource } from '../../config/sources.js';
import { NO_DISPLAY_REMEDY, WAYLAND_PROBLEM, WAYLAND_REMEDY, isWaylandWithoutXWayland } from '../../app/permissions/index.js';

export type DoctorStatus = 'ok' | 'warning' | 'problem';

export interface DoctorCheckResult {
  name: string;
  status: DoctorStatus;
  detail: string;
  /** What the user can do about a warning or a problem. */
  fix?: string;
}

export interface DoctorEnvironment {
  home: SightlineHome;
  config: Config;
  sources: Readonly<Record<string, ConfigSource>>;
  env: Readonly<Record<string, string | undefined>>;
  platform: NodeJS.Platform;
}

export type DoctorCheck = (environment: DoctorEnvironment) => DoctorCheckResult | Promise<DoctorCheckResult>;

/** The fix for a Linux session without an X display, shared by the display and input checks (and the app's panel). */
export const NO_DISPLAY_FIX = NO_DISPLAY_REMEDY;

/** node-screenshots and nut-js reach the screen through X11 on Linux; without DISPLAY neither can work. */
export function lacksLinuxDisplay(environment: DoctorEnvironment): boolean {
  return environment.platform === 'linux' && (environment.env.DISPLAY ?? '').trim() === '';
}

/**
 * The display and input checks' answer on Linux without DISPLAY: a Wayland session without XWayland gets the
 * app's wording (capture and input need X11, log in to an X11 session); any other gets the Xvfb fix.
 */
export function missingLinuxDisplay(environment: DoctorEnvironment, name: string, what: string): DoctorCheckResult {
  if (isWaylandWithoutXWayland(environment.env)) {
    return { name, status: 'problem', detail: `DISPLAY is not set: ${WAYLAND_PROBLEM}`, fix: WAYLAND_REMEDY };
  }
  return { name, status: 'problem', detail: `DISPLAY is not set: no X display to ${what}`, fix: NO_DISPLAY_FIX };
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
