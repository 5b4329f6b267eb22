/** What a doctor check reports, and what it may look at. */
import type { Config } from '../../../shared/config.js';
import type { SightlineHome } from '../../config/home.js';
import type { ConfigSource } from '../../config/sources.js';

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

/** The fix for a Linux session without an X display, shared by the display and input checks. */
export const NO_DISPLAY_FIX = 'run under a desktop session, or start Xvfb: Xvfb :99 & export DISPLAY=:99';

/** node-screenshots and nut-js reach the screen through X11 on Linux; without DISPLAY neither can work. */
export function lacksLinuxDisplay(environment: DoctorEnvironment): boolean {
  return environment.platform === 'linux' && (environment.env.DISPLAY ?? '').trim() === '';
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
