import { useEffect, useState } from 'react';
import type { AppInfo } from '../../shared/app-api.js';
import type { AppApiClient } from './api/index.js';

/** Where the renderer stands with the main process. */
export type AppConnection =
  | { state: 'connecting' }
  | { state: 'connected'; info: AppInfo; transport: AppApiClient['transport'] }
  /** No bridge and no token: the renderer runs as a plain preview of the built page, or a test. */
  | { state: 'preview' }
  | { state: 'failed'; message: string };

export function useAppInfo(client: AppApiClient | null): AppConnection {
  const [connection, setConnection] = useState<AppConnection>(() => (client ? { state: 'connecting' } : { state: 'preview' }));
  useEffect(() => {
    if (!client) return;
    let current = true;
    client.appInfo().then(
      (info) => {
        if (current) setConnection({ state: 'connected', info, transport: client.transport });
      },
      (error: unknown) => {
        if (current) setConnection({ state: 'failed', message: error instanceof Error ? error.message : String(error) });
      },
    );
    return () => {
      current = false;
    };
  }, [client]);
  return connection;
}
