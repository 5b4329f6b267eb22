/**
 * Wires electron-updater and a dialog into the update policy of src/main/app/app-updates.ts, which decides
 * when to check, what to ask and what to do on errors.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { app, dialog, type BrowserWindow } from 'electron';
import { restartAnswer, restartQuestion, startAppUpdates, type AppUpdates } from '../app/app-updates.js';

export async function startUpdates(currentWindow: () => BrowserWindow | null): Promise<AppUpdates> {
  return startAppUpdates({
    isPackaged: app.isPackaged,
    feedConfigured: hasUpdateFeed(),
    loadUpdater: async () => (await import('electron-updater')).default.autoUpdater,
    askToRestart: async (version) => {
      const window = currentWindow();
      const question = restartQuestion(version);
      const { response } = window === null ? await dialog.showMessageBox(question) : await dialog.showMessageBox(window, question);
      return restartAnswer(response);
    },
    warn: (message) => console.warn(`Sightline: ${message}`),
    schedule: (check, intervalMs) => {
      const timer = setInterval(check, intervalMs);
      // A pending check must not keep the app alive at quit.
      timer.unref();
      return { stop: () => clearInterval(timer) };
    },
  });
}

/** electron-builder writes app-update.yml from the publish settings; a build without them has nothing to check. */
function hasUpdateFeed(): boolean {
  // Electron sets resourcesPath; under plain Node (the tests' fake Electron) it is absent.
  const resourcesPath = (process as { resourcesPath?: string }).resourcesPath;
  return resourcesPath !== undefined && existsSync(join(resourcesPath, 'app-update.yml'));
}
