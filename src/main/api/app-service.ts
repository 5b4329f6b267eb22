/**
 * The app API's back end in one piece, as both front ends need it: storage (through the runtime), the event
 * bus, the run manager and the implementation. The Electron shell and `sightline timeline` each make one and
 * serve it over their transport.
 */
import type { AppInfo } from '../../shared/app-api.js';
import type { Config } from '../../shared/config.js';
import type { ConfigSource } from '../config/sources.js';
import type { Storage } from '../storage/index.js';
import { ApiKeySettings, type ApiKeySecrets } from './api-keys.js';
import type { AppApiImplementation, DispatchOptions } from './app-api-dispatch.js';
import { createAppApiImplementation } from './app-api-implementation.js';
import { EventBus } from '../app/event-bus.js';
import { createRunAssembler, type RunAssembler, type RunAssemblerOptions } from '../app/app-run-assembler.js';
import { RunManager } from '../app/run-manager.js';
import { secretRedactor } from '../../shared/secret-redaction.js';
import { nextRequestSettings } from './next-request-settings.js';
import { refuseChanges } from './read-only-calls.js';
import { SettingsUnavailableError, type DesktopPermissions } from '../app/permissions/index.js';

export interface AppServiceOptions extends Omit<RunAssemblerOptions, 'storage' | 'config'> {
  storage: Storage;
  /** The configuration as loaded (config.json, environment); saved keys are added from `secrets`. */
  config: Config;
  /** Where each configuration value came from, so getKeyStatus can say config.json or environment. */
  configSources?: Readonly<Record<string, ConfigSource>>;
  /** The desktop app's saved keys; without it (sightline timeline) saveApiKey is refused. */
  secrets?: ApiKeySecrets;
  appInfo: () => AppInfo;
  /**
   * What the desktop operator needs from the OS: the desktop app asks Electron, `sightline timeline` the
   * environment. Without it nothing is checked and no desktop run is refused for it (tests).
   */
  permissions?: DesktopPermissions;
  /** Replaces the default assembly of a run (tests). */
  assembler?: RunAssembler;
  /**
   * Why nothing may be changed here, when nothing may: a team timeline shows a mirror of the team store, which a
   * pull overwrites, so a run, a pin or a delete in it would be lost or undone (see read-only-calls.ts).
   */
  readOnly?: string | undefined;
}

export interface AppService {
  implementation: AppApiImplementation;
  events: EventBus;
  runs: RunManager;
  /** For dispatchAppApiCall: masks the configuration's keys in error messages. */
  dispatch: DispatchOptions;
  /** Stops every run and waits for them to end; the caller closes storage afterwards. */
  close(): Promise<void>;
}

export function createAppService(options: AppServiceOptions): AppService {
  const { storage, config, configSources, secrets, appInfo, assembler, permissions = UNCHECKED_PERMISSIONS, readOnly: _readOnly, ...assembly } = options;
  const keys = new ApiKeySettings({ config, sources: configSources, secrets });
  const events = new EventBus();
  // Each run reads the configuration at its start, so a key saved a moment ago is the one it uses.
  const assembleRun: RunAssembler =
    assembler ?? ((settings, handlers) => createRunAssembler({ storage, config: keys.config(), ...assembly })(settings, handlers));
  const runs = new RunManager(assembleRun, events);
  const implementation = createAppApiImplementation({
      storage,
      runs,
      appInfo,
      keys,
      nextRequest: () => nextRequestSettings(keys.config()),
      permissions,
      defaultOperator: () => keys.config().agent.operator,
  });
  return {
    implementation: options.readOnly === undefined ? implementation : refuseChanges(implementation, options.readOnly),
    events,
    runs,
    // Asked at each error, so a key saved since start is masked too.
    dispatch: { redact: (text) => secretRedactor(keys.config())(text) },
    close: () => runs.close(),
  };
}

/** For a service built without a way to check: says so, and refuses nothing. */
const UNCHECKED_PERMISSIONS: DesktopPermissions = {
  status: () => ({ checked: false, permissions: [], note: 'The desktop permissions are not checked here.' }),
  openSettings: () => Promise.reject(new SettingsUnavailableError('There is no System Settings pane to open here.')),
};
