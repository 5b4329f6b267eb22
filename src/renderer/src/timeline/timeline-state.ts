/**
 * The open session as the timeline holds it, and how it changes: loaded pages of steps, and live events
 * applied as they arrive. A pure reducer (useReducer in use-session-timeline.ts), tested without React.
 *
 * Steps are kept by their index in the session (turn order, then step order: how listSteps pages them),
 * in an array as long as the session's step count; an index not loaded yet holds undefined and shows as a
 * skeleton row. A live step is placed at its turn's offset plus its sequence.
 */
import { addCallCost, NO_COST, type CostTotals } from '../../../shared/cost.js';
import type {
  AppEvent,
  Injection,
  PendingRequest,
  RunState,
  SearchReport,
  SessionDetail,
  SessionSummary,
  Step,
  Turn,
  TurnTokenTotals,
} from '../../../shared/app-api.js';
import type { AgentEvent } from '../../../shared/events.js';
import type { GeneratedMedia } from '../../../shared/generated-media.js';

export interface CaptureSeen {
  imageId: string;
  unchangedFrom: string | undefined;
  width: number;
  height: number;
}

export interface TimelineState {
  sessionId: string;
  status: 'loading' | 'ready' | 'failed';
  error: string | null;
  session: SessionSummary | null;
  turns: Turn[];
  steps: (Step | undefined)[];
  reports: SearchReport[];
  injections: Injection[];
  /** Images and audio the session's model generated, in the order they came. */
  media: GeneratedMedia[];
  /** Confirmations and questions the running agent waits on. */
  pending: PendingRequest[];
  run: RunState | null;
  /** The model's text as it streams, until its step is recorded. */
  liveText: { turnId: string; text: string } | null;
  /** Problems worth showing that did not end the run (newest last, a few kept). */
  warnings: string[];
  runError: string | null;
  /** The last capture of the running turn not yet tied to a step: tells whether the screen stayed the same. */
  lastCapture: CaptureSeen | null;
  /** Sizes of images captured live, for steps that name them before the session is reloaded. */
  captureSizes: Record<string, { width: number; height: number }>;
  /** Bumped when the stored session changed underneath (a turn ended and was compacted): time to reload. */
  staleness: number;
}

export type TimelineAction =
  | {
      type: 'loaded';
      detail: SessionDetail;
      reports: SearchReport[];
      injections: Injection[];
      pending: PendingRequest[];
      /** Absent from a client that did not read them: the media already held stays. */
      media?: GeneratedMedia[];
      /**
       * This session's live events that came while it was being read, oldest first. The read may predate
       * them, so those the read could lack are applied again over it (see replayMissed).
       */
      eventsDuringRead?: AppEvent[];
    }
  | { type: 'steps-loaded'; offset: number; steps: Step[] }
  | { type: 'failed'; message: string }
  | { type: 'event'; event: AppEvent }
  /** A running turn's pictures, read once they are stored (they come after its turn-started event). */
  | { type: 'pictures-loaded'; turns: readonly Turn[] };

const KEPT_WARNINGS = 3;

export function initialTimelineState(sessionId: string): TimelineState {
  return {
    sessionId,
    status: 'loading',
    error: null,
    session: null,
    turns: [],
    steps: [],
    reports: [],
    injections: [],
    media: [],
    pending: [],
    run: null,
    liveText: null,
    warnings: [],
    runError: null,
    lastCapture: null,
    captureSizes: {},
    staleness: 0,
  };
}

export function timelineReducer(state: TimelineState, action: TimelineAction): TimelineState {
  switch (action.type) {
    case 'loaded':
      return applyLoaded(state, action);
    case 'steps-loaded':
      return applySteps(state, action.offset, action.steps);
    case 'failed':
      return { ...state, status: 'failed', error: action.message };
    case 'event':
      return isSessionEvent(action.event) && action.event.sessionId === state.sessionId ? applyEvent(state, action.event) : state;
    case 'pictures-loaded':
      return applyPictures(state, action.turns);
  }
}

function applyPictures(state: TimelineState, loaded: readonly Turn[]): TimelineState {
  const picturesOf = new Map(loaded.map((turn) => [turn.id, turn.pictures]));
  let changed = false;
  const turns = state.turns.map((turn) => {
    const pictures = picturesOf.get(turn.id);
    if (pictures === undefined || pictures.length === turn.pictures.length) return turn;
    changed = true;
    return { ...turn, pictures };
  });
  return changed ? { ...state, turns } : state;
}

