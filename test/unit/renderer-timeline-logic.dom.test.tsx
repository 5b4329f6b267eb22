/**
 * The timeline's logic without a DOM: the windowed list's math, the image cache, the session reducer that
 * applies live events, the row layout, how steps read, crop boxes and the token chart.
 */
import { describe, expect, it } from 'vitest';
import type { AppEvent, SessionDetail, Step, Turn } from '../../src/shared/app-api.js';
import type { LoadedImage } from '../../src/renderer/src/api/index.js';
import { cropBoxesFor, cropBoxesOf } from '../../src/renderer/src/timeline/crop-boxes.js';
import { formatCost, formatDuration, formatTokens, formatUsage, truncate } from '../../src/renderer/src/timeline/format.js';
import { imageSavings, savingsPercent } from '../../src/shared/image-savings.js';
import { stepUsageTotals } from '../../src/shared/usage-text.js';
import { ImageCache, type ImageRequestKey } from '../../src/renderer/src/timeline/image-cache.js';
import { approvalLabel, isFolded, pinControl, pixelsLocation, placeholderHint, stepActionLabel, stepOutcome, zoneLabel } from '../../src/renderer/src/timeline/step-presentation.js';
import { ROW_HEIGHTS, rowHeights, timelineRows, VALUE_ANSWER_HEIGHT } from '../../src/renderer/src/timeline/timeline-rows.js';
import { initialTimelineState, timelineReducer, type TimelineState } from '../../src/renderer/src/timeline/timeline-state.js';
import { chartPaths, downsample, tokenSeries } from '../../src/renderer/src/timeline/token-series.js';
import { rowAt, rowOffsets, scrollTopFor, visibleWindow } from '../../src/renderer/src/timeline/virtual-window.js';

const SESSION = 'ses_000000000001';
const TURN_1 = 'turn_000000000001';
const TURN_2 = 'turn_000000000002';

function turn(id: string, sequence: number, stepCount: number, status: Turn['status'] = 'finished'): Turn {
  return { id, sequence, request: `Request ${sequence}`, status, startedAt: '2025-01-01T10:00:00.000Z', endedAt: null, compactedAt: null, summary: null, stepCount, tokens: { input: 0, output: 0, cachedInput: 0, cacheWriteInput: 0 }, cost: { dollars: null, unpricedTokens: 0 }, pictures: [], stepKind: null, answer: null };
}

function step(overrides: Partial<Step> & { id: string; turnId: string; sequence: number }): Step {
  return {
    tool: 'computer',
    action: { action: 'click', x: 10, y: 20 },
    toolArguments: null,
    thought: 'thinking',
    screenshot: null,
    dedupOf: null,
    result: { ok: true },
    error: null,
    latencyMs: 100,
    inputTokens: null,
    outputTokens: null,
    cachedInputTokens: null,
    cacheWriteInputTokens: null,
    costDollars: null,
    tokenReport: null,
    createdAt: '2025-01-01T10:00:01.000Z',
    ...overrides,
  } as Step;
}

function detail(turns: Turn[]): SessionDetail {
  return {
    session: {
      id: SESSION,
      title: 'A session',
      status: 'idle',
      operator: 'browser',
      model: 'gpt-4.1',
      createdAt: '2025-01-01T10:00:00.000Z',
      updatedAt: '2025-01-01T10:00:00.000Z',
      turnCount: turns.length,
      stepCount: turns.reduce((sum, each) => sum + each.stepCount, 0),
      tokens: { input: 0, output: 0, cachedInput: 0, cacheWriteInput: 0, sent: null, keepEverything: null },
      cost: { dollars: null, unpricedTokens: 0 },
      run: null,
    },
    turns,
  } as SessionDetail;
}

function loaded(turns: Turn[]): TimelineState {
  return timelineReducer(initialTimelineState(SESSION), { type: 'loaded', detail: detail(turns), reports: [], injections: [], pending: [] });
}

const apply = (state: TimelineState, ...events: AppEvent[]) => events.reduce((current, event) => timelineReducer(current, { type: 'event', event }), state);

