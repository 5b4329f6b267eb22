/**
 * Live events of every run (IPC or server-sent events, whichever the client uses), delivered to `listener`
 * for as long as the component is mounted. The newest listener is always called, without resubscribing
 * each render (an EventSource reconnect would drop events).
 */
import { useEffect, useRef } from 'react';
import type { AppApiClient, AppEvent } from '../api/index.js';

export function useLiveEvents(client: AppApiClient | null, listener: (event: AppEvent) => void): void {
  const latest = useRef(listener);
  useEffect(() => {
    latest.current = listener;
  });
  useEffect(() => {
    if (client === null) return;
    return client.subscribe((event) => latest.current(event));
  }, [client]);
}
