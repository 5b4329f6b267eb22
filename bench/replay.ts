/**
 * Replay (`npm run bench -- replay`), in one run on the same local shop page (test/helpers/replay-page.ts), in a
 * headless Chromium through the SDK, with the fake OpenAI server as a scripted model:
 *
 * - Record: a two-step flow ("Add apples", "Type the name") run by the scripted model.
 * - Replay: the flow replayed on the same page: model calls for its do steps (aim 0), and wall time against a plain
 *   Playwright script making the same clicks and typing (aim ≤ 1.5×; the per-step overhead shows here: the replay
 *   waits for the screen to settle and compares it with the recording before and after each action).
 * - Changed pages: replayed on a page with a banner that moves everything down, with the rows' labels swapped, with
 *   a cookie popup, and with a ticking clock. The scripted model heals with the right moves for the page it is shown.
 *   For each: wrong actions (what the page saw added or typed that the task did not ask for; aim 0), model calls
 *   (only for the steps that changed), and the steps that diverged (on the clock page each is a false divergence;
 *   aim 0).
 * - Desktop: a one-step flow recorded and replayed by `sightline flow` (a child process) on a private Xvfb, on a real
 *   Chromium window: model calls and the step's time from --out, and the click seen in the window's title.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { Sightline, type StepRecord } from '../src/main/automation/index.js';
import { BROWSER_LAUNCH_ARGUMENTS } from '../src/main/operators/browser-launch-arguments.js';
import { BrowserOperator } from '../src/main/operators/browser-operator.js';
import { findBrowserExecutable } from '../src/main/operators/browser-executable.js';
import { startFakeOpenAiServer, type FakeOpenAiServer, type FakeReply, type RecordedRequest } from '../test/helpers/fake-openai-server.js';
import { BANNER_HEIGHT, FIRST_ADD, NAME_INPUT, POPUP_ACCEPT, startReplayPage, type ReplayPageServer, type ReplayVariant } from '../test/helpers/replay-page.js';
import { scriptedMoves, type ScriptedMove } from '../test/helpers/scripted-computer-model.js';
import { boxOfColour, canOpenDesktopTestWindow, openDesktopTestWindow } from '../test/helpers/desktop-test-window.js';
import { decodeImageFile } from '../src/main/perception/image-encoding.js';
import { waitFor } from '../test/helpers/wait-for.js';
import { startXvfb } from '../test/helpers/xvfb.js';
import { REPO_ROOT } from '../test/e2e/support/sightline-process.js';
import { formatMs, markdownTable, median, type BenchSection } from './harness.js';

const ADD = 'Add apples to the cart';
const TYPE = 'Type Ada into the name field';
const RUNS = 7;
/** The recorded actions of the two steps: a click; a click and typing. */
const ACTIONS = 3;

/** The moves that do each step on each page, as a model shown that page would make them. */
function movesFor(variant: ReplayVariant, task: string, healing: boolean): ScriptedMove[] {
  const down = variant === 'banner' ? BANNER_HEIGHT : 0;
  if (task === ADD) {
    const add = { action: { action: 'click' as const, x: FIRST_ADD.x, y: FIRST_ADD.y + down + (variant === 'swapped' ? 70 : 0) } };
    return [...(variant === 'popup' && healing ? [{ action: { action: 'click' as const, ...POPUP_ACCEPT } }] : []), add, { finish: 'Added apples.' }];
  }
  return [{ action: { action: 'click', x: NAME_INPUT.x, y: NAME_INPUT.y + down } }, { action: { action: 'type', text: 'Ada' } }, { finish: 'Typed the name.' }];
}

/** What the scripted model is shown: which page, whether it heals, and which run (each run is a new session). */
interface ModelState {
  variant: ReplayVariant;
  healing: boolean;
  run: number;
  /** Another task's moves (the desktop flow's), answered instead when the request names it. */
  other?: { task: string; moves: ScriptedMove[] };
}