describe('virtual window math', () => {
  const offsets = rowOffsets([100, 50, 50, 200, 100]);

  it('places each row after the ones above it', () => {
    expect(offsets).toEqual([0, 100, 150, 200, 400, 500]);
    expect(rowAt(offsets, 0)).toBe(0);
    expect(rowAt(offsets, 99)).toBe(0);
    expect(rowAt(offsets, 100)).toBe(1);
    expect(rowAt(offsets, 399)).toBe(3);
    expect(rowAt(offsets, 10_000)).toBe(4);
    expect(scrollTopFor(offsets, 3)).toBe(200);
  });

  it('renders the rows in view plus the overscan, and says where they start', () => {
    expect(visibleWindow({ offsets, scrollTop: 120, viewportHeight: 100, overscan: 0 })).toEqual({ start: 1, end: 4, top: 100, totalHeight: 500 });
    expect(visibleWindow({ offsets, scrollTop: 120, viewportHeight: 100, overscan: 1 })).toEqual({ start: 0, end: 5, top: 0, totalHeight: 500 });
    expect(visibleWindow({ offsets: [0], scrollTop: 0, viewportHeight: 100, overscan: 3 })).toEqual({ start: 0, end: 0, top: 0, totalHeight: 0 });
  });

  it('keeps a thousand-step list to a handful of rows', () => {
    const many = rowOffsets(new Array<number>(5000).fill(ROW_HEIGHTS.step));
    const window = visibleWindow({ offsets: many, scrollTop: 300_000, viewportHeight: 900, overscan: 6 });
    expect(window.end - window.start).toBeLessThan(25);
    expect(window.top).toBe(many[window.start]);
    expect(window.totalHeight).toBe(5000 * ROW_HEIGHTS.step);
  });
});

describe('image cache', () => {
  const ok = (imageId: string): LoadedImage => ({ status: 'ok', url: `data:image/png;base64,${imageId}`, width: 1, height: 1, zone: 'active' });

  it('asks once per image and size, shares a request in flight, and lets a row peek at what is loaded', async () => {
    const calls: ImageRequestKey[] = [];
    const cache = new ImageCache(async (request) => {
      calls.push(request);
      return ok(request.imageId);
    });
    const [first, second] = await Promise.all([cache.get({ imageId: 'img_a' }), cache.get({ imageId: 'img_a' })]);
    expect(first).toBe(second);
    await cache.get({ imageId: 'img_a', thumbnailWidth: 400 });
    expect(calls).toEqual([{ imageId: 'img_a' }, { imageId: 'img_a', thumbnailWidth: 400 }]);
    expect(cache.peek({ imageId: 'img_a', thumbnailWidth: 400 })).toEqual(ok('img_a'));
    expect(cache.peek({ imageId: 'img_b' })).toBeUndefined();
  });

  it('forgets a failed request so it can be tried again, but keeps an unavailable answer', async () => {
    let attempts = 0;
    const cache = new ImageCache(async (request) => {
      attempts += 1;
      if (request.imageId === 'img_down' && attempts === 1) throw new Error('offline');
      return request.imageId === 'img_gone' ? { status: 'unavailable', reason: 'purged', message: 'gone' } : ok(request.imageId);
    });
    await expect(cache.get({ imageId: 'img_down' })).rejects.toThrow('offline');
    await expect(cache.get({ imageId: 'img_down' })).resolves.toEqual(ok('img_down'));
    await cache.get({ imageId: 'img_gone' });
    await cache.get({ imageId: 'img_gone' });
    expect(attempts).toBe(3);
  });

  it('drops the least recently used entries past its capacity', async () => {
    const cache = new ImageCache(async (request) => ok(request.imageId), 2);
    await cache.get({ imageId: 'img_1' });
    await cache.get({ imageId: 'img_2' });
    await cache.get({ imageId: 'img_1' });
    await cache.get({ imageId: 'img_3' });
    expect(cache.size).toBe(2);
    expect(cache.peek({ imageId: 'img_2' })).toBeUndefined();
    expect(cache.peek({ imageId: 'img_1' })).toBeDefined();
  });
});

