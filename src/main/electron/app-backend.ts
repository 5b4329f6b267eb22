/**
 * The desktop app's back end: the home folder and configuration (API keys from the secret store where the
 * config and environment set none; the API keys dialog saves them there), the runtime, and the app service
 * the IPC handlers serve. It starts in the background so the window can paint at once; calls made before it
 * is ready wait for it.
 */
import { app, safeStorage, type BrowserWindow } from 'electron';
import { APP_API, AppApiError, type AppApiName } from '../../shared/app-api.js';
import { secretRedactor } from '../../shared/secret-redaction.js';
import type { AppApiImplementation } from '../api/app-api-dispatch.js';
import { createAppService, type AppService } from '../api/app-service.js';
import { openRuntime, type Runtime } from '../app/runtime.js';
import { resolveHome } from '../config/home.js';
import { loadConfig } from '../config/load.js';
import type { DesktopPermissions } from '../app/permissions/index.js';
import type { OwnWindowHook } from '../operators/operator.js';
import { chooseSqliteBinding } from '../storage/index.js';
import { ownWindowHook, ownWindowsHook } from './own-window.js';
import { SecretStore } from './secret-store.js';

export interface AppBackend {
  /** Serves every call, waiting for the back end to be ready first. */
  implementation: AppApiImplementation;
  service: Promise<AppService>;
  /** The emergency stop's shortcut from the configuration (agent.stopShortcut), once it is loaded. */
  stopShortcut: Promise<string | undefined>;
  /** Stops runs, then closes the database. */
  close(): Promise<void>;
}

export interface AppBackendOptions {
  /** What the desktop operator needs from the OS (permissions.ts); a desktop run is refused while it is missing. */
  permissions?: DesktopPermissions;
  /** Sightline's other window (the stop indicator), kept out of the agent's way along with the main one. */
  otherOwnWindow?: OwnWindowHook;
}

export function startAppBackend(
  currentWindow: () => BrowserWindow | null,
  { permissions, otherOwnWindow }: AppBackendOptions = {},
): AppBackend {
  let runtime: Runtime | undefined;
  let announceStopShortcut: (shortcut: string | undefined) => void = () => undefined;
  const stopShortcut = new Promise<string | undefined>((resolve) => (announceStopShortcut = resolve));
  const service = (async () => {
    const home = resolveHome({ env: process.env, cwd: process.cwd() });
    const secrets = new SecretStore(home.root, safeStorage);
    const warning = secrets.weakEncryptionWarning();
    if (warning !== undefined) console.warn(`Sightline: ${warning}`);
    const loaded = loadConfig({ home, env: process.env });
    announceStopShortcut(loaded.config.agent.stopShortcut);
    // Until the service exists, the configuration's secrets; then its redactor, which knows saved keys too.
    let redactStoredText = secretRedactor(loaded.config);
    runtime = await openRuntime({
      home,
      config: loaded.config,
      redactStoredText: (text) => redactStoredText(text),
      sqliteBinding: chooseSqliteBinding({
        electronVersion: process.versions.electron,
        isPackaged: app.isPackaged,
        projectRoot: app.getAppPath(),
        arch: process.arch,
        moduleVersion: process.versions.modules,
      }),
    });
    // The service adds the saved keys to the configuration, and a key saved later to the runs after it.
    const created = createAppService({
      storage: runtime.storage,
      config: loaded.config,
      configSources: loaded.sources,
      home: home.root,
      secrets,
      appInfo: () => ({ version: app.getVersion(), platform: process.platform }),
      ownWindow: otherOwnWindow === undefined ? ownWindowHook(currentWindow) : ownWindowsHook([otherOwnWindow, ownWindowHook(currentWindow)]),
      ...(permissions === undefined ? {} : { permissions }),
    });
    redactStoredText = created.dispatch.redact ?? redactStoredText;
    return created;
  })();
  // Logged here; each call that needs the service reports the failure to the renderer too.
  service.catch((error: unknown) => console.error(`Sightline could not open its data: ${error instanceof Error ? error.message : String(error)}`));

  const implementation = Object.fromEntries(
    (Object.keys(APP_API) as AppApiName[]).map((name) => [
      name,
      async (...callArguments: unknown[]) => {
        const ready = await service.catch((error: unknown) => {
          throw new AppApiError('unavailable', `Sightline could not open its data: ${error instanceof Error ? error.message : String(error)}`);
        });
        try {
          return await (ready.implementation[name] as (...parsed: unknown[]) => unknown)(...callArguments);
        } catch (error) {
          if (error instanceof AppApiError) throw error;
          // Masked here, where the configuration's keys are known.
          const redact = ready.dispatch.redact ?? ((text: string) => text);
          throw new AppApiError('internal', `${name} failed: ${redact(error instanceof Error ? error.message : String(error))}`);
        }
      },
    ]),
  ) as AppApiImplementation;

  return {
    implementation,
    service,
    stopShortcut,
    close: async () => {
      await service.then((ready) => ready.close()).catch(() => undefined);
      runtime?.close();
    },
  };
}
