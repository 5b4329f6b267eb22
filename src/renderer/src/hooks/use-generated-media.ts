/**
 * The bytes of one generated image or audio for a component: nothing until `enabled` (its row is on
 * screen), then loading, then a data: URL to show or play, or why it is unavailable. Each item is fetched
 * once per client, however often its row scrolls back into view.
 */
import { useEffect, useState } from 'react';
import { imageDataUrl, type AppApiClient } from '../api/index.js';

export type GeneratedMediaState =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'ok'; url: string }
  | { status: 'unavailable'; reason: string; message: string }
  /** The request itself failed (the app or server could not be reached). */
  | { status: 'failed'; message: string };

type Settled = Extract<GeneratedMediaState, { status: 'ok' | 'unavailable' }>;

const caches = new WeakMap<AppApiClient, Map<string, Promise<Settled>>>();

function load(client: AppApiClient, mediaId: string): Promise<Settled> {
  let cache = caches.get(client);
  if (cache === undefined) {
    cache = new Map();
    caches.set(client, cache);
  }
  let pending = cache.get(mediaId);
  if (pending === undefined) {
    pending = client.getMedia({ mediaId }).then(
      (result): Settled =>
        result.status === 'ok'
          ? { status: 'ok', url: imageDataUrl(result) }
          : { status: 'unavailable', reason: result.reason, message: result.message },
    );
    // A failed request is not remembered: the next render may try again.
    const forget = cache;
    pending.catch(() => forget.delete(mediaId));
    cache.set(mediaId, pending);
  }
  return pending;
}

export function useGeneratedMedia(client: AppApiClient | null, mediaId: string, enabled: boolean): GeneratedMediaState {
  const [state, setState] = useState<GeneratedMediaState>({ status: 'idle' });
  useEffect(() => {
    if (client === null || !enabled) return;
    let current = true;
    setState((previous) => (previous.status === 'ok' ? previous : { status: 'loading' }));
    load(client, mediaId).then(
      (settled) => {
        if (current) setState(settled);
      },
      (error: unknown) => {
        if (current) setState({ status: 'failed', message: error instanceof Error ? error.message : String(error) });
      },
    );
    return () => {
      current = false;
    };
  }, [client, mediaId, enabled]);
  return state;
}
