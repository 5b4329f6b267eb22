/** The doctor's checks, in the order they are shown, and how to run them all. */
import { checkModelKey, checkTavilyKey } from './api-keys.js';
import { checkBrowser } from './browser.js';
import { errorMessage, type DoctorCheck, type DoctorCheckResult, type DoctorEnvironment } from './check.js';
import { checkDatabase } from './database.js';
import { checkDiskSpace } from './disk-space.js';
import { checkDisplay } from './display.js';
import { checkFocusDetection } from './focus.js';
import { checkHomeFolder } from './home-folder.js';
import { checkInput } from './input.js';

export type { DoctorCheckResult, DoctorEnvironment, DoctorStatus } from './check.js';

const CHECKS: readonly { name: string; run: DoctorCheck }[] = [
  { name: 'home', run: checkHomeFolder },
  { name: 'disk', run: checkDiskSpace },
  { name: 'database', run: checkDatabase },
  { name: 'display', run: checkDisplay },
  { name: 'input', run: checkInput },
  { name: 'focus', run: checkFocusDetection },
  { name: 'browser', run: checkBrowser },
  { name: 'model key', run: checkModelKey },
  { name: 'tavily key', run: checkTavilyKey },
];

/** Runs every check; a check that throws is itself reported as a problem, and the others still run. */
export async function runDoctorChecks(environment: DoctorEnvironment): Promise<DoctorCheckResult[]> {
  const results: DoctorCheckResult[] = [];
  for (const check of CHECKS) {
    try {
      results.push(await check.run(environment));
    } catch (error) {
      results.push({ name: check.name, status: 'problem', detail: `the check itself failed: ${errorMessage(error)}` });
    }
  }
  return results;
}
