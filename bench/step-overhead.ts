/**
 * Per-step overhead, model time excluded: a click → the settled screenshot → its hash and the dedup decision
 * → the stored frame and step → the next request built, as the agent runs it (1280x800 since issue 36). On the desktop
 * operator (a Chromium window on a private Xvfb this section starts and stops by pid) and the browser operator
 * (headless Chromium), on a static page (the click changes a panel's colour at once) and on a page whose
 * click starts a 300 ms CSS transition. The baseline is the old fixed 500 ms sleep before one capture,
 * measured here in the same run on the same pages.
 *
 * After every step the stored screenshot is read back and checked: the panel, or the box at the end of its
 * transition, must show the end state to the pixel.
 */
import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { DEFAULT_CONFIG } from '../src/shared/config.js';
import { findBrowserExecutable } from '../src/main/operators/browser-executable.js';
import { BrowserOperator } from '../src/main/operators/browser-operator.js';
import { SETTLE_TIMING } from '../src/main/perception/settle-watch.js';
import type { Storage } from '../src/main/storage/index.js';
import { canOpenDesktopTestWindow, openDesktopTestWindow } from '../test/helpers/desktop-test-window.js';
import { startXvfb } from '../test/helpers/xvfb.js';
import { formatMs, markdownTable, median, percentile, type BenchSection } from './harness.js';
import { temporaryStorage } from './support/scripted-session.js';
import { BASELINE_SLEEP_MS, pageHtml, PROFILE, runRow, SCREEN, STATIC_MEDIAN_AIM_MS, STEPS, WARMUP_STEPS, type RowResult } from './support/step-pipeline.js';

const DESKTOP_CHILD = resolve(import.meta.dirname, 'support/desktop-step-overhead.ts');