describe('the session reducer', () => {
  it('sizes the steps to the session and fills them page by page', () => {
    let state = loaded([turn(TURN_1, 1, 2), turn(TURN_2, 2, 3)]);
    expect(state.status).toBe('ready');
    expect(state.steps).toHaveLength(5);
    state = timelineReducer(state, { type: 'steps-loaded', offset: 2, steps: [step({ id: 'step_c', turnId: TURN_2, sequence: 1 })] });
    expect(state.steps.map((each) => each?.id)).toEqual([undefined, undefined, 'step_c', undefined, undefined]);
  });

  it('applies a live run: a new turn, its screenshots and steps, an unchanged screen, and the end', () => {
    let state = loaded([turn(TURN_1, 1, 1)]);
    state = timelineReducer(state, { type: 'steps-loaded', offset: 0, steps: [step({ id: 'step_a', turnId: TURN_1, sequence: 1 })] });
    const at = Date.parse('2025-01-01T11:00:00.000Z');
    const base = { sessionId: SESSION, turnId: TURN_2, at };
    state = apply(
      state,
      { type: 'run-state', sessionId: SESSION, at, state: 'running' },
      { type: 'turn-started', ...base, request: 'Do it', sequence: 2 },
      { type: 'screenshot', ...base, imageId: 'img_000000000001', width: 1280, height: 800 },
      { type: 'model-text-delta', ...base, text: 'Clicking ' },
      { type: 'model-text-delta', ...base, text: 'the button' },
    );
    expect(state.turns.map((each) => each.id)).toEqual([TURN_1, TURN_2]);
    expect(state.liveText).toEqual({ turnId: TURN_2, text: 'Clicking the button' });
    expect(state.run).toBe('running');
    state = apply(
      state,
      { type: 'screenshot', ...base, imageId: 'img_000000000001', unchangedFrom: 'img_000000000001', width: 1280, height: 800 },
      {
        type: 'step',
        ...base,
        stepId: 'step_b',
        sequence: 1,
        tool: 'computer',
        action: { action: 'click', x: 5, y: 6 },
        thought: 'Clicking the button',
        screenshotImageId: 'img_000000000001',
        ok: true,
        latencyMs: 40,
        usage: { inputTokens: 900, outputTokens: 30, cachedInputTokens: 600, cacheWriteInputTokens: 200 },
        tokenReport: { sentTokens: 900, keepEverythingTokens: 1500, imagesSent: 1, imagesFolded: 0 },
      },
    );
    expect(state.steps.map((each) => each?.id)).toEqual(['step_a', 'step_b']);
    expect(state.turns[1]?.stepCount).toBe(1);
    expect(state.liveText).toBeNull();
    const live = state.steps[1];
    expect(live?.screenshot).toMatchObject({ imageId: 'img_000000000001', zone: 'active', width: 1280, height: 800 });
    expect(live?.dedupOf).toBe('img_000000000001');
    expect(live).toMatchObject({ inputTokens: 900, outputTokens: 30, cachedInputTokens: 600, cacheWriteInputTokens: 200 });
    expect(state.turns[1]?.tokens).toEqual({ input: 900, output: 30, cachedInput: 600, cacheWriteInput: 200 });
    expect(state.session?.tokens).toEqual({ input: 900, output: 30, cachedInput: 600, cacheWriteInput: 200, sent: 900, keepEverything: 1500 });

    const staleness = state.staleness;
    state = apply(state, {
      type: 'turn-ended',
      ...base,
      status: 'finished',
      reason: 'finished',
      summary: 'Clicked it.',
      steps: 1,
      usage: { inputTokens: 900, outputTokens: 30 },
    });
    expect(state.turns[1]).toMatchObject({ status: 'finished', summary: 'Clicked it.' });
    expect(state.staleness).toBe(staleness + 1);
  });

  it('adds each live step’s cost to its turn and the session: dollars when priced, tokens when not', () => {
    let state = loaded([turn(TURN_1, 1, 0, 'running')]);
    const base = { sessionId: SESSION, turnId: TURN_1, at: 0, tool: 'computer', ok: true, latencyMs: 1 };
    state = apply(
      state,
      { type: 'step', ...base, stepId: 'step_a', sequence: 1, usage: { inputTokens: 10_000, outputTokens: 100 }, costDollars: 0.0088 },
      // A later step of the same reply carries no call; a call of unknown price counts its tokens.
      { type: 'step', ...base, stepId: 'step_b', sequence: 2 },
      { type: 'step', ...base, stepId: 'step_c', sequence: 3, usage: { inputTokens: 2_000, outputTokens: 50 } },
    );
    expect(state.steps.map((each) => each?.costDollars)).toEqual([0.0088, null, null]);
    expect(state.turns[0]?.cost).toEqual({ dollars: 0.0088, unpricedTokens: 2_050 });
    expect(state.session?.cost).toEqual({ dollars: 0.0088, unpricedTokens: 2_050 });
    expect(formatCost(state.turns[0]!.cost)).toBe('$0.0088 + 2k tokens at no known price');
    expect(formatCost({ dollars: null, unpricedTokens: 0 })).toBeNull();
  });

  it('puts a live step of an earlier turn at its place, moving the later steps down', () => {
    let state = loaded([turn(TURN_1, 1, 1, 'running'), turn(TURN_2, 2, 1)]);
    state = timelineReducer(state, {
      type: 'steps-loaded',
      offset: 0,
      steps: [step({ id: 'step_a', turnId: TURN_1, sequence: 1 }), step({ id: 'step_z', turnId: TURN_2, sequence: 1 })],
    });
    state = apply(state, { type: 'step', sessionId: SESSION, turnId: TURN_1, at: 0, stepId: 'step_b', sequence: 2, tool: 'finish', ok: true, latencyMs: 1 });
    expect(state.steps.map((each) => each?.id)).toEqual(['step_a', 'step_b', 'step_z']);
    expect(state.steps[1]?.dedupOf).toBeNull();
  });

  it('gives a live turn its pictures once they are read, leaving the other turns and an unchanged state alone', () => {
    const at = Date.parse('2025-01-01T11:00:00.000Z');
    let state = apply(loaded([turn(TURN_1, 1, 0)]), { type: 'turn-started', sessionId: SESSION, turnId: TURN_2, at, request: 'Look', sequence: 2 });
    expect(state.turns[1]?.pictures).toEqual([]);
    const picture = { imageId: 'img_00000000000b', zone: 'active', caption: null, width: 40, height: 30, isErrorFrame: false } as const;
    const firstTurn = state.turns[0];
    state = timelineReducer(state, { type: 'pictures-loaded', turns: [turn(TURN_1, 1, 0), { ...turn(TURN_2, 2, 0, 'running'), pictures: [picture] }] });
    expect(state.turns.map((each) => each.pictures)).toEqual([[], [picture]]);
    // The live turn keeps what the events told it; only its pictures change.
    expect(state.turns[1]).toMatchObject({ request: 'Look', status: 'running' });
    expect(state.turns[0]).toBe(firstTurn);
    expect(timelineReducer(state, { type: 'pictures-loaded', turns: [] })).toBe(state);
  });

  it('tracks what the agent waits on until it is answered or the run ends', () => {
    const base = { sessionId: SESSION, turnId: TURN_1, at: 0 };
    let state = loaded([turn(TURN_1, 1, 0, 'running')]);
    state = apply(
      state,
      { type: 'confirmation-requested', ...base, requestId: 'r1', action: { action: 'key', keys: 'ctrl+w' }, reason: 'closes a tab' },
      { type: 'ask-user', ...base, requestId: 'r2', question: 'Which one?' },
      { type: 'ask-user', ...base, requestId: 'r2', question: 'Which one?' },
    );
    expect(state.pending.map((request) => request.requestId)).toEqual(['r1', 'r2']);
    state = apply(state, { type: 'confirmation-answered', ...base, requestId: 'r1', approved: true, by: 'user' });
    expect(state.pending.map((request) => request.requestId)).toEqual(['r2']);
    state = apply(state, { type: 'run-state', sessionId: SESSION, at: 0, state: 'ended' });
    expect(state.pending).toEqual([]);
    expect(state.run).toBeNull();
  });

  it('keeps what came live while the session was read when the older read lands, counting nothing twice', () => {
    // The page opened the session as its run began: the read started before the first step and question.
    const at = Date.parse('2025-01-01T11:00:00.000Z');
    const base = { sessionId: SESSION, turnId: TURN_1, at };
    const during: AppEvent[] = [
      { type: 'turn-started', ...base, request: 'Invite Alex', sequence: 1 },
      { type: 'model-text-delta', ...base, text: 'Clicking' },
      { type: 'step', ...base, stepId: 'step_a', sequence: 1, tool: 'computer', action: { action: 'click', x: 1, y: 2 }, ok: true, latencyMs: 5, usage: { inputTokens: 100, outputTokens: 10 } },
      { type: 'ask-user', ...base, requestId: 'r1', question: 'Which role?' },
      { type: 'model-text-delta', ...base, text: 'Next' },
      { type: 'warning', sessionId: SESSION, at, message: 'slow' },
      { type: 'step', ...base, stepId: 'step_other', sequence: 1, tool: 'computer', ok: true, latencyMs: 5, sessionId: 'ses_999999999999' },
    ];
    const live = apply(initialTimelineState(SESSION), ...during);
    const liveStep = live.steps[0];

    // A read from before the run: no turn yet.
    const older = timelineReducer(live, { type: 'loaded', detail: detail([]), reports: [], injections: [], pending: [], eventsDuringRead: during });
    expect(older.turns.map((each) => each.id)).toEqual([TURN_1]);
    expect(older.steps).toEqual([liveStep]);
    expect(older.pending.map((request) => request.requestId)).toEqual(['r1']);
    expect(older.turns[0]?.tokens.input).toBe(100);
    expect(older.liveText).toEqual({ turnId: TURN_1, text: 'Next' });
    expect(older.warnings).toEqual(['slow']);

    // A read from after the first step: it already counts the step and its tokens.
    const readTurn = { ...turn(TURN_1, 1, 1, 'running'), tokens: { input: 100, output: 10, cachedInput: 0, cacheWriteInput: 0 } };
    const newer = timelineReducer(live, { type: 'loaded', detail: detail([readTurn]), reports: [], injections: [], pending: [], eventsDuringRead: during });
    expect(newer.steps).toHaveLength(1);
    expect(newer.turns[0]?.tokens.input).toBe(100);
    expect(newer.pending.map((request) => request.requestId)).toEqual(['r1']);

    // The question answered during the read stays answered, though the read still holds it.
    const answered: AppEvent[] = [...during, { type: 'ask-user-answered', ...base, requestId: 'r1', answer: 'viewer' }];
    const pendingRead = [{ kind: 'question' as const, requestId: 'r1', turnId: TURN_1, question: 'Which role?' }];
    const afterAnswer = timelineReducer(apply(live, answered[answered.length - 1]!), { type: 'loaded', detail: detail([readTurn]), reports: [], injections: [], pending: pendingRead, eventsDuringRead: answered });
    expect(afterAnswer.pending).toEqual([]);
  });

  it('ignores events of other sessions and keeps the newest warnings', () => {
    const state = loaded([turn(TURN_1, 1, 0)]);
    expect(apply(state, { type: 'turn-started', sessionId: 'ses_999999999999', turnId: TURN_2, at: 0, request: 'x', sequence: 1 })).toBe(state);
    const warned = apply(state, ...['a', 'b', 'c', 'd'].map((message): AppEvent => ({ type: 'warning', sessionId: SESSION, at: 0, message })));
    expect(warned.warnings).toEqual(['b', 'c', 'd']);
    expect(apply(state, { type: 'run-error', sessionId: SESSION, at: 0, message: 'no display' }).runError).toBe('no display');
  });
});

