/**
 * What a flow's `wait_for` (the SDK's `agent.waitFor`) costs in model calls, against asking the model once a
 * second, on the same page in the same run. waitFor watches the screen and asks the model again only when the
 * screen has changed by the dedup rule since it last answered (answer-tool.ts awaitChange,
 * ScreenRecorder.waitForChange); the baseline is a loop of `agent.check(condition)` with a 1 s pause after each
 * false answer, through the same SDK, on the same page.
 *
 * Pages (bench/support/wait-pages.ts), in headless Chromium driven through Sightline.attach: a banner that turns to
 * "Order placed" once, ONCE_SHORT_MS and ONCE_LONG_MS after the wait starts, and the same banner (changing after
 * CLOCK_CHANGE_MS) beside a counter that ticks every second. The model is the fake OpenAI server; it says true
 * when the banner in the screenshot it was sent is green, so it judges what it was shown, not the time.
 */
import { availableParallelism, loadavg } from 'node:os';
import { chromium, type Browser, type Page } from 'playwright-core';
import { Sightline, type SightlineAgent } from '../src/main/automation/index.js';
import { findBrowserExecutable } from '../src/main/operators/browser-executable.js';
import { BROWSER_LAUNCH_ARGUMENTS } from '../src/main/operators/browser-launch-arguments.js';
import { DEFAULT_UNTIL_POLL_MS } from '../src/main/agent/tools/answer-tool.js';
import { createTemporaryHome, type TemporaryHome } from '../test/helpers/seed.js';
import { markdownTable, median, thousands, type BenchSection } from './harness.js';
import { CONDITION, serveWaitPages, startJudgingModel, VIEWPORT, type JudgingModel, type ModelCall, type WaitPageKind, type WaitPages } from './support/wait-pages.js';

const ONCE_SHORT_MS = 10_000;
const ONCE_LONG_MS = 20_000;
const CLOCK_CHANGE_MS = 10_000;
const BASELINE_PAUSE_MS = 1000;
/** How long past the change either way of waiting may take before the row is reported as not noticed. */
const GRACE_MS = 20_000;
const MODEL = 'gpt-4.1';
/** The issue's claim: a page that changes once costs about two calls (one before the change, one after). */
const ONCE_CALLS_AIM = 3;

/** On the ticking page, waitFor once more with the screen looked at this seldom: the one knob a script has there. */
const SLOW_POLL_MS = 2000;

/** waitFor, with its own pollMs or the default; or the baseline, check() with a pause. */
type Way = { kind: 'waitFor'; pollMs?: number } | { kind: 'poll' };

interface PagePlan {
  label: string;
  kind: WaitPageKind;
  changeAfterMs: number;
  ways: readonly Way[];
}

const PLANS: readonly PagePlan[] = [
  { label: `changes once after ${ONCE_SHORT_MS / 1000} s`, kind: 'once', changeAfterMs: ONCE_SHORT_MS, ways: [{ kind: 'waitFor' }, { kind: 'poll' }] },
  { label: `changes once after ${ONCE_LONG_MS / 1000} s`, kind: 'once', changeAfterMs: ONCE_LONG_MS, ways: [{ kind: 'waitFor' }, { kind: 'poll' }] },
  {
    label: `counter ticking every 1 s; banner changes after ${CLOCK_CHANGE_MS / 1000} s`,
    kind: 'clock',
    changeAfterMs: CLOCK_CHANGE_MS,
    ways: [{ kind: 'waitFor' }, { kind: 'waitFor', pollMs: SLOW_POLL_MS }, { kind: 'poll' }],
  },
];

interface WaitRun {
  plan: PagePlan;
  way: Way;
  calls: ModelCall[];
  /** From the start of the wait until it returned. */
  waitedMs: number;
  /** From the change on the page until the wait returned; undefined when it was not noticed. */
  noticedAfterMs: number | undefined;
  /** True verdicts given about a screen from before the change: must be 0, or the fake judged wrongly. */
  earlyTrue: number;
  error: string | undefined;
}

