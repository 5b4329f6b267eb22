/**
 * The app API inside the Electron app: each call goes through the preload's bridge (window.sightline), which
 * forwards it over IPC. Electron carries only an error's message across, so errors are decoded back into
 * AppApiError here.
 */
import { APP_API_CHANNELS, decodeAppApiError, type AppApiName, type SightlineBridge } from '../../../shared/app-api.js';
import type { AppApiCalls, AppApiClient } from './app-api-client.js';

export function createIpcClient(bridge: SightlineBridge): AppApiClient {
  const calls = Object.fromEntries(
    (Object.keys(APP_API_CHANNELS) as AppApiName[]).map((name) => {
      const method = bridge[name] as (...callArguments: unknown[]) => Promise<unknown>;
      const call = (...callArguments: unknown[]): Promise<unknown> =>
        method(...callArguments).catch((error: unknown) => {
          throw decodeAppApiError(error instanceof Error ? error.message : String(error));
        });
      return [name, call];
    }),
  ) as AppApiCalls;
  return { ...calls, transport: 'ipc', subscribe: (listener) => bridge.onEvent(listener) };
}
