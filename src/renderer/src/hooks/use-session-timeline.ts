/**
 * The open session: its turns, reports, injections and generated media, then its steps page by page in the background
 * (metadata only; images load per row when seen), kept current by live events. When a turn ends, the
 * stored session changes underneath (compaction folds its images), so it is read again.
 */
import { useCallback, useEffect, useReducer, useRef } from 'react';
import type { AppApiClient, AppEvent } from '../api/index.js';
import { initialTimelineState, timelineReducer, totalSteps, type TimelineState } from '../timeline/timeline-state.js';
import { useLiveEvents } from './use-live-events.js';

/** Steps per listSteps call: large enough that a thousand-step session loads in a few calls. */
export const STEP_PAGE_SIZE = 250;

export interface SessionTimeline {
  state: TimelineState;
  reload(): void;
}

export function useSessionTimeline(client: AppApiClient | null, sessionId: string): SessionTimeline {
  const [state, dispatch] = useReducer(timelineReducer, sessionId, initialTimelineState);
  const [reloads, requestReload] = useReducer((count: number) => count + 1, 0);

  const picturesAsked = useRef(new Set<string>());
  // The events that come while the session is read: the read may predate them (see 'loaded').
  const eventsDuringRead = useRef<AppEvent[] | null>(null);
  const reload = useCallback(() => requestReload(), []);
  const onLiveEvent = (event: AppEvent): void => {
    dispatch({ type: 'event', event });
    // A turn's first screenshot comes after its request, with any pictures, is stored: read them once then.
    if (client === null || event.type !== 'screenshot' || event.sessionId !== sessionId || picturesAsked.current.has(event.turnId)) return;
    picturesAsked.current.add(event.turnId);
    client.getSession(sessionId).then(
      (detail) => dispatch({ type: 'pictures-loaded', turns: detail.turns }),
      // Not worth a banner: the reload at the turn's end reads them again.
      () => undefined,
    );
  };
  useLiveEvents(
    client,
    (event: AppEvent) => {
      // A team store's rows of this session changed (a worker elsewhere added steps): read it again.
      if (event.type === 'store-changed') {
        if (event.sessionIds.includes(sessionId)) reload();
        return;
      }
      eventsDuringRead.current?.push(event);
      onLiveEvent(event);
    },
    reload,
  );

  // The session, its reports and injections, and what its run waits on; again after each turn ends.
  useEffect(() => {
    if (client === null) return;
    let current = true;
    const arrived: AppEvent[] = [];
    eventsDuringRead.current = arrived;
    const load = async () => {
      const [detail, reports, injections, runs, media] = await Promise.all([
        client.getSession(sessionId),
        client.listSearchReports(sessionId),
        client.listInjections(sessionId),
        client.listRuns(),
        client.listMedia(sessionId),
      ]);
      const pending = runs.runs.find((run) => run.sessionId === sessionId)?.pending ?? [];
      if (!current) return;
      if (eventsDuringRead.current === arrived) eventsDuringRead.current = null;
      dispatch({ type: 'loaded', detail, reports: reports.reports, injections: injections.injections, pending, media: media.media, eventsDuringRead: arrived });
      await loadSteps(() => current, client, sessionId, totalSteps(detail.turns), dispatch);
    };
    load().catch((error: unknown) => {
      if (current) dispatch({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
    });
    return () => {
      current = false;
      if (eventsDuringRead.current === arrived) eventsDuringRead.current = null;
    };
  }, [client, sessionId, state.staleness, reloads]);

  return { state, reload };
}

/** Reads every page of steps in order: a reload replaces what was shown, a first load fills it in. */
async function loadSteps(
  isCurrent: () => boolean,
  client: AppApiClient,
  sessionId: string,
  total: number,
  dispatch: (action: { type: 'steps-loaded'; offset: number; steps: Awaited<ReturnType<AppApiClient['listSteps']>>['steps'] }) => void,
): Promise<void> {
  let offset = 0;
  while (isCurrent() && offset < total) {
    const page = await client.listSteps({ sessionId, offset, limit: STEP_PAGE_SIZE });
    if (!isCurrent()) return;
    dispatch({ type: 'steps-loaded', offset, steps: page.steps });
    if (page.steps.length === 0) return;
    offset += page.steps.length;
  }
}
