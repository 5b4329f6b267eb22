/**
 * The app API's back end wired as the app and `sightline timeline` wire it, for tests: a temporary home with
 * real storage (seeded on request), the real model adapter pointed at the fake model server, a FakeOperator
 * for every run, and the one app service. `call` goes through dispatchAppApiCall, the gate both transports use.
 *
 *   const api = await startAppApiHarness({ seed: { sessions: 2 } });
 *   const { sessions } = await api.call('listSessions', { limit: 10 });
 *   await api.close();
 */
import { DEFAULT_CONFIG, type Config } from '../../src/shared/config.js';
import type { AppApiArguments, AppApiName, AppApiResult, AppEvent } from '../../src/shared/app-api.js';
import { dispatchAppApiCall } from '../../src/main/api/app-api-dispatch.js';
import type { ApiKeySecrets } from '../../src/main/api/api-keys.js';
import type { DesktopPermissions } from '../../src/main/app/permissions/index.js';
import { createAppService, type AppService } from '../../src/main/api/app-service.js';
import { createRunAssembler, type RunAssembler } from '../../src/main/app/app-run-assembler.js';
import type { Storage } from '../../src/main/storage/index.js';
import { startFakeOpenAiServer, type FakeOpenAiServer } from './fake-openai-server.js';
import { FakeOperator, type FakeOperatorOptions } from './fake-operator.js';
import { createTemporaryHome, openHomeStorage, seedStorage, type SeededSession, type SeedOptions, type TemporaryHome } from './seed.js';

export const HARNESS_API_KEY = 'sk-harness-0123456789abcdef-secret';

export interface AppApiHarnessOptions {
  seed?: SeedOptions;
  /** Changes to the model section (its name, dialect, API); the endpoint is always the fake server. */
  model?: Partial<Omit<Config['model'], 'baseUrl' | 'apiKey'>>;
  agent?: Partial<Config['agent']>;
  search?: Partial<Config['search']>;
  operator?: FakeOperatorOptions;
  /** The model key in the configuration; null for none (HARNESS_API_KEY by default). */
  apiKey?: string | null;
  /** The desktop app's saved keys; absent like in `sightline timeline`. */
  secrets?: ApiKeySecrets;
  /** What the OS grants the desktop operator; absent, nothing is checked. */
  permissions?: DesktopPermissions;
  /**
   * Sees each run's pause gate as the loop reaches it, before a model call, with the promise the loop waits
   * on: a test of pause can then prove the loop is held there, instead of waiting and seeing nothing.
   */
  onStepGate?: (gate: Promise<void>) => void;
}

export interface AppApiHarness {
  service: AppService;
  storage: Storage;
  server: FakeOpenAiServer;
  home: TemporaryHome;
  seeded: SeededSession[];
  /** Every operator a run opened, in order. */
  operators: FakeOperator[];
  /** Every live event published so far. */
  events: AppEvent[];
  call<Name extends AppApiName>(name: Name, ...callArguments: AppApiArguments<Name>): Promise<AppApiResult<Name>>;
  /** Sends raw, unchecked arguments (to test refusals). */
  callRaw(name: AppApiName, callArguments: unknown[]): Promise<unknown>;
  /** Resolves with the first event (already seen or still to come) that matches. */
  nextEvent<Type extends AppEvent['type']>(type: Type, matches?: (event: Extract<AppEvent, { type: Type }>) => boolean): Promise<Extract<AppEvent, { type: Type }>>;
  close(): Promise<void>;
}

export async function startAppApiHarness(options: AppApiHarnessOptions = {}): Promise<AppApiHarness> {
  const server = await startFakeOpenAiServer();
  const home = createTemporaryHome('sightline-api');
  const storage = openHomeStorage(home);
  const seeded = options.seed ? await seedStorage(storage, options.seed) : [];
  const config: Config = {
    ...DEFAULT_CONFIG,
    model: {
      ...DEFAULT_CONFIG.model,
      name: 'gpt-4.1',
      maxRetries: 0,
      ...options.model,
      baseUrl: server.baseUrl,
      apiKey: options.apiKey === null ? undefined : (options.apiKey ?? HARNESS_API_KEY),
    },
    agent: { ...DEFAULT_CONFIG.agent, ...options.agent },
    search: { ...DEFAULT_CONFIG.search, ...options.search },
  };
  const operators: FakeOperator[] = [];
  const operatorFactory = async (): Promise<FakeOperator> => {
    const operator = new FakeOperator(options.operator);
    operators.push(operator);
    return operator;
  };
  const service = createAppService({
    storage,
    config,
    home: home.root,
    ...(options.secrets === undefined ? {} : { secrets: options.secrets }),
    ...(options.permissions === undefined ? {} : { permissions: options.permissions }),
    appInfo: () => ({ version: '9.9.9', platform: 'linux' }),
    operatorFactory,
    watchSettling: false,
    ...(options.onStepGate === undefined ? {} : { assembler: watchingStepGates(storage, config, home.root, operatorFactory, options.onStepGate) }),
  });
  const events: AppEvent[] = [];
  const waiters: Array<(event: AppEvent) => void> = [];
  service.events.subscribe((event) => {
    events.push(event);
    for (const waiter of [...waiters]) waiter(event);
  });
  const callRaw = (name: AppApiName, callArguments: unknown[]) => dispatchAppApiCall(service.implementation, name, callArguments, service.dispatch);
  return {
    service,
    storage,
    server,
    home,
    seeded,
    operators,
    events,
    call: (name, ...callArguments) => callRaw(name, callArguments) as never,
    callRaw,
    nextEvent: (type, matches = () => true) =>
      new Promise((resolve) => {
        const test = (event: AppEvent): boolean => event.type === type && matches(event as never);
        const seen = events.find(test);
        if (seen) return resolve(seen as never);
        const waiter = (event: AppEvent): void => {
          if (!test(event)) return;
          waiters.splice(waiters.indexOf(waiter), 1);
          resolve(event as never);
        };
        waiters.push(waiter);
      }),
    close: async () => {
      await service.close();
      await server.close();
      storage.close();
      home.remove();
    },
  };
}

/** The app service's own assembly of a run (saved keys aside), with each pause gate shown to `onStepGate`. */
function watchingStepGates(
  storage: Storage,
  config: Config,
  homeRoot: string,
  operatorFactory: () => Promise<FakeOperator>,
  onStepGate: (gate: Promise<void>) => void,
): RunAssembler {
  const assemble = createRunAssembler({
    storage,
    config,
    home: homeRoot,
    operatorFactory,
    watchSettling: false,
  });
  return (settings, handlers) =>
    assemble(settings, {
      ...handlers,
      beforeStep: (signal) => {
        const gate = handlers.beforeStep(signal);
        onStepGate(gate);
        return gate;
      },
    });
}
