/**
 * When the desktop app updates itself, as plain Node so it is tested without Electron: electron-updater
 * and the dialog are handed in (src/main/electron/app-updates.ts wires the real ones).
 *
 * - Off in development (a checkout has nothing to update to) and off unless a feed is configured: the
 *   installer's publish settings put app-update.yml in the app's resources, and without one there is nowhere
 *   to look. electron-updater is not even loaded then.
 * - Checks at start and every few hours, and downloads in the background.
 * - Asks before restarting, once per version, and never restarts on its own: a restart stops the running
 *   task. Declined, the update installs when the person quits.
 * - A failed check or download is logged, never shown: the app works on, and the next check retries.
 */

/** The part of electron-updater's AppUpdater this uses. */
export interface Updater {
  autoDownload: boolean;
  autoInstallOnAppQuit: boolean;
  on(event: 'update-downloaded', listener: (update: { version: string }) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  checkForUpdates(): Promise<unknown>;
  quitAndInstall(): void;
}

export type RestartAnswer = 'restart' | 'later';

/** A repeating timer, handed in so tests can fire it. */
export type ScheduleChecks = (check: () => void, intervalMs: number) => { stop: () => void };

export interface AppUpdatesOptions {
  /** Electron's app.isPackaged: false under `npm start` and `npm run dev`. */
  isPackaged: boolean;
  /** Whether the installed app carries a feed (app-update.yml from electron-builder's publish settings). */
  feedConfigured: boolean;
  /** Loads electron-updater's autoUpdater; called only when updates are on. */
  loadUpdater: () => Promise<Updater>;
  /** Asks the person whether to restart into the downloaded version now. */
  askToRestart: (version: string) => Promise<RestartAnswer>;
  warn: (message: string) => void;
  schedule: ScheduleChecks;
}

/** The question, in the shape of Electron's dialog.showMessageBox options. */
export interface RestartQuestion {
  type: 'info';
  title: string;
  message: string;
  detail: string;
  buttons: string[];
  defaultId: number;
  cancelId: number;
}

const RESTART_BUTTON = 0;
const LATER_BUTTON = 1;

/**
 * What the app asks once an update is downloaded. "Later" is the default and what Escape picks: a
 * restart would stop a task the agent may be in the middle of.
 */
export function restartQuestion(version: string): RestartQuestion {
  return {
    type: 'info',
    title: 'Update ready',
    message: `Sightline ${version} is ready to install.`,
    detail: 'Restart now to use it; a running task is stopped and kept in its session. Or choose Later: it installs when you quit Sightline.',
    buttons: ['Restart now', 'Later'],
    defaultId: LATER_BUTTON,
    cancelId: LATER_BUTTON,
  };
}

/** The answer for the button the person clicked in restartQuestion's dialog. */
export function restartAnswer(clickedButton: number): RestartAnswer {
  return clickedButton === RESTART_BUTTON ? 'restart' : 'later';
}

export const UPDATE_CHECK_INTERVAL_MS = 6 * 60 * 60 * 1000;

export type AppUpdates = { enabled: false; reason: string } | { enabled: true; stop: () => void };

/** Why updates are off, or undefined when they may run. */
export function updatesOffReason(options: Pick<AppUpdatesOptions, 'isPackaged' | 'feedConfigured'>): string | undefined {
  if (!options.isPackaged) return 'development build (not packaged): updates are never checked';
  if (!options.feedConfigured) return 'no update feed configured (electron-builder.yml has no publish settings)';
  return undefined;
}

export async function startAppUpdates(options: AppUpdatesOptions): Promise<AppUpdates> {
  const reason = updatesOffReason(options);
  if (reason !== undefined) return { enabled: false, reason };

  const updater = await options.loadUpdater();
  updater.autoDownload = true;
  // Quitting is the person's own restart: an update they put off installs then.
  updater.autoInstallOnAppQuit = true;
  const asked = new Set<string>();
  updater.on('update-downloaded', (update) => {
    // electron-updater announces the same download again after later checks; one question per version.
    if (asked.has(update.version)) return;
    asked.add(update.version);
    void options
      .askToRestart(update.version)
      .then((answer) => {
        if (answer === 'restart') updater.quitAndInstall();
      })
      .catch((error: unknown) => options.warn(`could not ask about the update to ${update.version}: ${describe(error)}`));
  });
  updater.on('error', (error) => options.warn(`update failed: ${describe(error)}`));

  const check = (): void => {
    updater.checkForUpdates().catch((error: unknown) => options.warn(`update check failed: ${describe(error)}`));
  };
  check();
  const timer = options.schedule(check, UPDATE_CHECK_INTERVAL_MS);
  return { enabled: true, stop: () => timer.stop() };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