describe('timeline rows', () => {
  it('lists each turn, its reports, its steps (loaded or not) and the streaming text, with fixed heights', () => {
    let state = loaded([turn(TURN_1, 1, 2), turn(TURN_2, 2, 1, 'running')]);
    state = timelineReducer(state, { type: 'steps-loaded', offset: 0, steps: [step({ id: 'step_a', turnId: TURN_1, sequence: 1 })] });
    state = {
      ...state,
      reports: [{ id: 'srch_1', turnId: TURN_1, question: 'q', queries: [], sources: [], answer: 'a', confidence: null, iterations: 1, durationMs: null, createdAt: '' }],
      injections: [{ id: 'inj_1', turnId: TURN_2, type: 'note', contentLength: 10, createdAt: '' }],
      liveText: { turnId: TURN_2, text: 'hmm' },
    } as TimelineState;
    const rows = timelineRows(state);
    expect(rows.map((row) => row.key)).toEqual([`turn:${TURN_1}`, 'report:srch_1', 'step:step_a', 'step-index:1', `turn:${TURN_2}`, 'step-index:2', `thinking:${TURN_2}`]);
    expect(rows[4]).toMatchObject({ kind: 'turn', injections: [{ id: 'inj_1' }] });
    expect(rowHeights(rows)).toEqual([ROW_HEIGHTS.turn, ROW_HEIGHTS.report, ROW_HEIGHTS.step, ROW_HEIGHTS.step, ROW_HEIGHTS.turn, ROW_HEIGHTS.step, ROW_HEIGHTS.thinking]);
  });

  it("puts a flow step's answer under its turn's header, a value's row taller than a verdict's (issue 25)", () => {
    const asserted = { ...turn(TURN_1, 1, 1), stepKind: 'assert' as const, answer: { kind: 'verdict' as const, value: true, reason: 'Shown.', evidence: [] } };
    const extracted = { ...turn(TURN_2, 2, 0), stepKind: 'extract' as const, answer: { kind: 'value' as const, value: { a: 1 }, reason: 'Read.', evidence: [] } };
    const rows = timelineRows(loaded([asserted, extracted]));
    expect(rows.map((row) => row.key)).toEqual([`turn:${TURN_1}`, `answer:${TURN_1}`, 'step-index:0', `turn:${TURN_2}`, `answer:${TURN_2}`]);
    expect(rowHeights(rows)).toEqual([ROW_HEIGHTS.turn, ROW_HEIGHTS.answer, ROW_HEIGHTS.step, ROW_HEIGHTS.turn, VALUE_ANSWER_HEIGHT]);
    // An older turn, with neither, has no answer row.
    expect(timelineRows(loaded([turn(TURN_1, 1, 0)])).map((row) => row.kind)).toEqual(['turn']);
  });
});

