/**
 * Live events of every run (IPC or server-sent events, whichever the client uses), delivered to `listener`
 * for as long as the component is mounted. The newest listener is always called, without resubscribing
 * each render (an EventSource reconnect would drop events). `onResync` is called when events may have been
 * missed (see AppApiClient.subscribe): whatever the component read before should be read again.
 */
import { useEffect, useRef } from 'react';
import type { AppApiClient, AppEvent } from '../api/index.js';

export function useLiveEvents(client: AppApiClient | null, listener: (event: AppEvent) => void, onResync?: () => void): void {
  const latest = useRef({ listener, onResync });
  useEffect(() => {
    latest.current = { listener, onResync };
  });
  useEffect(() => {
    if (client === null) return;
    return client.subscribe(
      (event) => latest.current.listener(event),
      () => latest.current.onResync?.(),
    );
  }, [client]);
}