async function oneWait(browser: Browser, pages: WaitPages, model: JudgingModel, home: TemporaryHome, plan: PagePlan, way: Way): Promise<WaitRun> {
  const page: Page = await browser.newPage({ viewport: VIEWPORT });
  let agent: SightlineAgent | undefined;
  try {
    await page.goto(pages.urlOf(plan.kind));
    agent = await Sightline.attach(page, { home: home.root, env: {}, baseUrl: model.baseUrl, model: MODEL });
    const callsBefore = model.calls.length;
    const timeoutMs = plan.changeAfterMs + GRACE_MS;
    await page.evaluate(`window.startChange(${plan.changeAfterMs})`);
    const started = Date.now();
    let error: string | undefined;
    try {
      if (way.kind === 'waitFor') await agent.waitFor(CONDITION, { timeout: timeoutMs, ...(way.pollMs === undefined ? {} : { pollMs: way.pollMs }) });
      else await pollEverySecond(agent, started + timeoutMs);
    } catch (caught) {
      error = caught instanceof Error ? caught.message : String(caught);
    }
    const ended = Date.now();
    const changedAt = await page.evaluate<number | null>('window.changedAt');
    const calls = model.calls.slice(callsBefore);
    return {
      plan,
      way,
      calls,
      waitedMs: ended - started,
      noticedAfterMs: error === undefined && changedAt !== null ? ended - changedAt : undefined,
      earlyTrue: calls.filter((call) => call.verdict && (changedAt === null || call.at < changedAt)).length,
      error,
    };
  } finally {
    await agent?.close();
    await page.close();
  }
}

/** The baseline: ask the model whether the condition holds, pause a second after each "no", until "yes". */
async function pollEverySecond(agent: SightlineAgent, deadline: number): Promise<void> {
  for (;;) {
    if (await agent.check(CONDITION)) return;
    if (Date.now() + BASELINE_PAUSE_MS > deadline) throw new Error(`the condition was not met by the deadline`);
    await new Promise((resolve) => setTimeout(resolve, BASELINE_PAUSE_MS));
  }
}

const seconds = (milliseconds: number): string => (milliseconds / 1000).toFixed(1);
const sum = (calls: readonly ModelCall[], field: 'inputTokens' | 'images' | 'bytes'): number => calls.reduce((total, call) => total + call[field], 0);
const ratio = (value: number, reference: number): string => (reference === 0 ? '—' : `${(value / reference).toFixed(2)}×`);
const isDefaultWaitFor = (run: WaitRun): boolean => run.way.kind === 'waitFor' && run.way.pollMs === undefined;

function wayLabel(way: Way): string {
  if (way.kind === 'poll') return `baseline: check(), ${BASELINE_PAUSE_MS / 1000} s pause after each "no"`;
  return way.pollMs === undefined ? `Sightline waitFor (pollMs ${DEFAULT_UNTIL_POLL_MS}, the default)` : `Sightline waitFor, pollMs ${way.pollMs}`;
}

/** The median time between the starts of two model calls: for the poll, its period. */
function medianGapMs(calls: readonly ModelCall[]): number | undefined {
  const gaps = calls.slice(1).map((call, index) => call.at - calls[index]!.at);
  return gaps.length === 0 ? undefined : median(gaps);
}

function report(runs: readonly WaitRun[], notes: readonly string[]): string {
  const baselineOf = (run: WaitRun) => runs.find((other) => other.plan === run.plan && other.way.kind === 'poll');
  const table = markdownTable(
    ['page', 'way of waiting', 'model calls', 'vs baseline', 's from the change to the answer', 's between calls (median)', 'whole wait, s', 'input tokens (est.)', 'vs baseline', 'images sent', 'request MB'],
    runs.map((run) => {
      const baseline = baselineOf(run);
      const isBaseline = run.way.kind === 'poll';
      const gap = medianGapMs(run.calls);
      return [
        run.plan.label,
        wayLabel(run.way),
        String(run.calls.length),
        isBaseline || baseline === undefined ? '1.00× (baseline)' : ratio(run.calls.length, baseline.calls.length),
        // The error's first sentence: the rest points at the session, which this section deletes.
        run.noticedAfterMs === undefined ? `not noticed: ${(run.error ?? 'the page did not change').split('. ')[0]}` : seconds(run.noticedAfterMs),
        gap === undefined ? '—' : seconds(gap),
        seconds(run.waitedMs),
        thousands(sum(run.calls, 'inputTokens')),
        isBaseline || baseline === undefined ? '1.00× (baseline)' : ratio(sum(run.calls, 'inputTokens'), sum(baseline.calls, 'inputTokens')),
        String(sum(run.calls, 'images')),
        (sum(run.calls, 'bytes') / 1e6).toFixed(1),
      ];
    }),
  );
  const aims: string[] = [];
  for (const run of runs.filter((candidate) => isDefaultWaitFor(candidate) && candidate.plan.kind === 'once')) {
    const baseline = baselineOf(run);
    const pass = run.error === undefined && run.calls.length <= ONCE_CALLS_AIM;
    aims.push(
      `- ${pass ? 'PASS' : 'FAIL'}: page that ${run.plan.label}: waitFor made ${run.calls.length} model calls (aim: at most ${ONCE_CALLS_AIM}); ` +
        `the poll made ${baseline?.calls.length ?? '?'}, ${baseline === undefined ? '?' : ratio(baseline.calls.length, run.calls.length)} as many` +
        (run.error === undefined ? '' : `; the wait failed: ${run.error}`),
    );
  }
  const unnoticed = runs.filter((run) => run.noticedAfterMs === undefined);
  aims.push(`- ${unnoticed.length === 0 ? 'PASS' : 'FAIL'}: every wait, Sightline's and the poll's, ended with the change seen (${runs.length - unnoticed.length}/${runs.length}).`);
  const early = runs.reduce((total, run) => total + run.earlyTrue, 0);
  aims.push(`- ${early === 0 ? 'PASS' : 'FAIL'}: no "true" was given about a screen from before the change (${early} such answers): the fake model judged what it was shown.`);
  return [
    table,
    '',
    `One wait per row (no medians: each wait lasts ${ONCE_SHORT_MS / 1000} to ${ONCE_LONG_MS / 1000} s), in this order, each on a fresh page load and a fresh SDK session ` +
      `(Sightline.attach on headless Chromium at ${VIEWPORT.width}x${VIEWPORT.height}), condition ${JSON.stringify(CONDITION)}, model ${MODEL} served by the fake OpenAI server, ` +
      'which says true only when the banner in the screenshot it was sent is green. The page times its change from when the wait starts; ' +
      '"from the change to the answer" runs from the change on the page until waitFor (or the poll\'s check) returned true, so it holds the last call. ' +
      'That delay depends on where the change falls between two looks (the poll\'s period, waitFor\'s pollMs), so one row is one draw of it. ' +
      'Input tokens are estimated from what each request carried (text at about four characters a token, each image by the model profile\'s formula); ' +
      'images and MB count every image and byte of every request, the earlier screens each request carries included. ' +
      'The fake model answers at once: a real model\'s seconds per call add one call\'s time to every wait, and stretch the poll\'s period to the pause plus a call, ' +
      'so with a real model the poll makes fewer calls than here and notices later; waitFor\'s count on a still page does not move.',
    ...clockNote(runs),
    ...notes,
    '',
    'Aims:',
    ...aims,
  ].join('\n');
}