describe('how a step reads', () => {
  it('tells refused from error from unchanged', () => {
    expect(stepOutcome({ error: null, result: { ok: true }, dedupOf: null })).toBe('ok');
    expect(stepOutcome({ error: 'boom', result: { ok: false }, dedupOf: null })).toBe('error');
    expect(stepOutcome({ error: 'the user refused this action', result: { ok: false }, dedupOf: null })).toBe('refused');
    expect(stepOutcome({ error: 'x', result: { ok: false, refused: true }, dedupOf: null })).toBe('refused');
    expect(stepOutcome({ error: null, result: { ok: true }, dedupOf: 'img_000000000001' })).toBe('unchanged');
  });

  it('labels what a person is asked to approve: a computer action, or an MCP tool call with its arguments', () => {
    expect(approvalLabel({ action: 'key', keys: 'alt+F4' })).toBe('Key alt+F4');
    expect(approvalLabel({ tool: 'files__delete_file', arguments: { path: '/home/me/notes.txt' } })).toBe('files__delete_file {"path":"/home/me/notes.txt"}');
  });

  it('keeps a pending confirmation of an MCP tool call', () => {
    const state = apply(loaded([turn(TURN_1, 1, 0, 'running')]), {
      type: 'confirmation-requested',
      sessionId: SESSION,
      turnId: TURN_1,
      at: 1,
      requestId: 'r9',
      action: { tool: 'files__delete_file', arguments: { path: '/tmp/x' } },
      reason: 'it may delete something',
    });
    expect(state.pending).toEqual([{ kind: 'confirmation', requestId: 'r9', turnId: TURN_1, action: { tool: 'files__delete_file', arguments: { path: '/tmp/x' } }, reason: 'it may delete something' }]);
  });

  it('labels computer actions and other tools', () => {
    const label = (overrides: Partial<Step>) => stepActionLabel(step({ id: 's', turnId: TURN_1, sequence: 1, ...overrides }));
    expect(label({ action: { action: 'double_click', x: 1.4, y: 2.6 } })).toBe('Double click (1, 3)');
    expect(label({ action: { action: 'drag', x: 1, y: 2, to_x: 3, to_y: 4 } })).toBe('Drag (1, 2) to (3, 4)');
    expect(label({ action: { action: 'scroll', x: 5, y: 6, scroll_x: 0, scroll_y: -3 } })).toBe('Scroll (5, 6) by 0, -3');
    expect(label({ action: { action: 'key', keys: 'ctrl+s' } })).toBe('Key ctrl+s');
    expect(label({ action: { action: 'type', text: 'x'.repeat(80) } })).toBe(`Type "${'x'.repeat(39)}…"`);
    expect(label({ action: null, tool: 'web_search', toolArguments: { query: 'viewer role' } })).toBe('Web search “viewer role”');
    expect(label({ action: null, tool: 'my_mcp_tool', toolArguments: { other: 1 } })).toBe('my_mcp_tool');
    expect(label({ action: null, tool: 'crop_image', toolArguments: { crops: { img_000000000001: [1, 2, 31, 42] } } })).toBe(
      'Zoom into image img_000000000001 (30×40 at 1, 2)',
    );
  });

  it('folds images that left the request, and names the offloaded zone cold', () => {
    expect(isFolded({ zone: 'active', caption: null })).toBe(false);
    expect(isFolded({ zone: 'compact', caption: null })).toBe(false);
    expect(isFolded({ zone: 'compact', caption: 'a page' })).toBe(true);
    expect(isFolded({ zone: 'offloaded', caption: null })).toBe(true);
    expect(isFolded({ zone: 'purged', caption: null })).toBe(true);
    expect(zoneLabel('offloaded')).toBe('cold');
  });

  it('draws a frame whole when the next request sends it whole or reduced, wherever its pixels are (issue 16)', () => {
    // An anchor of an ended turn, captioned in the compact zone, that the next request still sends whole.
    expect(isFolded({ zone: 'compact', caption: 'a page', nextRequest: 'whole' })).toBe(false);
    // A pinned frame whose file compaction moved to cold storage: read back from there and sent whole.
    expect(isFolded({ zone: 'offloaded', caption: 'a page', nextRequest: 'whole' })).toBe(false);
    expect(isFolded({ zone: 'compact', caption: null, nextRequest: 'reduced' })).toBe(false);
    // Folded in the request even though its pixels are still in blobs.
    expect(isFolded({ zone: 'active', caption: null, nextRequest: 'folded' })).toBe(true);
    expect(isFolded({ zone: 'compact', caption: null, nextRequest: 'folded' })).toBe(true);
    // Purged stays a placeholder whatever the plan says: nothing is left to draw.
    expect(isFolded({ zone: 'purged', caption: null, nextRequest: 'whole' })).toBe(true);
  });

  it('says where a folded frame’s pixels are: cold storage, or whole in blobs but folded in the request', () => {
    expect(pixelsLocation({ zone: 'offloaded' })).toBe('cold-storage');
    expect(pixelsLocation({ zone: 'active' })).toBe('blobs');
    expect(pixelsLocation({ zone: 'compact' })).toBe('blobs');
    expect(pixelsLocation({ zone: 'purged' })).toBe('purged');
    expect(placeholderHint({ zone: 'offloaded' })).toBe('Load from cold storage');
    expect(placeholderHint({ zone: 'compact' })).toBe('Show · kept whole');
    expect(placeholderHint({ zone: 'active' })).toBe('Show · kept whole');
    expect(placeholderHint({ zone: 'purged' })).toBe('Unavailable · purged');
  });

  it('words the pin control by what a click does', () => {
    expect(pinControl(false)).toEqual({ label: 'Pin', title: 'Pin this frame: every later request of this session sends it whole.' });
    expect(pinControl(true).label).toBe('Pinned');
    expect(pinControl(true).title).toMatch(/Click to unpin\.$/);
  });
});