/** Index in the session of each turn's first step. */
export function turnStepOffsets(turns: readonly Turn[]): Map<string, number> {
  const offsets = new Map<string, number>();
  let offset = 0;
  for (const turn of turns) {
    offsets.set(turn.id, offset);
    offset += turn.stepCount;
  }
  return offsets;
}

export function totalSteps(turns: readonly Turn[]): number {
  return turns.reduce((sum, turn) => sum + turn.stepCount, 0);
}

function applyLoaded(state: TimelineState, action: Extract<TimelineAction, { type: 'loaded' }>): TimelineState {
  return replayMissed(state, applyRead(state, action), action.eventsDuringRead ?? []);
}

/**
 * The events that change what a read holds (turns, steps, what the run waits on, reports) applied again
 * over a read that may predate them, each only where the read lacks it: a step the read already counts is
 * not counted twice. The rest (streamed text, warnings, a turn's end and the run's, which read the session
 * again anyway) already did all they do. A replayed step keeps the object built when it arrived live.
 */
function replayMissed(live: TimelineState, read: TimelineState, events: readonly AppEvent[]): TimelineState {
  const replayed = events.reduce((state, event) => (isMissedByRead(state, event) ? applyEvent(state, event) : state), read);
  if (replayed === read) return read;
  const liveSteps = new Map(live.steps.flatMap((step) => (step === undefined ? [] : [[step.id, step] as const])));
  return {
    ...replayed,
    steps: replayed.steps.map((step) => (step === undefined ? step : (liveSteps.get(step.id) ?? step))),
    liveText: live.liveText,
    lastCapture: live.lastCapture,
  };
}

/** The events of one session's run: not the app's permission changes, nor a team store's change (use-session-timeline.ts reloads on that). */
type SessionEvent = Exclude<AppEvent, { type: 'permissions' | 'store-changed' }>;

function isSessionEvent(event: AppEvent): event is SessionEvent {
  return event.type !== 'permissions' && event.type !== 'store-changed';
}

function isMissedByRead(state: TimelineState, event: AppEvent): event is SessionEvent {
  if (!isSessionEvent(event) || event.sessionId !== state.sessionId) return false;
  switch (event.type) {
    case 'turn-started':
    case 'confirmation-requested':
    case 'ask-user':
    case 'confirmation-answered':
    case 'ask-user-answered':
    case 'search-report':
      // Each is a no-op where the read already holds it.
      return true;
    case 'step': {
      const turn = state.turns.find((candidate) => candidate.id === event.turnId);
      return turn !== undefined && event.sequence > turn.stepCount;
    }
    default:
      return false;
  }
}

function applyRead(state: TimelineState, action: Extract<TimelineAction, { type: 'loaded' }>): TimelineState {
  const { detail } = action;
  const total = totalSteps(detail.turns);
  // Steps already shown stay until their page is reloaded: a reload after compaction must not flash skeletons.
  const steps = state.steps.slice(0, total);
  steps.length = total;
  const liveRunning = state.run !== null && detail.session.run === null;
  return {
    ...state,
    status: 'ready',
    error: null,
    session: detail.session,
    turns: detail.turns,
    steps,
    reports: action.reports,
    injections: action.injections,
    // Media that arrived live after the read stays: the read may predate its event.
    media: mergeMedia(action.media ?? [], state.media),
    pending: action.pending,
    // A run-state event may be newer than the read; the stored summary wins only when no live state is known.
    run: liveRunning ? state.run : detail.session.run,
  };
}

function applySteps(state: TimelineState, offset: number, loaded: readonly Step[]): TimelineState {
  const steps = state.steps.slice();
  loaded.forEach((step, position) => {
    if (offset + position < steps.length) steps[offset + position] = step;
  });
  return { ...state, steps };
}

/** `known` followed by the items of `arrived` it does not hold yet (one media id per turn). */
function mergeMedia(known: readonly GeneratedMedia[], arrived: readonly GeneratedMedia[]): GeneratedMedia[] {
  const keys = new Set(known.map((item) => `${item.turnId}:${item.mediaId}`));
  return [...known, ...arrived.filter((item) => !keys.has(`${item.turnId}:${item.mediaId}`))];
}

function isoAt(at: number): string {
  return new Date(at).toISOString();
}

