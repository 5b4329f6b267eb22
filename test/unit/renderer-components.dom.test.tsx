/**
 * The timeline's components rendered to markup (react-dom/server; no DOM is installed): what each shows for
 * the data it is given. Interaction (clicks, loading, live updates) is covered by the browser tests in
 * test/e2e/timeline-ui.test.ts.
 */
import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ImageSummary, Injection, KeyStatus, SearchReport, SessionSummary, Step, Turn, TurnAnswerView } from '../../src/shared/app-api.js';
import { AnswerCard } from '../../src/renderer/src/components/AnswerCard.js';
import { ApiKeysDialog, ApiKeysView } from '../../src/renderer/src/components/ApiKeysDialog.js';
import { ImageViewer, stepZoom } from '../../src/renderer/src/components/ImageViewer.js';
import { NewTaskForm } from '../../src/renderer/src/components/NewTaskForm.js';
import { PlaceholderCard } from '../../src/renderer/src/components/PlaceholderCard.js';
import { RunControls } from '../../src/renderer/src/components/RunControls.js';
import { ScreenshotFigure } from '../../src/renderer/src/components/ScreenshotFigure.js';
import { SearchReportCard } from '../../src/renderer/src/components/SearchReportCard.js';
import { SessionList } from '../../src/renderer/src/components/SessionList.js';
import { StepRow } from '../../src/renderer/src/components/StepRow.js';
import { TokenChart } from '../../src/renderer/src/components/TokenChart.js';
import { TokenMeter } from '../../src/renderer/src/components/TokenMeter.js';
import { TurnCard } from '../../src/renderer/src/components/TurnCard.js';
import type { AppApiClient } from '../../src/renderer/src/api/index.js';
import { AppApiContext } from '../../src/renderer/src/hooks/app-api-context.js';
import type { Sessions } from '../../src/renderer/src/hooks/use-sessions.js';

const TURN = 'turn_000000000001';
const IMAGE = 'img_00000000000a';
const noop = () => {};

function step(overrides: Partial<Step> = {}): Step {
  return {
    id: 'step_1',
    turnId: TURN,
    sequence: 3,
    tool: 'computer',
    action: { action: 'click', x: 120, y: 190 },
    toolArguments: null,
    thought: 'Opening the Team page.',
    screenshot: { imageId: IMAGE, zone: 'active', caption: null, width: 1280, height: 800, isErrorFrame: false },
    dedupOf: null,
    result: { ok: true },
    error: null,
    latencyMs: 1200,
    inputTokens: 3500,
    outputTokens: 90,
    cachedInputTokens: null,
    cacheWriteInputTokens: null,
    costDollars: null,
    tokenReport: { sentTokens: 3500, keepEverythingTokens: 9000, imagesSent: 2, imagesFolded: 3 },
    createdAt: '2025-01-01T10:00:00.000Z',
    ...overrides,
  } as Step;
}

/** A client that is never called during a server render (effects do not run there). */
const client = { transport: 'http' } as AppApiClient;

function render(element: ReactElement): string {
  return renderToStaticMarkup(<AppApiContext.Provider value={client}>{element}</AppApiContext.Provider>);
}