function clockNote(runs: readonly WaitRun[]): string[] {
  const clock = runs.filter((run) => run.plan.kind === 'clock');
  const usual = clock.find(isDefaultWaitFor);
  const slow = clock.find((run) => run.way.kind === 'waitFor' && run.way.pollMs !== undefined);
  const poll = clock.find((run) => run.way.kind === 'poll');
  if (usual === undefined || slow === undefined || poll === undefined) return [];
  return [
    '',
    'On the ticking page the condition is about the banner, not the counter, but the dedup rule looks at the whole screen: every tick is a change, ' +
      `so waitFor asks the model again after each tick it sees: ${usual.calls.length} calls against the poll's ${poll.calls.length} (${ratio(usual.calls.length, poll.calls.length)}), ` +
      `and ${ratio(sum(usual.calls, 'inputTokens'), sum(poll.calls, 'inputTokens'))} the poll's input tokens: a wait is one turn, so each of its requests carries the turn's ` +
      `earlier changed screens too (${sum(usual.calls, 'images')} images over its calls, against the poll's ${sum(poll.calls, 'images')}, whose each new turn carries only the screen now and the last turn's anchor). ` +
      `Looking every ${SLOW_POLL_MS / 1000} s instead (pollMs ${SLOW_POLL_MS}) made ${slow.calls.length} calls and noticed the change after ` +
      `${slow.noticedAfterMs === undefined ? 'never' : `${seconds(slow.noticedAfterMs)} s`}. On a screen that changes every second, waitFor costs about what asking every second costs; ` +
      'its saving is on screens that stay still while they wait.',
  ];
}

async function run(): Promise<string> {
  const notes: string[] = [];
  let executablePath: string;
  try {
    executablePath = findBrowserExecutable({ env: process.env, platform: process.platform });
  } catch {
    return 'Skipped: no Chromium or Chrome found (set SIGHTLINE_BROWSER_PATH).';
  }
  const loadBefore = loadavg()[0]!;
  const pages = await serveWaitPages();
  const model = await startJudgingModel();
  const home = createTemporaryHome('sightline-bench-flows');
  const browser = await chromium.launch({ executablePath, args: [...BROWSER_LAUNCH_ARGUMENTS, '--no-sandbox'] });
  const runs: WaitRun[] = [];
  try {
    for (const plan of PLANS) {
      for (const way of plan.ways) runs.push(await oneWait(browser, pages, model, home, plan, way));
    }
  } finally {
    await browser.close();
    await model.close();
    await pages.close();
    home.remove();
  }
  notes.push(`Load average (1 min) at the start and the end of this section: ${loadBefore.toFixed(1)} and ${loadavg()[0]!.toFixed(1)}, on ${availableParallelism()} cores.`);
  return report(runs, notes);
}

export const section: BenchSection = {
  name: 'flows',
  title: 'wait_for: model calls while waiting, against asking the model every second (same page, same run)',
  run,
};