function applyEvent(state: TimelineState, event: SessionEvent): TimelineState {
  switch (event.type) {
    case 'turn-started':
      return applyTurnStarted(state, event);
    case 'model-text-delta': {
      const previous = state.liveText?.turnId === event.turnId ? state.liveText.text : '';
      return { ...state, liveText: { turnId: event.turnId, text: previous + event.text } };
    }
    case 'screenshot': {
      const capture = { imageId: event.imageId, unchangedFrom: event.unchangedFrom, width: event.width, height: event.height };
      return { ...state, lastCapture: capture, captureSizes: { ...state.captureSizes, [event.imageId]: { width: event.width, height: event.height } } };
    }
    case 'step':
      return applyStep(state, event);
    case 'media': {
      const media: GeneratedMedia = {
        mediaId: event.mediaId,
        turnId: event.turnId,
        kind: event.kind,
        mime: event.mime,
        ...(event.width === undefined ? {} : { width: event.width }),
        ...(event.height === undefined ? {} : { height: event.height }),
      };
      return { ...state, media: mergeMedia(state.media, [media]) };
    }
    case 'turn-ended':
      return {
        ...state,
        turns: state.turns.map((turn) =>
          turn.id === event.turnId
            ? { ...turn, status: event.status, endedAt: isoAt(event.at), summary: event.summary ?? turn.summary, stepCount: Math.max(turn.stepCount, event.steps) }
            : turn,
        ),
        liveText: null,
        lastCapture: null,
        staleness: state.staleness + 1,
      };
    case 'confirmation-requested':
      return withPending(state, { kind: 'confirmation', requestId: event.requestId, turnId: event.turnId, action: event.action, reason: event.reason });
    case 'ask-user':
      return withPending(state, { kind: 'question', requestId: event.requestId, turnId: event.turnId, question: event.question });
    case 'confirmation-answered':
    case 'ask-user-answered':
      return { ...state, pending: state.pending.filter((request) => request.requestId !== event.requestId) };
    case 'search-report':
      if (state.reports.some((report) => report.id === event.reportId)) return state;
      return {
        ...state,
        reports: [
          ...state.reports,
          {
            id: event.reportId,
            turnId: event.turnId as Turn['id'],
            question: event.question,
            queries: [],
            sources: event.sources,
            answer: event.answer,
            confidence: event.confidence,
            iterations: 0,
            durationMs: null,
            createdAt: isoAt(event.at),
          },
        ],
      };
    case 'warning':
      return { ...state, warnings: [...state.warnings, event.message].slice(-KEPT_WARNINGS) };
    case 'run-state': {
      const run = event.state === 'ended' ? null : event.state;
      const session = state.session === null ? null : { ...state.session, run, status: run === null ? ('idle' as const) : ('running' as const) };
      const ended = event.state === 'ended';
      return {
        ...state,
        run,
        session,
        pending: ended ? [] : state.pending,
        liveText: ended ? null : state.liveText,
        runError: event.state === 'running' ? null : state.runError,
        staleness: ended ? state.staleness + 1 : state.staleness,
      };
    }
    case 'run-error':
      return { ...state, runError: event.message };
  }
}

function applyTurnStarted(state: TimelineState, event: Extract<AgentEvent, { type: 'turn-started' }>): TimelineState {
  if (state.turns.some((turn) => turn.id === event.turnId)) return state;
  const turn: Turn = {
    id: event.turnId as Turn['id'],
    sequence: event.sequence,
    request: event.request,
    status: 'running',
    startedAt: isoAt(event.at),
    endedAt: null,
    compactedAt: null,
    summary: null,
    stepCount: 0,
    tokens: { input: 0, output: 0, cachedInput: 0, cacheWriteInput: 0 },
    cost: NO_COST,
    // The event comes before the pictures are stored: 'pictures-loaded' brings them after the first screenshot.
    pictures: [],
    // The event does not say; the read at the turn's end brings the step kind and the answer.
    stepKind: null,
    answer: null,
  };
  const session = state.session === null ? null : { ...state.session, status: 'running' as const, turnCount: state.session.turnCount + 1, updatedAt: isoAt(event.at) };
  return { ...state, turns: [...state.turns, turn], session, liveText: null, runError: null };
}

