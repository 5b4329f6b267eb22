/**
 * The app API's back end in one piece, as both front ends need it: storage (through the runtime), the event
 * bus, the run manager and the implementation. The Electron shell and `sightline timeline` each make one and
 * serve it over their transport.
 */
import type { AppInfo } from '../../shared/app-api.js';
import type { Config } from '../../shared/config.js';
import { CompactionQueue, createCompactionHook } from '../context/index.js';
import type { Storage } from '../storage/index.js';
import type { AppApiImplementation, DispatchOptions } from './app-api-dispatch.js';
import { createAppApiImplementation } from './app-api-implementation.js';
import { EventBus } from './event-bus.js';
import { createRunAssembler, type RunAssembler, type RunAssemblerOptions } from './run-assembly.js';
import { RunManager } from './run-manager.js';
import { secretRedactor } from './secret-redaction.js';

export interface AppServiceOptions extends Omit<RunAssemblerOptions, 'storage' | 'config'> {
  storage: Storage;
  config: Config;
  appInfo: () => AppInfo;
  /** Replaces the default assembly of a run (tests). */
  assembler?: RunAssembler;
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
  const { storage, config, appInfo, assembler, ...assembly } = options;
  const events = new EventBus();
  const turnEndHooks = assembly.turnEndHooks ?? [createCompactionHook(new CompactionQueue({ storage }))];
  const runs = new RunManager(assembler ?? createRunAssembler({ storage, config, ...assembly, turnEndHooks }), events);
  return {
    implementation: createAppApiImplementation({ storage, runs, appInfo }),
    events,
    runs,
    dispatch: { redact: secretRedactor(config) },
    close: () => runs.close(),
  };
}