async function servePages(): Promise<{ server: Server; origin: string }> {
  const server = createServer((request, response) => {
    response.setHeader('content-type', 'text/html');
    response.end(pageHtml(request.url === '/transition' ? 'transition' : 'static'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function browserRows(storage: Storage): Promise<RowResult[]> {
  const { server, origin } = await servePages();
  const operator = await BrowserOperator.launch({ viewport: SCREEN });
  try {
    const rows: RowResult[] = [];
    for (const page of ['static', 'transition'] as const) {
      await operator.start(`${origin}/${page}`);
      for (const mode of ['watch', 'sleep-500'] as const) rows.push(await runRow(operator, 'browser', page, mode, { originX: 0, originY: 0 }, storage));
    }
    return rows;
  } finally {
    await operator.close();
    await new Promise((resolve) => server.close(resolve));
  }
}

async function desktopRows(): Promise<RowResult[]> {
  const xvfb = await startXvfb(SCREEN);
  try {
    const rows: RowResult[] = [];
    for (const page of ['static', 'transition'] as const) {
      const window = openDesktopTestWindow({ xvfb, screen: SCREEN, titlePrefix: `sightline-bench-${page}`, fieldTop: 0, html: pageHtml(page) });
      try {
        // Its own process: the X connections it opens die with it, before this Xvfb is stopped.
        const child = spawnSync(process.execPath, ['--import', 'tsx', DESKTOP_CHILD, page], { env: xvfb.env, encoding: 'utf8', timeout: 600_000 });
        if (child.status !== 0) throw new Error(`the desktop rows failed (${child.status ?? child.signal}): ${child.stderr.trim().slice(-2000)}`);
        rows.push(...(JSON.parse(child.stdout) as RowResult[]));
      } finally {
        await window.close();
      }
    }
    return rows;
  } finally {
    await xvfb.stop();
  }
}

function hasBrowser(): boolean {
  try {
    findBrowserExecutable({ env: process.env, platform: process.platform });
    return true;
  } catch {
    return false;
  }
}

function report(rows: readonly RowResult[], notes: readonly string[]): string {
  const baselineOf = (row: RowResult): RowResult | undefined =>
    rows.find((other) => other.operator === row.operator && other.page === row.page && other.mode === 'sleep-500');
  const table = markdownTable(
    ['operator', 'page', 'after the action', 'median ms', 'p95 ms', 'vs fixed 500 ms (median)', 'of which watching (median ms, frames)', 'end state shown', 'taken at the cap'],
    rows.map((row) => {
      const baseline = baselineOf(row);
      const ratio = row.mode === 'watch' && baseline ? `${(median(row.stepMs) / median(baseline.stepMs)).toFixed(2)}×` : '1.00× (baseline)';
      return [
        row.operator,
        row.page === 'static' ? 'static' : '300 ms transition',
        row.mode === 'watch' ? 'watch until settled' : 'fixed 500 ms sleep (old)',
        formatMs(median(row.stepMs)),
        formatMs(percentile(row.stepMs, 0.95)),
        ratio,
        row.mode === 'watch' ? `${formatMs(median(row.watchedMs))}, ${median(row.framesWatched)}` : `${BASELINE_SLEEP_MS} (sleep), 1`,
        `${row.endStates}/${row.stepMs.length}${row.endStates === row.stepMs.length ? '' : ` (${row.beforeStates} before the click, ${row.stepMs.length - row.endStates - row.beforeStates} mid-change)`}`,
        row.mode === 'watch' ? `${row.unsettled}/${row.stepMs.length}` : '—',
      ];
    }),
  );
  const aims: string[] = [];
  for (const row of rows.filter((candidate) => candidate.mode === 'watch')) {
    if (row.page === 'static') {
      const value = median(row.stepMs);
      aims.push(`- ${value <= STATIC_MEDIAN_AIM_MS ? 'PASS' : 'FAIL'}: ${row.operator}, static page: median ${formatMs(value)} ms ≤ ${STATIC_MEDIAN_AIM_MS} ms`);
    } else {
      const every = row.endStates === row.stepMs.length;
      aims.push(`- ${every ? 'PASS' : 'FAIL'}: ${row.operator}, 300 ms transition: the screenshot shows the end state ${row.endStates}/${row.stepMs.length}`);
    }
  }
  // The fixed-sleep row less its sleep is what the rest of a step costs here (action, one capture, hash,
  // store, request): no settle rule can make a step cheaper than that, so it explains a failed speed aim.
  const floors = rows
    .filter((row) => row.page === 'static' && row.mode === 'sleep-500')
    .map((row) => {
      const watched = rows.find((other) => other.operator === row.operator && other.page === 'static' && other.mode === 'watch');
      const watching = watched === undefined ? '' : ` (beside it, the watch itself took ${formatMs(median(watched.watchedMs))} ms, median)`;
      return `${row.operator} ${formatMs(median(row.stepMs) - BASELINE_SLEEP_MS)} ms${watching}`;
    });
  if (floors.length > 0) {
    aims.push(
      `- The rest of a step on a static page (the click, one capture, the hash, the PNG and the step stored, the request built) costs at least ` +
        `the fixed-sleep row's median less its ${BASELINE_SLEEP_MS} ms: ${floors.join('; ')}. Where that is above ${STATIC_MEDIAN_AIM_MS} ms, ` +
        'no settle rule can meet the speed aim on this machine at this load.',
    );
  }
  return [
    table,
    '',
    `${STEPS} timed steps per row after ${WARMUP_STEPS} untimed ones, ${SCREEN.width}x${SCREEN.height}; each step is a click on the page's toggle, ` +
      'then the screenshot (settled or after the fixed sleep), its hash and dedup decision, the PNG and the step row stored, ' +
      `and the next request built for ${PROFILE.model} (the new screenshot read back at the model's size; the screen before it goes as a reduced view ` +
      'whose copy the loop makes while the model thinks, so here after the timed step, standing in for the model call). ' +
      `Watching: a ${SETTLE_TIMING.firstWaitMs} ms first wait, ` +
      `frames at least ${SETTLE_TIMING.frameIntervalMs} ms apart, at least ${SETTLE_TIMING.unchangedMinimumMs} ms while the screen still equals the one before the click, ` +
      `cap ${DEFAULT_CONFIG.perception.settle.maxMs} ms. "Of which watching" runs from the end of the click until the settled frame starts to be captured.`,
    ...notes,
    '',
    'Aims:',
    ...aims,
  ].join('\n');
}

async function run(): Promise<string> {
  const notes: string[] = [];
  const rows: RowResult[] = [];
  const temporary = temporaryStorage('step-overhead');
  const loadBefore = loadavg()[0]!;
  try {
    if (canOpenDesktopTestWindow) rows.push(...(await desktopRows()));
    else notes.push('Desktop rows skipped: they need Linux with Xvfb, xdotool and a Chromium (SIGHTLINE_BROWSER_PATH), and one is missing here.');
    if (hasBrowser()) rows.push(...(await browserRows(temporary.storage)));
    else notes.push('Browser rows skipped: no Chromium or Chrome found (set SIGHTLINE_BROWSER_PATH).');
  } finally {
    temporary.remove();
  }
  // Every figure here is wall time on a machine others may be using: the load tells how far to trust them.
  notes.push(`Load average (1 min) at the start and the end of this section: ${loadBefore.toFixed(1)} and ${loadavg()[0]!.toFixed(1)}, on ${availableParallelism()} cores.`);
  return report(rows, notes);
}

export const section: BenchSection = {
  name: 'step-overhead',
  title: 'Per-step overhead: settle by watching against the fixed 500 ms sleep (model time excluded)',
  run,
};