describe('crop boxes', () => {
  const crops = (toolArguments: unknown) => cropBoxesOf({ id: 'step_1', tool: 'crop_image', toolArguments: toolArguments as Step['toolArguments'] });

  it('reads the tool\'s boxes, [left, top, right, bottom] per image, ids with or without their prefix', () => {
    expect(crops({ crops: { img_0123456789ab: [10, 20, 40, 60] } })).toEqual([
      { stepId: 'step_1', imageId: 'img_0123456789ab', x: 10, y: 20, width: 30, height: 40 },
    ]);
    expect(crops({ crops: { '0123456789ab': [0, 0, 5, 5], img_ba9876543210: [1, 1, 3, 3] }, scale: 2 }).map((box) => box.imageId)).toEqual([
      'img_0123456789ab',
      'img_ba9876543210',
    ]);
  });

  it('leaves out what it cannot read rather than guessing', () => {
    expect(crops({ crops: { img_0123456789ab: [40, 20, 10, 60] } })).toEqual([]);
    expect(crops({ crops: { 'not an id': [0, 0, 5, 5] } })).toEqual([]);
    expect(crops({ image_id: 'img_0123456789ab', x: 1, y: 2, width: 3, height: 4 })).toEqual([]);
    expect(cropBoxesOf({ id: 's', tool: 'computer', toolArguments: { crops: { img_0123456789ab: [0, 0, 5, 5] } } })).toEqual([]);
  });

  it('draws the crops the result records as made, in the original\'s pixels, not the arguments the model wrote in the image it was shown', () => {
    const made = cropBoxesOf({
      id: 'step_1',
      tool: 'crop_image',
      toolArguments: { crops: { img_0123456789ab: [490, 290, 710, 360], '[Picture:history_0123456789abcdef]': [0, 0, 9, 9], img_ba9876543210: [0, 0, 2000, 10] } },
      result: {
        ok: true,
        crops: [
          { image: 'img_0123456789ab', box: [980, 580, 1420, 720], drawnBox: [490, 290, 710, 360], view: { imageWidth: 1280, imageHeight: 800, coordinateSpace: 'pixels' }, scale: 1, cropImageId: 'img_00000000c001' },
          { image: 'img_00000000beef', box: [0, 0, 18, 18], scale: 1, cropImageId: 'img_00000000c002' },
          { image: 'img_ba9876543210', box: [0, 0, 2000, 10], error: 'the box is outside the image' },
        ],
      },
    });
    expect(made).toEqual([
      { stepId: 'step_1', imageId: 'img_0123456789ab', x: 980, y: 580, width: 440, height: 140 },
      { stepId: 'step_1', imageId: 'img_00000000beef', x: 0, y: 0, width: 18, height: 18 },
    ]);
    expect(
      stepActionLabel({
        id: 'step_1',
        tool: 'crop_image',
        action: null,
        toolArguments: { crops: { img_0123456789ab: [490, 290, 710, 360] } },
        result: { ok: true, crops: [{ image: 'img_0123456789ab', box: [980, 580, 1420, 720], scale: 1, cropImageId: 'img_00000000c001' }] },
      }),
    ).toBe('Zoom into image img_0123456789ab (440×140 at 980, 580)');
    // A result that records no crops (older steps): the arguments, which were then the original's pixels.
    expect(cropBoxesOf({ id: 'step_2', tool: 'crop_image', toolArguments: { crops: { img_0123456789ab: [1, 2, 3, 4] } }, result: { ok: true } })).toEqual([
      { stepId: 'step_2', imageId: 'img_0123456789ab', x: 1, y: 2, width: 2, height: 2 },
    ]);
  });

  it('collects the boxes drawn on one image', () => {
    const steps = [
      step({ id: 'a', turnId: TURN_1, sequence: 1, tool: 'crop_image', action: null, toolArguments: { crops: { img_0123456789ab: [0, 0, 2, 2] } } }),
      step({ id: 'b', turnId: TURN_1, sequence: 2, tool: 'crop_image', action: null, toolArguments: { crops: { img_ba9876543210: [0, 0, 2, 2] } } }),
      undefined,
    ];
    expect(cropBoxesFor('img_0123456789ab', steps).map((box) => box.stepId)).toEqual(['a']);
  });
});