/** A model that answers each step's turn with that step's moves for the page being shown. */
function pageAwareModel(model: FakeOpenAiServer, state: ModelState): void {
  const queues = new Map<string, Array<(request: RecordedRequest) => FakeReply>>();
  const reply = (request: RecordedRequest): FakeReply => {
    const text = request.rawBody;
    const other = state.other !== undefined && text.includes(state.other.task) ? state.other : undefined;
    const task = other?.task ?? (text.lastIndexOf(TYPE) > text.lastIndexOf(ADD) ? TYPE : ADD);
    // A turn's requests all name its task the same number of times; the next turn of the session names it more.
    const key = `${state.run}|${task}|${text.split(task).length}`;
    if (!queues.has(key)) queues.set(key, scriptedMoves(other?.moves ?? movesFor(state.variant, task, state.healing)));
    const next = queues.get(key)!.shift();
    return next === undefined ? { type: 'error', status: 400, message: 'the scripted model has no more moves for this step' } : next(request);
  };
  model.script(Array.from({ length: 1000 }, () => reply));
}

interface Run {
  ms: number;
  steps: StepRecord[];
  calls: number;
  added: string[];
  typed: string | undefined;
}

async function runFlow(browser: Browser, shop: ReplayPageServer, model: FakeOpenAiServer, home: string, state: ModelState, variant: ReplayVariant, replay: boolean): Promise<Run> {
  state.variant = variant;
  state.healing = replay;
  state.run += 1;
  shop.setVariant(variant);
  shop.reports.length = 0;
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(shop.url);
  const calls = model.requests.length;
  const agent = await Sightline.attach(page, { home, env: {}, baseUrl: model.baseUrl, model: 'gpt-4.1', flowName: 'Bench shop', replay });
  // The steps only: attaching (opening the database) is paid once per automation, like launching Playwright's page.
  const started = performance.now();
  try {
    await agent.do(ADD);
    await agent.do(TYPE);
    const ms = performance.now() - started;
    return {
      ms,
      steps: [...agent.steps],
      calls: model.requests.length - calls,
      added: shop.reports.filter((report) => report.kind === 'added').map((report) => report.value),
      typed: shop.reports.filter((report) => report.kind === 'name').at(-1)?.value,
    };
  } finally {
    await agent.close();
    await page.close();
  }
}

/**
 * The same clicks and typing as a plain Playwright script; with `screenshots`, one after each action (the two
 * clicks and the typing), as a script that keeps evidence of each does: the replay's fair comparison, since it
 * too looks at the screen after each action.
 */
async function playwrightRun(browser: Browser, shop: ReplayPageServer, screenshots: boolean): Promise<number> {
  shop.setVariant('same');
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(shop.url);
  const evidence = async () => {
    if (screenshots) await page.screenshot({ type: 'png' });
  };
  const started = performance.now();
  await page.mouse.click(FIRST_ADD.x, FIRST_ADD.y);
  await evidence();
  await page.mouse.click(NAME_INPUT.x, NAME_INPUT.y);
  await evidence();
  await page.keyboard.type('Ada');
  await evidence();
  const ms = performance.now() - started;
  await page.close();
  return ms;
}

/** Counts the frames the operator captures (every capture of a settle watch included) while `work` runs. */
async function countingCaptures<T>(work: () => Promise<T>): Promise<{ value: T; captures: number }> {
  const prototype = BrowserOperator.prototype;
  const original = prototype.capture;
  let captures = 0;
  prototype.capture = function (this: BrowserOperator) {
    captures += 1;
    return original.call(this);
  };
  try {
    return { value: await work(), captures };
  } finally {
    prototype.capture = original;
  }
}

