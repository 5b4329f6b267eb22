import { useEffect, useState } from 'react';
import type { AppInfo } from '../../shared/app-api.js';

/** Where the renderer stands with the main process. */
export type AppConnection =
  | { state: 'connecting' }
  | { state: 'connected'; info: AppInfo }
  /** No bridge: the renderer runs in a plain browser (a preview of the built page, or a test). */
  | { state: 'preview' }
  | { state: 'failed'; message: string };

export function useAppInfo(): AppConnection {
  const [connection, setConnection] = useState<AppConnection>(() => (window.sightline ? { state: 'connecting' } : { state: 'preview' }));
  useEffect(() => {
    const bridge = window.sightline;
    if (!bridge) return;
    let current = true;
    bridge.appInfo().then(
      (info) => {
        if (current) setConnection({ state: 'connected', info });
      },
      (error: unknown) => {
        if (current) setConnection({ state: 'failed', message: error instanceof Error ? error.message : String(error) });
      },
    );
    return () => {
      current = false;
    };
  }, []);
  return connection;
}
