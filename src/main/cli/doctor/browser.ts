/**
 * Whether the Chromium or Chrome that `--operator browser` drives can be found, by the same lookup the
 * browser operator uses (SIGHTLINE_BROWSER_PATH, then the usual places). A missing browser is a problem
 * only when the configuration makes browser the default operator (agent.operator); otherwise the desktop
 * operator runs without one, and it is a warning about `--operator browser`.
 */
import { BROWSER_PATH_VARIABLE, BrowserNotFoundError, findBrowserExecutable } from '../../operators/browser-executable.js';
import type { DoctorCheckResult, DoctorEnvironment } from './check.js';

const NAME = 'browser';

export function checkBrowser(environment: DoctorEnvironment, exists?: (path: string) => boolean): DoctorCheckResult {
  const { env, platform } = environment;
  const fromVariable = (env[BROWSER_PATH_VARIABLE] ?? '') !== '';
  try {
    const path = findBrowserExecutable({ env, platform, ...(exists === undefined ? {} : { exists }) });
    return { name: NAME, status: 'ok', detail: fromVariable ? `${path} (from ${BROWSER_PATH_VARIABLE})` : `${path}, for --operator browser` };
  } catch (error) {
    if (!(error instanceof BrowserNotFoundError)) throw error;
    const needed = environment.config.agent.operator === 'browser';
    const consequence = needed ? 'agent.operator is browser, so runs cannot start' : '--operator browser cannot run';
    return { name: NAME, status: needed ? 'problem' : 'warning', detail: `${error.problem}; ${consequence}`, fix: error.fix };
  }
}
