/**
 * The sessions list: filtered by what was typed (debounced, so each keystroke is not a request), refreshed
 * when a run starts, ends or changes state, or a team store's sessions change, and with delete.
 */
import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import type { SessionSummary } from '../../../shared/app-api.js';
import type { AppApiClient, AppEvent } from '../api/index.js';
import { useLiveEvents } from './use-live-events.js';

export interface SessionsState {
  status: 'loading' | 'ready' | 'failed';
  sessions: SessionSummary[];
  total: number;
  error: string | null;
}

export interface Sessions extends SessionsState {
  query: string;
  setQuery(query: string): void;
  refresh(): void;
  remove(sessionId: string): Promise<void>;
}

const SEARCH_DELAY_MS = 200;
const LIST_LIMIT = 200;
const REFRESHING_EVENTS = new Set<AppEvent['type']>(['turn-started', 'turn-ended', 'run-state', 'run-error', 'store-changed']);

export function useSessions(client: AppApiClient | null): Sessions {
  const [query, setQuery] = useState('');
  const [debouncedQuery, setDebouncedQuery] = useState('');
  const [refreshes, refresh] = useReducer((count: number) => count + 1, 0);
  const [state, setState] = useState<SessionsState>({ status: 'loading', sessions: [], total: 0, error: null });
  const pendingRefresh = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => {
    const timer = setTimeout(() => setDebouncedQuery(query.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [query]);

  useEffect(() => {
    if (client === null) return;
    let current = true;
    client.listSessions({ limit: LIST_LIMIT, ...(debouncedQuery === '' ? {} : { query: debouncedQuery }) }).then(
      (list) => {
        if (current) setState({ status: 'ready', sessions: list.sessions, total: list.total, error: null });
      },
      (error: unknown) => {
        if (current) setState((previous) => ({ ...previous, status: 'failed', error: error instanceof Error ? error.message : String(error) }));
      },
    );
    return () => {
      current = false;
    };
  }, [client, debouncedQuery, refreshes]);

  // Live changes batch into one refresh, so a burst of events is one request. Events missed while the
  // stream was down may have been any of them.
  const refreshSoon = (): void => {
    clearTimeout(pendingRefresh.current);
    pendingRefresh.current = setTimeout(refresh, 150);
  };
  useLiveEvents(
    client,
    (event) => {
      if (REFRESHING_EVENTS.has(event.type)) refreshSoon();
    },
    refreshSoon,
  );
  useEffect(() => () => clearTimeout(pendingRefresh.current), []);

  const remove = useCallback(
    async (sessionId: string) => {
      if (client === null) return;
      await client.deleteSession(sessionId);
      setState((previous) => ({
        ...previous,
        sessions: previous.sessions.filter((session) => session.id !== sessionId),
        total: Math.max(0, previous.total - 1),
      }));
    },
    [client],
  );

  return { ...state, query, setQuery, refresh, remove };
}
