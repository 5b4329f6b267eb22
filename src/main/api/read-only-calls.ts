/**
 * A read-only app API: every call that would change something is refused with the reason, the others pass through.
 * A team timeline (`sightline timeline --store …`) shows a local mirror of the team store; a pull replaces its rows
 * from the store, so a pin or a delete there would be undone silently, and a run started there would belong to no
 * worker. Refusing says so instead.
 *
 * Each call is classified here, in a table the compiler checks is complete: a new call must be placed before it
 * builds, so none slips through as writable by omission.
 */
import { AppApiError, type AppApiName } from '../../shared/app-api.js';
import type { AppApiImplementation } from './app-api-dispatch.js';

const CHANGES: Record<AppApiName, boolean> = {
  appInfo: false,
  listSessions: false,
  getSession: false,
  deleteSession: true,
  exportReport: false,
  listSteps: false,
  getImage: false,
  pinImage: true,
  unpinImage: true,
  listMedia: false,
  getMedia: false,
  listSearchReports: false,
  listInjections: false,
  listRuns: false,
  startRun: true,
  stopRun: true,
  pauseRun: true,
  resumeRun: true,
  answerConfirmation: true,
  answerQuestion: true,
  getKeyStatus: false,
  saveApiKey: true,
  permissionStatus: false,
  openPermissionSettings: false,
};

export function refuseChanges(implementation: AppApiImplementation, reason: string): AppApiImplementation {
  const guarded = { ...implementation } as Record<AppApiName, (...callArguments: unknown[]) => unknown>;
  for (const name of Object.keys(CHANGES) as AppApiName[]) {
    if (!CHANGES[name]) continue;
    guarded[name] = () => {
      throw new AppApiError('refused', reason);
    };
  }
  return guarded as AppApiImplementation;
}