/** One desktop flow recorded and replayed by the CLI on a private Xvfb: the row of the table, or why it was skipped. */
async function desktopRow(model: FakeOpenAiServer, state: ModelState): Promise<string[]> {
  if (!canOpenDesktopTestWindow) return ['replay, desktop (Xvfb)', '–', '–', 'skipped: no browser for the test window', '–', '–'];
  const screen = { width: 1280, height: 800 };
  const xvfb = await startXvfb(screen);
  const folder = mkdtempSync(join(tmpdir(), 'sightline-bench-desktop-replay-'));
  const window = openDesktopTestWindow({ xvfb, screen, titlePrefix: 'sightline-bench-replay', fieldTop: 420 });
  try {
    const poll = { timeoutMs: 30_000, intervalMs: 200 };
    await waitFor(() => window.title().startsWith('sightline-bench-replay'), { description: 'the Chromium window', ...poll });
    const button = await waitFor(async () => {
      const file = join(folder, `screen-${Date.now()}.png`);
      const child = spawnSync(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'test/e2e/support/capture-desktop-frame.ts'), file, '700', '280'], { cwd: REPO_ROOT, env: xvfb.env, encoding: 'utf8', timeout: 30_000 });
      if (child.status !== 0) return undefined;
      const box = boxOfColour(await decodeImageFile(file), [255, 0, 0]);
      return box !== undefined && box.width > 100 ? box : undefined;
    }, { description: 'the red button', ...poll });
    const flow = join(folder, 'press.flow.yaml');
    writeFileSync(flow, 'name: Press\ntarget: { operator: desktop }\nsteps:\n  - do: Press the red button\n');
    state.run += 1;
    state.other = { task: 'Press the red button', moves: [{ action: { action: 'click', x: Math.round(button.x + button.width / 2), y: Math.round(button.y + button.height / 2) } }, { finish: 'Pressed it.' }] };
    const run = async (extra: readonly string[]) => {
      const out = join(folder, `out-${Date.now()}.json`);
      const calls = model.requests.length;
      const exit = await runSightlineProcess(['--home', join(folder, 'home'), 'flow', flow, '--base-url', model.baseUrl, '--out', out, ...extra], { DISPLAY: xvfb.display });
      if (exit.code !== 0) throw new Error(`the desktop flow failed (${exit.code}): ${exit.stderr.slice(-1000)}`);
      const report = JSON.parse(readFileSync(out, 'utf8')) as { flows: Array<{ steps: Array<{ durationMs: number; replay?: { mode: string } }> }> };
      return { calls: model.requests.length - calls, step: report.flows[0]!.steps[0]! };
    };
    await run([]);
    const replayed = await run(['--replay']);
    // The recorded click and the replayed one, and no other: the title counts them.
    const twice = await waitFor(() => window.title().includes('clicks=2'), { description: 'the replayed click', ...poll }).then(() => true, () => false);
    const wrong = twice ? 0 : 1;
    return ['replay, desktop (Xvfb, one click)', String(replayed.calls), String(wrong), replayed.step.replay?.mode === 'replayed' ? '0' : `1 (${replayed.step.replay?.mode})`, formatMs(replayed.step.durationMs), '–'];
  } finally {
    await window.close();
    await xvfb.stop();
    rmSync(folder, { recursive: true, force: true });
  }
}

/**
 * `sightline <args>` from the sources (the test helpers spawn the bundle vitest's global setup builds, which a
 * bench has not), with the model settings of this environment left out like the tests leave them.
 */
function runSightlineProcess(args: readonly string[], env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(OPENAI_|ANTHROPIC_|SIGHTLINE_|GEMINI_|GOOGLE_)/.test(name)));
  const child = spawn(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'src/main/cli/main.ts'), ...args], { cwd: REPO_ROOT, env: { ...inherited, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stderr }));
  });
}

function wrongActions(run: Run): number {
  return run.added.filter((item) => item !== 'Apples').length + Math.max(0, run.added.length - 1) + (run.typed === 'Ada' ? 0 : 1);
}

