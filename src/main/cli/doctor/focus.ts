/**
 * Whether the desktop operator can learn what has the keyboard focus from the OS (a password field, a
 * terminal). Without it Sightline still runs: the secret heuristics judge typed text instead, so it is a
 * warning, with what to install or allow.
 */
import { createPlatformFocusReader } from '../../operators/focus/platform-focus-reader.js';
import type { DoctorCheckResult, DoctorEnvironment } from './check.js';

const NAME = 'focus';

export async function checkFocusDetection(environment: DoctorEnvironment): Promise<DoctorCheckResult> {
  const reader = createPlatformFocusReader({ platform: environment.platform, env: { ...environment.env } });
  try {
    const availability = await reader.availability();
    if (availability.available) return { name: NAME, status: 'ok', detail: availability.detail };
    return {
      name: NAME,
      status: 'warning',
      detail: `${availability.reason}; password fields and terminals are not recognized, typed text is judged by the secret heuristics`,
      fix: availability.fix,
    };
  } finally {
    await reader.close();
  }
}