describe('tokens', () => {
  it('charts sent against keep-everything, reducing long sessions to their peaks', () => {
    const steps = [
      step({ id: 'a', turnId: TURN_1, sequence: 1, tokenReport: { sentTokens: 100, keepEverythingTokens: 100, imagesSent: 1, imagesFolded: 0 } }),
      step({ id: 'b', turnId: TURN_1, sequence: 2 }),
      step({ id: 'c', turnId: TURN_1, sequence: 3, tokenReport: { sentTokens: 150, keepEverythingTokens: 400, imagesSent: 1, imagesFolded: 2 } }),
    ];
    const points = tokenSeries(steps);
    expect(points).toEqual([
      { sent: 100, keepEverything: 100 },
      { sent: 150, keepEverything: 400 },
    ]);
    expect(chartPaths(points, 100, 40)).toEqual({ sent: '0,30 100,25', keepEverything: '0,30 100,0', sentArea: '0,40 0,30 100,25 100,40', maximum: 400 });
    const many = Array.from({ length: 1000 }, (_, index) => ({ sent: index, keepEverything: index * 2 }));
    const reduced = downsample(many, 100);
    expect(reduced).toHaveLength(100);
    expect(reduced.at(-1)).toEqual({ sent: 999, keepEverything: 1998 });
  });

  it('formats counts, shares and durations shortly', () => {
    expect(formatTokens(950)).toBe('950');
    expect(formatTokens(1240)).toBe('1.2k');
    expect(formatTokens(18_400)).toBe('18k');
    expect(formatTokens(3_200_000)).toBe('3.2M');
    expect(formatUsage({ input: 12_340, output: 210, cachedInput: 11_900, cacheWriteInput: 300 })).toBe('12k in (12k cached, 300 written) · 210 out');
    expect(formatUsage({ input: 1240, output: 30, cachedInput: 1024, cacheWriteInput: 0 })).toBe('1.2k in (1k cached) · 30 out');
    expect(formatUsage({ input: 950, output: 30, cachedInput: 0, cacheWriteInput: 0 })).toBe('950 in · 30 out');
    expect(stepUsageTotals({ inputTokens: 900, outputTokens: 20, cachedInputTokens: 800, cacheWriteInputTokens: null })).toEqual({
      input: 900,
      output: 20,
      cachedInput: 800,
      cacheWriteInput: 0,
    });
    expect(stepUsageTotals({ inputTokens: null, outputTokens: null, cachedInputTokens: null, cacheWriteInputTokens: null })).toBeNull();
    // The billed input against the same calls with every image whole: 400 in, plus the 750 the builder says
    // keeping the images would add, is 1,150 kept whole; 750 / 1,150 saved. Not the builder's own 250 / 1,000.
    expect(imageSavings({ input: 400, sent: 250, keepEverything: 1000 })).toEqual({ input: 400, keptWhole: 1150, saved: 750, share: 750 / 1150 });
    expect(savingsPercent(imageSavings({ input: 400, sent: 250, keepEverything: 1000 })!)).toBe('65%');
    expect(imageSavings({ input: 400, sent: null, keepEverything: 1000 })).toBeNull();
    expect(formatDuration(850)).toBe('850 ms');
    expect(formatDuration(4200)).toBe('4.2 s');
    expect(formatDuration(95_000)).toBe('1 min 35 s');
    expect(truncate('a  b\nc', 10)).toBe('a b c');
    expect(truncate('abcdefghij', 5)).toBe('abcd…');
  });
});