export const section: BenchSection = {
  name: 'replay',
  title: 'Replay: a recorded flow without the model, healed where the page changed',
  async run() {
    const shop = await startReplayPage();
    const model = await startFakeOpenAiServer();
    const home = mkdtempSync(join(tmpdir(), 'sightline-bench-replay-'));
    const browser = await chromium.launch({ executablePath: findBrowserExecutable({ env: process.env, platform: process.platform }), args: [...BROWSER_LAUNCH_ARGUMENTS, '--no-sandbox'] });
    const state: ModelState = { variant: 'same', healing: false, run: 0 };
    pageAwareModel(model, state);
    try {
      const record = await runFlow(browser, shop, model, home, state, 'same', false);
      const replays: Run[] = [];
      const captures: number[] = [];
      const shots: number[] = [];
      const plain: number[] = [];
      // Interleaved rounds, each in another order: a machine others load slows all three alike, and the ratios
      // are taken within a round before their median.
      const kinds = ['replay', 'screenshots', 'plain'] as const;
      for (let index = 0; index < RUNS; index++) {
        for (let turn = 0; turn < kinds.length; turn++) {
          const kind = kinds[(index + turn) % kinds.length]!;
          if (kind === 'replay') {
            const counted = await countingCaptures(() => runFlow(browser, shop, model, home, state, 'same', true));
            replays.push(counted.value);
            captures.push(counted.captures);
          } else if (kind === 'screenshots') shots.push(await playwrightRun(browser, shop, true));
          else plain.push(await playwrightRun(browser, shop, false));
        }
      }
      const replayMs = median(replays.map((run) => run.ms));
      const shotsRatio = median(replays.map((run, index) => run.ms / shots[index]!));
      const plainRatio = median(replays.map((run, index) => run.ms / plain[index]!));
      const rows = [
        ['record (scripted model)', String(record.calls), '0', '–', formatMs(record.ms), '–'],
        [
          `replay, same page (median of ${RUNS})`,
          String(Math.max(...replays.map((run) => run.calls))),
          String(Math.max(...replays.map(wrongActions))),
          String(Math.max(...replays.map((run) => run.steps.filter((step) => step.replay?.mode !== 'replayed').length))),
          formatMs(replayMs),
          `${shotsRatio.toFixed(2)}× the script with screenshots (${formatMs(median(shots))} ms); ${plainRatio.toFixed(1)}× the plain one (${formatMs(median(plain))} ms); ` +
            `${(median(captures) / ACTIONS).toFixed(2)} captures per action (${median(captures)} for ${ACTIONS})`,
        ],
      ];
      for (const changed of ['banner', 'swapped', 'popup', 'clock'] as const) {
        const run = await runFlow(browser, shop, model, home, state, changed, true);
        const diverged = run.steps.filter((step) => step.replay?.mode === 'healed' || step.replay?.mode === 'diverged');
        const why = diverged.map((step) => `${step.text.slice(0, 12)}…: ${step.replay?.divergence?.phase} action ${step.replay?.divergence?.action}, ${step.replay?.divergence?.reason}`).join('; ');
        rows.push([`replay, ${changed}${changed === 'clock' ? ' (false divergences)' : ''}`, String(run.calls), String(wrongActions(run)), `${diverged.length}${why === '' ? '' : ` (${why})`}`, formatMs(run.ms), '–']);
        // The next changed page replays from the recording on the plain page, not from this page's healed run.
        const reset = await runFlow(browser, shop, model, home, state, 'same', false);
        if (wrongActions(reset) > 0) throw new Error('re-recording on the plain page went wrong');
      }
      rows.push(await desktopRow(model, state));
      const table = markdownTable(['run', 'model calls', 'wrong actions', 'steps diverged (healed)', 'wall time (ms)', 'vs Playwright'], rows);
      return [
        table,
        '',
        `Two do steps (${ACTIONS} recorded actions: a click, a click and typing). Aims: 0 model calls replaying the same page, wall time ≤ 2× a Playwright script that takes a screenshot after each action (issue 36), 0 wrong actions, model calls only for the steps that changed, 0 false divergences on the clock page.`,
        `The same-page replay and the two Playwright scripts (with a screenshot after each action, and plain) run in ${RUNS} interleaved rounds, each round in another order; each ratio is the median of the rounds' own ratios. Captures per action counts every frame the operator captured during the replay's steps (each turn's first screen and every frame its settle watches looked at) over the ${ACTIONS} actions: the floor is ${ACTIONS + 2} (${((ACTIONS + 2) / ACTIONS).toFixed(2)} per action): one fresh capture at each of the two turns' starts, checked against the frame the last watch settled on, and one per action.`,
        'Wall time is the steps only (attaching the SDK, like opening the page, is not counted). The replay waits for the screen to settle before and after each action (perception.settle) and compares it with the recorded frames; Playwright does neither.',
        'Each changed page is replayed from the recording made on the plain page (the flow is recorded again on the plain page between them).',
        "The scripted model answers at once, so the record row's time is the agent's own; a real model adds seconds per call, which the replay rows do not pay.",
        'On the swapped page the second step diverges too: the first step, healed, clicked the second row, whose button keeps the focus ring; that is a real difference of the screen, not a false one.',
      ].join('\n');
    } finally {
      await browser.close();
      await model.close();
      await shop.close();
      rmSync(home, { recursive: true, force: true });
    }
  },
};