function text(markup: string): string {
  return markup
    .replace(/<[^>]+>/g, ' ')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

describe('StepRow', () => {
  it('shows the action, the thought, the cost and a thumbnail frame of a whole screenshot', () => {
    const markup = render(<StepRow step={step()} onOpenImage={noop} />);
    expect(markup).toContain('data-outcome="ok"');
    expect(text(markup)).toContain('3 Click (120, 190) Opening the Team page.');
    expect(text(markup)).toContain('1.2 s');
    expect(text(markup)).toContain('3.5k / 9k tokens');
    expect(text(markup)).toContain('3 folded');
    expect(markup).toContain('step-media-frame');
    // The thumbnail loads only once the row is seen: nothing is fetched or inlined on the first render.
    expect(markup).toContain('media-shimmer');
    expect(markup).not.toContain('<image');
  });

  it('highlights an error, a refusal and an unchanged screen', () => {
    const error = render(<StepRow step={step({ error: 'The point is outside the screenshot.', result: { ok: false } })} onOpenImage={noop} />);
    expect(error).toContain('outcome-error');
    expect(text(error)).toContain('Error');
    expect(text(error)).toContain('The point is outside the screenshot.');

    const refused = render(<StepRow step={step({ error: 'the user refused this action', result: { ok: false, refused: true } })} onOpenImage={noop} />);
    expect(refused).toContain('data-outcome="refused"');
    expect(text(refused)).toContain('Refused');

    const unchanged = render(<StepRow step={step({ dedupOf: 'img_00000000000b' })} onOpenImage={noop} />);
    expect(unchanged).toContain('data-outcome="unchanged"');
    expect(text(unchanged)).toContain('No change');
    expect(text(unchanged)).toContain('Unchanged: same as img_00000000000b');
  });

  it('shows a folded screenshot as a placeholder card, and a skeleton while its page loads', () => {
    const folded = render(
      <StepRow step={step({ screenshot: { imageId: IMAGE, zone: 'offloaded', caption: 'Team page, five members.', width: 1280, height: 800, isErrorFrame: false } })} onOpenImage={noop} />,
    );
    expect(folded).toContain('placeholder-card');
    expect(folded).toContain(`data-image-id="${IMAGE}"`);
    expect(render(<StepRow step={undefined} onOpenImage={noop} />)).toContain('step-skeleton');
    const bare = text(render(<StepRow step={step({ screenshot: null, thought: null })} onOpenImage={noop} />));
    expect(bare).toContain('No thought recorded');
    expect(bare).toMatch(/No screenshot$/);
  });
});

describe('PlaceholderCard', () => {
  it('offers to load a cold image, with its id, caption and zone', () => {
    const screenshot = { imageId: IMAGE, zone: 'offloaded' as const, caption: 'Team page, five members.', width: 1280, height: 800, isErrorFrame: false };
    const markup = render(<PlaceholderCard step={step({ screenshot })} screenshot={screenshot} onOpen={noop} />);
    expect(text(markup)).toBe(`${IMAGE} cold Team page, five members. Load from cold storage`);
    expect(markup).toContain('placeholder-idle');
    expect(markup).not.toContain('disabled');
  });

  it('says at once that a purged image is unavailable, with nothing to click', () => {
    const screenshot = { imageId: IMAGE, zone: 'purged' as const, caption: null, width: 1280, height: 800, isErrorFrame: false };
    const markup = render(<PlaceholderCard step={step({ screenshot })} screenshot={screenshot} onOpen={noop} />);
    expect(text(markup)).toBe(`${IMAGE} purged No caption Unavailable · purged`);
    expect(markup).toContain('placeholder-unavailable');
    expect(markup).toContain('disabled');
  });
});

describe('pinned frames and what the next request sends (issue 16)', () => {
  const summary = (overrides: Partial<NonNullable<Step['screenshot']>>) =>
    ({ imageId: IMAGE, zone: 'compact', caption: 'Team page, five members.', width: 1280, height: 800, isErrorFrame: false, ...overrides }) as NonNullable<Step['screenshot']>;

  it('draws a captioned anchor whole when the next request sends it whole, and a blobs frame folded in the request as a placeholder saying so', () => {
    const whole = render(<StepRow step={step({ screenshot: summary({ nextRequest: 'whole', pinned: false }) })} onOpenImage={noop} />);
    expect(whole).not.toContain('placeholder-card');
    expect(whole).toContain('media-shimmer');

    const folded = summary({ zone: 'active', caption: null, nextRequest: 'folded', pinned: false });
    const card = render(<PlaceholderCard step={step({ screenshot: folded })} screenshot={folded} onOpen={noop} />);
    expect(text(card)).toBe(`${IMAGE} active No caption Show · kept whole`);
    expect(render(<StepRow step={step({ screenshot: folded })} onOpenImage={noop} />)).toContain('placeholder-card');
  });

  it('marks a pinned frame and offers to unpin it; an unpinned one offers to pin; a purged one cannot be pinned', () => {
    const pinned = render(<StepRow step={step({ screenshot: summary({ nextRequest: 'whole', pinned: true }) })} onOpenImage={noop} />);
    expect(pinned).toContain('class="pin-badge"');
    expect(pinned).toMatch(/<button type="button" class="pin-toggle pin-toggle-on" aria-pressed="true" aria-label="Pinned img_00000000000a"/);

    const plain = render(<StepRow step={step()} onOpenImage={noop} />);
    expect(plain).not.toContain('pin-badge');
    expect(plain).toMatch(/<button type="button" class="pin-toggle " aria-pressed="false" aria-label="Pin img_00000000000a"/);

    const reduced = render(<StepRow step={step({ screenshot: summary({ zone: 'active', caption: null, nextRequest: 'reduced', pinned: false }) })} onOpenImage={noop} />);
    expect(text(reduced)).toContain('reduced');

    const purged = summary({ zone: 'purged', caption: null, nextRequest: 'folded', pinned: false });
    expect(render(<StepRow step={step({ screenshot: purged })} onOpenImage={noop} />)).toMatch(/class="pin-toggle "[^>]*disabled=""/);
    const card = render(<PlaceholderCard step={step({ screenshot: summary({ zone: 'offloaded', pinned: true, nextRequest: 'folded' }) })} screenshot={summary({ zone: 'offloaded', pinned: true, nextRequest: 'folded' })} onOpen={noop} />);
    expect(text(card)).toBe(`${IMAGE} pinned cold Team page, five members. Load from cold storage`);
  });

  it('puts the pin control in the viewer’s toolbar', () => {
    const markup = render(<ImageViewer step={step()} screenshot={summary({ pinned: true, nextRequest: 'whole' })} cropBoxes={[]} onClose={noop} />);
    expect(text(markup)).toContain(`${IMAGE} compact 1280×800 Pinned`);
  });
});

describe('ScreenshotFigure', () => {
  it('draws the action and crop boxes in the image’s own coordinates, as SVG attributes', () => {
    const markup = renderToStaticMarkup(
      <ScreenshotFigure
        url="data:image/png;base64,AA=="
        width={1280}
        height={800}
        action={{ action: 'drag', x: 10, y: 20, to_x: 300, to_y: 400 }}
        view={{ imageWidth: 1280, imageHeight: 800, coordinateSpace: 'pixels' }}
        cropBoxes={[{ stepId: 'step_9', imageId: IMAGE, x: 5, y: 6, width: 70, height: 80 }]}
        scale="full"
        label="Screenshot"
      />,
    );
    expect(markup).toContain('viewBox="0 0 1280 800"');
    expect(markup).toContain('<image href="data:image/png;base64,AA==" x="0" y="0" width="1280" height="800"');
    expect(markup).toMatch(/<line class="action-path" x1="10" y1="20" x2="300" y2="400"/);
    expect(markup.match(/class="action-ring" cx="(\d+)" cy="(\d+)"/g)).toEqual(['class="action-ring" cx="10" cy="20"', 'class="action-ring" cx="300" cy="400"']);
    expect(markup).toContain('<rect x="5" y="6" width="70" height="80"');
    expect(markup).not.toContain('style=');
  });

  it('draws the action where it landed on the stored image, through the view the model was shown', () => {
    // A 1920x1080 screenshot shown to the model at 1280x720: its click at (640, 360) is the centre.
    const click = { action: 'click', x: 640, y: 360 } as const;
    const shown = renderToStaticMarkup(
      <ScreenshotFigure url="data:," width={1920} height={1080} action={click} view={{ imageWidth: 1280, imageHeight: 720, coordinateSpace: 'pixels' }} label="x" />,
    );
    expect(shown).toContain('class="action-ring" cx="960" cy="540"');
    const normalized = renderToStaticMarkup(
      <ScreenshotFigure url="data:," width={1920} height={1080} action={{ action: 'click', x: 500, y: 500 }} view={{ imageWidth: 1000, imageHeight: 1000, coordinateSpace: 'normalized-1000' }} label="x" />,
    );
    expect(normalized).toContain('class="action-ring" cx="960" cy="540"');
    // Without the view (older steps) nothing is drawn, rather than a mark in the wrong place.
    const unknown = renderToStaticMarkup(<ScreenshotFigure url="data:," width={1920} height={1080} action={click} label="x" />);
    expect(unknown).not.toContain('action-ring');
  });

  it('draws nothing extra for an action without a point', () => {
    const markup = renderToStaticMarkup(<ScreenshotFigure url="data:," width={10} height={10} action={{ action: 'type', text: 'hi' }} label="x" />);
    expect(markup).not.toContain('action-mark');
  });
});

describe('TurnCard, SearchReportCard and badges', () => {
  const turn: Turn = {
    id: TURN,
    sequence: 2,
    request: 'Invite alex@example.com as a viewer',
    status: 'failed',
    startedAt: '2025-01-01T10:00:00.000Z',
    endedAt: '2025-01-01T10:00:42.000Z',
    compactedAt: '2025-01-01T10:01:00.000Z',
    summary: 'Could not find the invite button.',
    stepCount: 7,
    tokens: { input: 0, output: 0, cachedInput: 0, cacheWriteInput: 0 },
    cost: { dollars: null, unpricedTokens: 0 },
    pictures: [],
    stepKind: null,
    answer: null,
  } as Turn;
  const injections = [{ id: 'inj_1', turnId: TURN, type: 'note', contentLength: 1240, createdAt: '' }] as Injection[];

  it('shows the pictures attached to the request beside it, and nothing for a request without any', () => {
    const pictures = [
      { imageId: 'img_00000000000b', zone: 'active', caption: null, width: 640, height: 480, isErrorFrame: false },
      { imageId: 'img_00000000000c', zone: 'offloaded', caption: null, width: 40, height: 30, isErrorFrame: false },
    ] as Turn['pictures'];
    const markup = render(<TurnCard turn={{ ...turn, pictures }} injections={[]} />);
    expect(markup).toContain('aria-label="Pictures attached to the request"');
    expect(markup).toContain('title="Picture img_00000000000b (640×480)"');
    expect(markup).toContain('title="Picture img_00000000000c (40×30)"');
    // Beside the request, on its line: the turn row keeps its fixed height.
    expect(markup).toMatch(/<div class="turn-request-line"><p class="turn-request"[^>]*>Invite alex@example.com as a viewer<\/p><ul class="turn-pictures"/);
    expect(render(<TurnCard turn={turn} injections={[]} />)).not.toContain('turn-pictures');
  });

  it('shows the request, status, duration, steps, summary, compaction and injections (type and length only)', () => {
    const markup = render(<TurnCard turn={turn} injections={injections} />);
    const shown = text(markup);
    expect(shown).toContain('Turn 2 Failed');
    expect(shown).toContain('42 s · 7 steps compacted');
    expect(shown).toContain('note 1.2k chars');
    expect(shown).toContain('Invite alex@example.com as a viewer Could not find the invite button.');
    expect(markup).toContain('status-failed');
  });

  it('says how a replayed step ran: replayed, or healed with where the screen diverged and what it saved', () => {
    const replayed = render(
      <TurnCard
        turn={{ ...turn, replay: { mode: 'replayed', recordedTurnId: 'turn_000000000001', replayedActions: 2, modelCalls: 0, costDollars: 0, baselineModelCalls: 3, baselineCostDollars: 0.01 } }}
        injections={[]}
      />,
    );
    expect(text(replayed)).toContain('7 steps replayed');
    expect(replayed).toContain('title="2 recorded actions replayed without the model; 0 model calls, 3 saved against the recorded run."');
    const healed = render(
      <TurnCard
        turn={{
          ...turn,
          replay: {
            mode: 'healed',
            recordedTurnId: 'turn_000000000001',
            replayedActions: 0,
            modelCalls: 2,
            costDollars: 0,
            baselineModelCalls: 3,
            baselineCostDollars: 0.01,
            divergence: { phase: 'before', action: 1, actionText: 'click (330, 150)', reason: 'the region at 100,140 74×20 changed near the target' },
          },
        }}
        injections={[]}
      />,
    );
    expect(healed).toContain('class="turn-replay replay-healed"');
    expect(healed).toContain('The screen diverged before action 1 (click (330, 150)): the region at 100,140 74×20 changed near the target.');
    expect(render(<TurnCard turn={turn} injections={[]} />)).not.toContain('turn-replay');
  });

  it('shows what the turn’s model calls cost: input with its cache reads and writes, and output', () => {
    const markup = render(<TurnCard turn={{ ...turn, tokens: { input: 12_340, output: 210, cachedInput: 11_900, cacheWriteInput: 300 } }} injections={[]} />);
    expect(text(markup)).toContain('12k in (12k cached, 300 written) · 210 out');
    expect(markup).toContain('title="12,340 input tokens: 11,900 read from the prompt cache, 440 uncached; 300 written to the cache. 210 output tokens."');
  });

  it('shows what the turn cost in dollars, or unknown (with its tokens) where the price was unknown, and nothing before a call', () => {
    expect(text(render(<TurnCard turn={{ ...turn, cost: { dollars: 0.0264, unpricedTokens: 0 } }} injections={[]} />))).toContain('$0.0264');
    const unpriced = render(<TurnCard turn={{ ...turn, cost: { dollars: null, unpricedTokens: 30_300 } }} injections={[]} />);
    expect(text(unpriced)).toContain('unknown (30k tokens at no known price)');
    expect(render(<TurnCard turn={turn} injections={[]} />)).not.toContain('turn-cost');
  });

  it('shows a search report with its answer, confidence and sources as links', () => {
    const report = {
      id: 'srch_1',
      turnId: TURN,
      question: 'What can a viewer do?',
      queries: ['viewer permissions'],
      sources: [{ title: 'Roles', url: 'https://help.example/roles' }, { url: 'https://blog.example/x' }, 'not a source'],
      answer: 'Viewers can read and comment.',
      confidence: 0.86,
      iterations: 2,
      durationMs: 8400,
      createdAt: '',
    } as SearchReport;
    const markup = render(<SearchReportCard report={report} />);
    expect(text(markup)).toContain('Search sub-agent What can a viewer do? 86% confident Viewers can read and comment. 2 sources · 2 rounds · 8.4 s Roles blog.example');
    expect(markup).toContain('href="https://help.example/roles"');
    expect(markup).toContain('rel="noreferrer noopener"');
  });

  it('meters the input against every image kept whole, and charts them', () => {
    expect(text(render(<TokenMeter sent={2500} keepEverything={10_000} />))).toBe('2.5k in · 10k with every image kept whole · 75% saved');
    // The billed input, where known, is the basis: 4k billed plus the 7.5k the kept images would add.
    expect(text(render(<TokenMeter input={4000} sent={2500} keepEverything={10_000} />))).toBe('4k in · 12k with every image kept whole · 65% saved');
    expect(render(<TokenMeter sent={2500} keepEverything={10_000} />)).toContain('width="25"');
    expect(render(<TokenMeter sent={null} keepEverything={10} />)).toBe('');
    const chart = render(<TokenChart points={[{ sent: 10, keepEverything: 20 }, { sent: 12, keepEverything: 40 }]} />);
    expect(chart).toContain('class="token-chart-sent" points="0,42 240,39.2"');
    expect(text(chart)).toContain('max 40');
    expect(render(<TokenChart points={[]} />)).toBe('');
  });
});

describe('StepRow usage', () => {
  it('shows the step’s input with what the prompt cache served and took, and its output', () => {
    const markup = render(<StepRow step={step({ inputTokens: 3500, outputTokens: 90, cachedInputTokens: 3000, cacheWriteInputTokens: 120 })} onOpenImage={noop} />);
    expect(text(markup)).toContain('3.5k in (3k cached, 120 written) · 90 out');
    expect(markup).toContain('3,000 read from the prompt cache, 500 uncached; 120 written to the cache.');
  });

  it('shows the step’s cost in dollars when its price was known, unknown when it was not (issue 34, part 5), and none without a call', () => {
    const priced = render(<StepRow step={step({ costDollars: 0.0088 })} onOpenImage={noop} />);
    expect(priced).toContain('class="step-cost"');
    expect(text(priced)).toContain('3.5k in · 90 out $0.0088');
    expect(text(render(<StepRow step={step()} onOpenImage={noop} />))).toContain('3.5k in · 90 out cost unknown');
    expect(render(<StepRow step={step({ inputTokens: null, outputTokens: null })} onOpenImage={noop} />)).not.toContain('step-cost');
  });

  it('shows plain input and output when the provider reported no cache, and nothing on a reply’s later steps', () => {
    expect(text(render(<StepRow step={step()} onOpenImage={noop} />))).toContain('3.5k in · 90 out');
    const later = render(<StepRow step={step({ inputTokens: null, outputTokens: null })} onOpenImage={noop} />);
    expect(later).not.toContain('step-usage');
  });
});

describe('SessionList', () => {
  const summary = (id: string, title: string, overrides: Partial<SessionSummary> = {}): SessionSummary =>
    ({
      id,
      title,
      status: 'idle',
      operator: 'browser',
      model: 'gpt-4.1',
      createdAt: '2025-01-01T10:00:00.000Z',
      updatedAt: '2025-01-01T10:00:00.000Z',
      turnCount: 2,
      stepCount: 13,
      tokens: { input: 87_000, output: 0, cachedInput: 0, cacheWriteInput: 0, sent: 87_000, keepEverything: 136_000 },
      cost: { dollars: null, unpricedTokens: 0 },
      run: null,
      ...overrides,
    }) as SessionSummary;
  const sessions = (overrides: Partial<Sessions>): Sessions => ({
    status: 'ready',
    sessions: [],
    total: 0,
    error: null,
    query: '',
    setQuery: noop,
    refresh: noop,
    remove: async () => {},
    ...overrides,
  });

  it('lists sessions with their counts, tokens saved and state, the open one marked', () => {
    const list = sessions({
      sessions: [summary('ses_00000000000a', 'Invite Alex'), summary('ses_00000000000b', 'Triage', { run: 'running', tokens: { input: 0, output: 0, cachedInput: 0, cacheWriteInput: 0, sent: null, keepEverything: null } })],
      total: 2,
    });
    const markup = render(<SessionList sessions={list} selectedId="ses_00000000000a" onSelect={noop} onDeleted={noop} connected />);
    expect(text(markup)).toContain('Sessions 2');
    expect(text(markup)).toContain('Invite Alex');
    expect(text(markup)).toContain('2 turns · 13 steps −36% tokens');
    expect(markup).toContain('class="session-item selected" data-session-id="ses_00000000000a"');
    expect(markup).toContain('status-dot status-running');
    expect(markup).toContain('aria-label="Delete session Invite Alex"');
  });

  it('says when there is nothing to show, or nothing to load from', () => {
    expect(text(render(<SessionList sessions={sessions({})} selectedId={null} onSelect={noop} onDeleted={noop} connected />))).toContain('No sessions yet.');
    expect(text(render(<SessionList sessions={sessions({ query: 'zzz' })} selectedId={null} onSelect={noop} onDeleted={noop} connected />))).toContain(
      'No session matches.',
    );
    expect(text(render(<SessionList sessions={sessions({ status: 'failed', error: 'offline' })} selectedId={null} onSelect={noop} onDeleted={noop} connected />))).toContain(
      'Could not load sessions: offline',
    );
    expect(text(render(<SessionList sessions={sessions({})} selectedId={null} onSelect={noop} onDeleted={noop} connected={false} />))).toContain(
      'Open the timeline from Sightline to see sessions.',
    );
  });
});

describe('run controls, the new-task form and the viewer', () => {
  const session = { id: 'ses_00000000000a', status: 'running' } as SessionSummary;

  it('offers pause and stop while running, resume while paused, a new task when idle', () => {
    expect(text(render(<RunControls session={session} run="running" onContinue={noop} />))).toBe('Running Pause Stop');
    expect(text(render(<RunControls session={session} run="paused" onContinue={noop} />))).toBe('Paused Resume Stop');
    expect(render(<RunControls session={session} run="stopping" onContinue={noop} />)).toMatch(/<button type="button" class="button button-danger" disabled="">Stop/);
    expect(text(render(<RunControls session={{ ...session, status: 'idle' }} run={null} onContinue={noop} />))).toBe('Continue with a new task');
  });

  it('asks for a task, the operator and, behind a toggle, context for this request only', () => {
    const markup = render(<NewTaskForm onStarted={noop} onCancel={noop} />);
    expect(text(markup)).toContain('New task Task');
    expect(markup).toContain('<option value="default" selected="">As configured</option>');
    expect(text(markup)).toContain('Attach context to this request Sent once with this task, never stored');
    expect(markup).toContain('name="with-context"');
    expect(markup).not.toContain('name="context"');
    expect(markup).toMatch(/<button type="submit" class="button button-primary" disabled="">Start<\/button>/);
    expect(text(render(<NewTaskForm sessionId="ses_00000000000a" onStarted={noop} onCancel={noop} />))).toContain('Continue the session');
  });

  it('offers pictures for the task: a picker of the accepted types, and the hint that paste and drop work too', () => {
    const markup = render(<NewTaskForm onStarted={noop} onCancel={noop} />);
    expect(text(markup)).toContain('Add pictures or paste or drop them here: PNG, JPEG, WebP or GIF, up to 4, 8 MB each');
    expect(markup).toContain('type="file" accept="image/png,image/jpeg,image/webp,image/gif" multiple=""');
    // No thumbnails before any picture is added.
    expect(markup).not.toContain('picture-thumbnails');
  });

  it('opens the viewer on the step, loading the full-size image, and zooms in steps', () => {
    const markup = render(<ImageViewer step={step()} screenshot={step().screenshot!} cropBoxes={[]} onClose={noop} />);
    expect(text(markup)).toContain(`${IMAGE} active 1280×800`);
    expect(text(markup)).toContain('Loading the full-size image…');
    expect(text(markup)).toContain('Step 3 Click (120, 190) Thought Opening the Team page.');
    expect(stepZoom('fit', 1)).toBe(1.5);
    expect(stepZoom(1, -1)).toBe(0.75);
    expect(stepZoom(4, 1)).toBe(4);
    expect(stepZoom(0.25, -1)).toBe(0.25);
  });
});

describe('flows in the timeline (issue 25)', () => {
  const frame: ImageSummary = { imageId: IMAGE, zone: 'offloaded', caption: 'Team page', width: 1280, height: 800, isErrorFrame: false, pinned: false };
  const flowTurn = (stepKind: Turn['stepKind'], answer: TurnAnswerView | null, overrides: Partial<Turn> = {}): Turn =>
    ({
      id: TURN,
      sequence: 2,
      request: 'The member list shows five people',
      status: 'finished',
      startedAt: '2025-01-01T10:00:00.000Z',
      endedAt: '2025-01-01T10:00:04.000Z',
      compactedAt: null,
      summary: answer?.reason ?? null,
      stepCount: 1,
      tokens: { input: 0, output: 0, cachedInput: 0, cacheWriteInput: 0 },
      cost: { dollars: null, unpricedTokens: 0 },
      pictures: [],
      stepKind,
      answer,
      ...overrides,
    }) as Turn;
  const verdict = (value: boolean, reason = 'Five member rows are listed.'): TurnAnswerView => ({
    kind: 'verdict',
    value,
    reason,
    evidence: [
      { imageId: IMAGE, image: frame },
      { imageId: 'img_0000000000ff', image: null },
    ],
  });
  const card = (turn: Turn) => render(<AnswerCard turn={turn} answer={turn.answer!} onOpenEvidence={noop} onShowValue={noop} />);

  it("marks a flow step's kind on its turn card, and leaves the reason to the answer row", () => {
    const kinds = (['do', 'assert', 'extract', 'if', 'wait_for'] as const).map((kind) => text(render(<TurnCard turn={flowTurn(kind, null)} injections={[]} />)));
    expect(kinds.map((shown) => shown.split(' ').slice(0, 3).join(' '))).toEqual(['Turn 2 do', 'Turn 2 assert', 'Turn 2 extract', 'Turn 2 if', 'Turn 2 wait']);
    expect(kinds[4]).toContain('Turn 2 wait for Finished');
    const answered = render(<TurnCard turn={flowTurn('assert', verdict(true))} injections={[]} />);
    expect(answered).toContain('class="step-kind step-kind-assert"');
    expect(answered).not.toContain('turn-summary');
    // A plain request has no kind.
    expect(render(<TurnCard turn={flowTurn(null, null, { summary: 'Done.' })} injections={[]} />)).not.toContain('step-kind');
  });

  it('says an assertion passed or failed in words beside its colour, with the reason and the evidence as buttons', () => {
    const passed = card(flowTurn('assert', verdict(true)));
    expect(text(passed)).toContain('Assertion ✓ Passed Reason Five member rows are listed. Evidence');
    expect(passed).toContain('class="verdict-pill verdict-pass"');
    expect(passed).toContain('<span aria-hidden="true">✓</span>');
    expect(passed).toMatch(new RegExp(`<button type="button" class="evidence-link" data-image-id="${IMAGE}" title="Open ${IMAGE} in the viewer">${IMAGE}</button>`));
    // An id the session has no image of is shown, not offered.
    expect(text(passed)).toContain('img_0000000000ff (not found)');
    expect(passed).not.toContain('data-image-id="img_0000000000ff"');

    const failed = card(flowTurn('assert', verdict(false)));
    expect(text(failed)).toContain('Assertion ✗ Failed');
    expect(failed).toContain('class="verdict-pill verdict-fail"');
    expect(failed).toContain('class="answer-card answer-fail"');
  });

  it("words an if's verdict, a wait's result, and an answer without a step kind", () => {
    expect(text(card(flowTurn('if', verdict(false))))).toContain('Condition ✗ False');
    expect(card(flowTurn('if', verdict(true)))).toContain('verdict-neutral');
    const met: TurnAnswerView = { kind: 'until', value: true, reason: 'The field is shown.', evidence: [] };
    expect(text(card(flowTurn('wait_for', met)))).toContain('Wait ✓ Met Reason The field is shown. Evidence none named');
    expect(text(card(flowTurn('wait_for', { ...met, value: false })))).toContain('Wait ✗ Not met');
    expect(text(card(flowTurn(null, verdict(true))))).toContain('Verdict ✓ Passed');
  });

  it('shows an extracted value as indented JSON text, scrollable, with the whole behind Show all when long', () => {
    const value = { owner: 'Dana', members: ['Dana', 'Sam'], badge: '<b onmouseover=alert(2)>Owner</b>' };
    const markup = card(flowTurn('extract', { kind: 'value', value, reason: 'Read from the list.', evidence: [{ imageId: IMAGE, image: frame }] }));
    expect(text(markup)).toContain('Extracted value Reason Read from the list.');
    expect(markup).toContain('<pre class="answer-value" tabindex="0" aria-label="Extracted value as JSON">{\n  &quot;owner&quot;: &quot;Dana&quot;,\n  &quot;members&quot;: [');
    expect(markup).toContain('&lt;b onmouseover=alert(2)&gt;Owner&lt;/b&gt;');
    expect(markup).not.toContain('<b ');
    expect(markup).toContain('>Show all</button>');
    expect(markup).not.toContain('verdict-pill');
    // A value that fits its lines needs no dialog.
    expect(card(flowTurn('extract', { kind: 'value', value: 42, reason: 'Counted.', evidence: [] }))).not.toContain('Show all');
  });

  it('renders a hostile reason as text, never as markup', () => {
    const markup = card(flowTurn('assert', verdict(false, '</script><img src=x onerror=alert(1)>')));
    expect(markup).toContain('&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;');
    expect(markup).not.toMatch(/<img|<\/script>/);
  });

  it('marks a flow session in the list with its flow name, and only a flow session', () => {
    const base = { id: 'ses_00000000000a', title: 'Flow team-smoke', status: 'idle', operator: 'browser', model: null, createdAt: '2025-01-01T10:00:00.000Z', updatedAt: '2025-01-01T10:00:00.000Z', turnCount: 6, stepCount: 7, tokens: { input: 0, output: 0, cachedInput: 0, cacheWriteInput: 0, sent: null, keepEverything: null }, cost: { dollars: null, unpricedTokens: 0 }, run: null } as const;
    const list = (flowName: string | null): Sessions => ({ status: 'ready', sessions: [{ ...base, flowName }], total: 1, error: null, query: '', setQuery: noop, refresh: noop, remove: async () => {} });
    const markup = render(<SessionList sessions={list('team-smoke')} selectedId={null} onSelect={noop} onDeleted={noop} connected />);
    expect(text(markup)).toContain('flow team-smoke 6 turns · 7 steps');
    expect(markup).toContain('<span class="flow-badge">flow</span><span class="flow-name">team-smoke</span>');
    expect(render(<SessionList sessions={list(null)} selectedId={null} onSelect={noop} onDeleted={noop} connected />)).not.toContain('flow-badge');
  });

  it('opens an evidence frame in the viewer without a step, saying which answer named it', () => {
    const markup = render(<ImageViewer step={null} screenshot={frame} evidence={{ turnSequence: 2, heading: 'Assertion', reason: 'Five rows.' }} cropBoxes={[]} onClose={noop} />);
    expect(text(markup)).toContain(`${IMAGE} cold 1280×800`);
    expect(text(markup)).toContain('Loading the full-size image…');
    expect(text(markup)).toContain('Evidence of turn 2 Assertion Five rows.');
    expect(markup).toContain('aria-label="Frame details"');
    expect(markup).not.toContain('Thought');
  });
});

describe('the API keys dialog', () => {
  const saveNothing = () => Promise.resolve(false);
  const keys = (overrides: Partial<KeyStatus> = {}): KeyStatus => ({
    model: { set: true, source: 'saved' },
    anthropic: { set: false, source: null },
    tavily: { set: true, source: 'environment' },
    canSave: true,
    ...overrides,
  });

  it('shows where each key comes from and a password field to save a new one in the desktop app', () => {
    const markup = render(<ApiKeysView loaded={{ status: 'ready', keys: keys() }} saving={{ status: 'idle' }} inBrowser={false} onSave={saveNothing} onClose={noop} />);
    expect(text(markup)).toContain('API keys Model provider Saved in Sightline Anthropic (Claude) Not set Tavily (web search) Set in the environment');
    expect(markup).toMatch(/<input class="text-input" type="password" [^>]*name="api-key" value=""/);
    expect(markup).toMatch(/<button type="submit" class="button button-primary" disabled="">Save key<\/button>/);
    expect(markup).not.toContain('form-warning');
    expect(markup).not.toContain('style=');
  });

  it('warns when the system stores keys as good as plain text', () => {
    const warning = 'No keyring was found: saved keys are as good as plain text.';
    const markup = render(<ApiKeysView loaded={{ status: 'ready', keys: keys({ warning }) }} saving={{ status: 'idle' }} inBrowser={false} onSave={saveNothing} onClose={noop} />);
    expect(markup).toContain(`<p class="form-warning" role="note">${warning}</p>`);
  });

  it('in the browser timeline, says keys are saved in the desktop app and offers no field', () => {
    const unset = { set: false, source: null };
    const markup = render(
      <ApiKeysView loaded={{ status: 'ready', keys: keys({ model: unset, anthropic: unset, tavily: unset, canSave: false }) }} saving={{ status: 'idle' }} inBrowser onSave={saveNothing} onClose={noop} />,
    );
    expect(text(markup)).toContain('Model provider Not set Anthropic (Claude) Not set Tavily (web search) Not set');
    expect(text(markup)).toContain('Keys are saved in the Sightline desktop app');
    expect(markup).not.toContain('type="password"');
  });

  it("shows Anthropic's key on a row of its own, offers it to save, and names ANTHROPIC_API_KEY in the browser", () => {
    const markup = render(
      <ApiKeysView loaded={{ status: 'ready', keys: keys({ anthropic: { set: true, source: 'config' } }) }} saving={{ status: 'idle' }} inBrowser={false} onSave={saveNothing} onClose={noop} />,
    );
    expect(text(markup)).toContain('Anthropic (Claude) Set in config.json');
    expect(markup).toMatch(/<button type="button" role="radio" aria-checked="false" class="">Anthropic \(Claude\)<\/button>/);
    const saved = render(<ApiKeysView loaded={{ status: 'ready', keys: keys() }} saving={{ status: 'saved', kind: 'anthropic' }} inBrowser={false} onSave={saveNothing} onClose={noop} />);
    expect(text(saved)).toContain('Anthropic (Claude) key saved; the next run uses it.');
    const inBrowser = render(<ApiKeysView loaded={{ status: 'ready', keys: keys({ canSave: false }) }} saving={{ status: 'idle' }} inBrowser onSave={saveNothing} onClose={noop} />);
    expect(text(inBrowser)).toContain('OPENAI_API_KEY / ANTHROPIC_API_KEY / TAVILY_API_KEY');
  });

  it('reports a saved key with its warning, a failure, and loads the status when opened', () => {
    const saved = render(
      <ApiKeysView loaded={{ status: 'ready', keys: keys() }} saving={{ status: 'saved', kind: 'tavily', warning: 'config.json takes precedence' }} inBrowser={false} onSave={saveNothing} onClose={noop} />,
    );
    expect(text(saved)).toContain('Tavily (web search) key saved; the next run uses it. config.json takes precedence');
    const failed = render(<ApiKeysView loaded={{ status: 'ready', keys: keys() }} saving={{ status: 'failed', message: 'could not save' }} inBrowser={false} onSave={saveNothing} onClose={noop} />);
    expect(failed).toContain('<p class="form-failure" role="alert">could not save</p>');
    expect(text(render(<ApiKeysDialog onClose={noop} />))).toContain('API keys Loading…');
  });
});