function applyStep(state: TimelineState, event: Extract<AgentEvent, { type: 'step' }>): TimelineState {
  const offsets = turnStepOffsets(state.turns);
  const turnOffset = offsets.get(event.turnId);
  if (turnOffset === undefined) return state;
  const turnIndex = state.turns.findIndex((turn) => turn.id === event.turnId);
  const turn = state.turns[turnIndex];
  if (turn === undefined) return state;
  const index = turnOffset + event.sequence - 1;
  const steps = state.steps.slice();
  const turns = state.turns.slice();
  if (event.sequence > turn.stepCount) {
    // New steps of this turn: make room for them at the turn's end (later turns' steps move down).
    const added = event.sequence - turn.stepCount;
    steps.splice(turnOffset + turn.stepCount, 0, ...new Array<Step | undefined>(added).fill(undefined));
    turns[turnIndex] = { ...turn, stepCount: event.sequence };
  }
  const counted = turns[turnIndex] ?? turn;
  turns[turnIndex] = { ...counted, tokens: addUsageTokens(counted.tokens, event), cost: addStepCost(counted.cost, event) };
  steps[index] = stepFromEvent(state, event);
  const session =
    state.session === null
      ? null
      : {
          ...state.session,
          stepCount: steps.length,
          tokens: addTokens(state.session.tokens, event),
          cost: addStepCost(state.session.cost, event),
          updatedAt: isoAt(event.at),
        };
  return { ...state, steps, turns, session, liveText: null, lastCapture: null };
}

function stepFromEvent(state: TimelineState, event: Extract<AgentEvent, { type: 'step' }>): Step {
  const screenshotId = event.screenshotImageId;
  const size = screenshotId === undefined ? undefined : state.captureSizes[screenshotId];
  const capture = state.lastCapture;
  // The capture after a computer action: when it repeated an earlier image, the action changed nothing on screen.
  const dedupOf = event.action !== undefined ? (capture?.unchangedFrom ?? null) : null;
  return {
    id: event.stepId,
    turnId: event.turnId as Step['turnId'],
    sequence: event.sequence,
    tool: event.tool,
    action: event.action ?? null,
    toolArguments: null,
    thought: event.thought ?? null,
    screenshot:
      screenshotId === undefined
        ? null
        : {
            imageId: screenshotId as NonNullable<Step['screenshot']>['imageId'],
            zone: 'active',
            caption: null,
            width: size?.width ?? 1,
            height: size?.height ?? 1,
            isErrorFrame: false,
          },
    screenshotView: event.screenshotView ?? null,
    dedupOf: dedupOf as Step['dedupOf'],
    result: { ok: event.ok },
    error: event.error ?? null,
    latencyMs: event.latencyMs,
    inputTokens: event.usage?.inputTokens ?? null,
    outputTokens: event.usage?.outputTokens ?? null,
    cachedInputTokens: event.usage?.cachedInputTokens ?? null,
    cacheWriteInputTokens: event.usage?.cacheWriteInputTokens ?? null,
    costDollars: event.costDollars ?? null,
    tokenReport: event.tokenReport ?? null,
    createdAt: isoAt(event.at),
  };
}

function addTokens(tokens: SessionSummary['tokens'], event: Extract<AgentEvent, { type: 'step' }>): SessionSummary['tokens'] {
  const report = event.tokenReport;
  return {
    ...addUsageTokens(tokens, event),
    sent: report === undefined ? tokens.sent : (tokens.sent ?? 0) + report.sentTokens,
    keepEverything: report === undefined ? tokens.keepEverything : (tokens.keepEverything ?? 0) + report.keepEverythingTokens,
  };
}

/** A step's model-call usage added to a turn's or the session's totals. */
function addUsageTokens(tokens: TurnTokenTotals, event: Extract<AgentEvent, { type: 'step' }>): TurnTokenTotals {
  return {
    input: tokens.input + (event.usage?.inputTokens ?? 0),
    output: tokens.output + (event.usage?.outputTokens ?? 0),
    cachedInput: tokens.cachedInput + (event.usage?.cachedInputTokens ?? 0),
    cacheWriteInput: tokens.cacheWriteInput + (event.usage?.cacheWriteInputTokens ?? 0),
  };
}

/** A step's model call added to a turn's or the session's cost, as the stored steps sum it: dollars when priced, else tokens. */
function addStepCost(cost: CostTotals, event: Extract<AgentEvent, { type: 'step' }>): CostTotals {
  if (event.usage === undefined) return cost;
  return addCallCost(cost, { dollars: event.costDollars ?? null, tokens: event.usage.inputTokens + event.usage.outputTokens });
}

function withPending(state: TimelineState, request: PendingRequest): TimelineState {
  if (state.pending.some((existing) => existing.requestId === request.requestId)) return state;
  return { ...state, pending: [...state.pending, request] };
}
