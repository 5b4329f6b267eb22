/**
 * Reports opened from disk in a real Chromium with every request refused: a passing flow, a failing one, a
 * replay healed after a divergence, and a hostile session. Nothing is requested, every image draws, the texts
 * and values show, the divergence shows both frames with the changed tiles, axe finds no serious problem in
 * either theme, the keyboard opens a frame, the page fits 1280 px and prints; markup from a page or a model is
 * shown as text and never runs. Then the timeline's placeholder card (the component the report shares) at the
 * timeline's size: its caption never runs under its hint.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFlowRunReport, buildSessionReport, joinedStyles } from '../../src/main/report/index.js';
import type { Storage } from '../../src/main/storage/index.js';
import { PlaceholderFace } from '../../src/renderer/src/components/PlaceholderFace.js';
import { placeholderHint } from '../../src/renderer/src/timeline/step-presentation.js';
import { expectNoBlockingViolations } from '../helpers/accessibility-audit.js';
import { createTemporaryHome, openHomeStorage, type TemporaryHome } from '../helpers/seed.js';
import { failingFlow, flowRun, healedReplay, hostileSession, HOSTILE_SUMMARY, HOSTILE_TITLE, passingFlow } from '../helpers/report-sessions.js';
import { launchTimelineBrowser } from './support/timeline-browser.js';

const ROOT = resolve(import.meta.dirname, '../..');
const ARTIFACTS = join(ROOT, 'test-artifacts/report');

let home: TemporaryHome;
let storage: Storage;
let browser: Browser;
const files: Record<'passing' | 'failing' | 'replay' | 'hostile' | 'run', string> = { passing: '', failing: '', replay: '', hostile: '', run: '' };
let replayIds: { recorded: string; live: string };

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  home = createTemporaryHome('sightline-report-browser');
  storage = openHomeStorage(home);
  const options = { storage, redact: (text: string) => text, sightlineVersion: '0.1.0' };
  const passing = await passingFlow(storage);
  const failing = await failingFlow(storage);
  const replay = await healedReplay(storage);
  const hostile = await hostileSession(storage);
  replayIds = { recorded: replay.recorded.id, live: replay.divergence.liveImageId };
  const write = (name: keyof typeof files, html: string) => {
    files[name] = join(home.root, `${name}.html`);
    writeFileSync(files[name], html);
  };
  write('passing', (await buildFlowRunReport(flowRun([passing]), 'passed', options)).html);
  write('failing', (await buildFlowRunReport(flowRun([failing]), 'failed', options)).html);
  write('replay', (await buildSessionReport(replay.session.id, options)).html);
  write('hostile', (await buildFlowRunReport(flowRun([hostile]), 'passed', options)).html);
  write('run', (await buildFlowRunReport(flowRun([passing, failing, replay]), 'failed', options)).html);
  browser = await launchTimelineBrowser();
});

afterAll(async () => {
  await browser?.close();
  storage?.close();
  home?.remove();
});

interface OpenedReport {
  page: Page;
  /** Requests the page made beyond the file itself (each refused). */
  refused: string[];
  problems: string[];
}

/** Opens a report file with the network off: every request but the file's own navigation is refused and counted. */
async function open(file: string, viewport = { width: 1280, height: 900 }): Promise<OpenedReport> {
  const page = await browser.newPage({ viewport, colorScheme: 'dark' });
  const url = pathToFileURL(file).href;
  const refused: string[] = [];
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || /Content Security Policy|Refused to/i.test(message.text())) problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  await page.route('**', (route) => {
    if (route.request().url() === url) return route.continue();
    refused.push(route.request().url());
    return route.abort();
  });
  await page.goto(url);
  await page.waitForFunction(() => [...(globalThis as unknown as { document: { images: Iterable<{ complete: boolean }> } }).document.images].every((image) => image.complete));
  return { page, refused, problems };
}

/**
 * axe over the page as it is drawn now (frames opened stay open), in both themes. The report's CSP admits no
 * script but its own, so axe runs in a copy of the page opened with the CSP bypassed; the page under test
 * keeps its CSP.
 */
async function audit(page: Page, view: string): Promise<void> {
  const copy = await browser.newPage({ viewport: page.viewportSize() ?? { width: 1280, height: 900 }, bypassCSP: true });
  // Served from a made-up origin rather than opened from disk: axe is injected through a route, and file: URLs are not routed.
  const html = readFileSync(fileURLToPath(page.url()), 'utf8');
  await copy.route('http://report.test/report.html', (route) => route.fulfill({ body: html, contentType: 'text/html; charset=utf-8' }));
  await copy.goto('http://report.test/report.html');
  const opened = await page.locator('details[open]').evaluateAll((elements) => elements.map((element) => (element as unknown as { id: string }).id));
  await copy.evaluate((ids) => {
    const document = (globalThis as unknown as { document: { querySelectorAll(selector: string): Iterable<{ id: string; open: boolean }> } }).document;
    for (const details of document.querySelectorAll('details')) if (ids.includes(details.id) && details.id !== '') details.open = true;
  }, opened);
  await expectNoBlockingViolations(copy, view);
  await copy.close();
}

/** Each image's natural width: 0 for one that did not draw. */
function imageWidths(page: Page): Promise<number[]> {
  return page.evaluate(() => [...(globalThis as unknown as { document: { images: Iterable<{ naturalWidth: number }> } }).document.images].map((image) => image.naturalWidth));
}

describe('a report opened from disk with the network off', () => {
  it('a passing flow: its steps, value and verdict, every frame drawn, nothing requested, axe clean', async () => {
    const { page, refused, problems } = await open(files.passing);
    expect(await page.title()).toBe('Flow invite-viewer: passed');
    expect(await page.locator('.report-flow-name').allTextContents()).toEqual(['invite-viewer']);
    expect(await page.locator('.answer-value').first().textContent()).toBe('"alex@example.com"');
    expect(await page.locator('.verdict-true').count()).toBe(1);
    expect(await page.getByText('The Send invite button is shown in the accent colour, enabled.').count()).toBeGreaterThan(0);
    const widths = await imageWidths(page);
    expect(widths.length).toBe(5);
    expect(widths.every((width) => width > 0)).toBe(true);
    // The evidence link goes to the frame it cites.
    const link = page.locator('.answer-evidence a').first();
    const target = (await link.getAttribute('href'))!.slice(1);
    expect(await page.locator(`[id="${target}"] img`).count()).toBe(1);
    await audit(page, 'passing flow report');
    await page.screenshot({ path: join(ARTIFACTS, 'passing.png'), fullPage: true });
    expect(refused).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('a failing flow: the failure, its reason and the frame it failed on, whole', async () => {
    const { page, refused, problems } = await open(files.failing);
    expect(await page.locator('.flow-step-failed .status-pill').first().textContent()).toBe('Failed');
    expect(await page.locator('.verdict-false').count()).toBe(1);
    expect(await page.getByText('No toast is shown; a dialog asks "Invite as viewer?" instead.').count()).toBeGreaterThan(0);
    expect(await page.locator('.frame-full img').count()).toBeGreaterThan(0);
    expect((await imageWidths(page)).every((width) => width > 0)).toBe(true);
    await audit(page, 'failing flow report');
    expect(refused).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('a healed replay: the recorded frame beside the live one, the changed tiles marked on both', async () => {
    const { page, refused, problems } = await open(files.replay);
    const divergence = page.locator('.divergence');
    expect(await divergence.count()).toBe(1);
    expect(await divergence.locator('figcaption.divergence-title').textContent()).toContain('2 changed tiles');
    const sides = divergence.locator('.divergence-side');
    expect(await sides.count()).toBe(2);
    expect(await sides.nth(0).textContent()).toContain(`Recorded ${replayIds.recorded}`);
    expect(await sides.nth(1).textContent()).toContain(`Live ${replayIds.live}`);
    const drawn = await divergence.locator('img').evaluateAll((images) => images.map((image) => (image as unknown as { naturalWidth: number }).naturalWidth));
    expect(drawn).toHaveLength(2);
    expect(drawn.every((width) => width > 0)).toBe(true);
    expect(await divergence.locator('.changed-tile').count()).toBe(4);
    // Side by side at 1280 px.
    const [left, right] = [await sides.nth(0).boundingBox(), await sides.nth(1).boundingBox()];
    expect(right!.x).toBeGreaterThan(left!.x + left!.width - 1);
    expect(await page.locator('.source-healed').count()).toBe(1);
    expect(await page.locator('.source-replayed').count()).toBe(1);
    expect((await imageWidths(page)).every((width) => width > 0)).toBe(true);
    await audit(page, 'healed replay report');
    await page.screenshot({ path: join(ARTIFACTS, 'replay.png'), fullPage: true });
    expect(refused).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('a run of several flows: failures first, a contents list, the keyboard opens a frame, 1280 px wide, printable', async () => {
    const { page, refused, problems } = await open(files.run);
    const names = await page.locator('.report-flow-name').allTextContents();
    expect(names).toEqual(['invite-confirmed', 'invite-viewer', 'replay-healed']);
    expect(await page.getByRole('navigation', { name: 'Flows' }).getByRole('link').count()).toBe(3);
    // Nothing wider than the window.
    expect(await page.evaluate(() => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
    // The README's picture of a report (docs/images/report.png) is this view, scaled to 960 px.
    await page.screenshot({ path: join(ARTIFACTS, 'run.png') });
    // The keyboard: Tab to the first frame not open on load and open it with Enter; it fills the row.
    const openOnLoad = await page.locator('details.report-shot[open]').count();
    const closed = page.locator('details.report-shot:not([open])').first();
    const marked = await closed.evaluate((element) => {
      (element as unknown as { dataset: Record<string, string> }).dataset['probe'] = 'first-closed';
      return true;
    });
    expect(marked).toBe(true);
    const first = page.locator('details.report-shot[data-probe="first-closed"]');
    const before = (await first.boundingBox())!.width;
    for (let press = 0; press < 200 && (await page.locator('details.report-shot[data-probe="first-closed"] > summary:focus').count()) === 0; press += 1) await page.keyboard.press('Tab');
    expect(await page.locator('details.report-shot[data-probe="first-closed"] > summary:focus').count()).toBe(1);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('details.report-shot[open]').count()).toBe(openOnLoad + 1);
    expect(await first.getAttribute('open')).not.toBeNull();
    expect((await first.boundingBox())!.width).toBeGreaterThan(before * 2);
    await audit(page, 'flow run report');
    // Printed: the light palette, every frame still there, on A4.
    await page.emulateMedia({ media: 'print' });
    const printed = await page.evaluate(() => {
      const window = globalThis as unknown as { getComputedStyle(element: unknown): { backgroundColor: string; color: string }; document: { documentElement: unknown } };
      const style = window.getComputedStyle(window.document.documentElement);
      return [style.backgroundColor, style.color];
    });
    expect(printed).toEqual(['rgb(255, 255, 255)', 'rgb(17, 19, 24)']);
    const pdf = await page.pdf({ format: 'A4' });
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(refused).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('a hostile session: markup from the page and the model is shown as text and never runs', async () => {
    const { page, refused, problems } = await open(files.hostile);
    const pwned = await page.evaluate(() => (globalThis as unknown as { __pwned?: number }).__pwned);
    expect(pwned).toBeUndefined();
    expect(await page.getByText(HOSTILE_SUMMARY, { exact: true }).count()).toBeGreaterThan(0);
    expect(await page.locator('.flow-step-text').first().textContent()).toContain(HOSTILE_TITLE);
    expect(await page.locator('img[src="x"], img[src="y"], b').count()).toBe(0);
    expect(await page.locator('script').count()).toBe(2);
    const data = await page.locator('#sightline-report-data').textContent();
    expect(JSON.parse(data!).body.flows[0].steps[0].value).toEqual({ title: HOSTILE_TITLE, note: '\u2028line\u2029end' });
    expect(refused).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });
});

/** Each agent step's frame as drawn: whether it loaded, its own pixels and the size it is shown at. */
interface DrawnFrame {
  step: string;
  complete: boolean;
  /** Drawn on the page: not inside a closed <details> (whose content keeps a box but is never painted). */
  visible: boolean;
  naturalWidth: number;
  naturalHeight: number;
  shownWidth: number;
  shownHeight: number;
}

function stepFrames(page: Page): Promise<DrawnFrame[]> {
  return page.locator('li.report-step').evaluateAll((rows) =>
    rows.map((row) => {
      type Image = { complete: boolean; naturalWidth: number; naturalHeight: number; getBoundingClientRect(): { width: number; height: number }; checkVisibility(): boolean };
      const element = row as unknown as { querySelector(selector: string): Image | null; getAttribute(name: string): string | null };
      const image = element.querySelector('.report-step-media img');
      const box = image?.getBoundingClientRect();
      return {
        step: element.getAttribute('data-step-id') ?? '?',
        complete: image?.complete ?? false,
        visible: image?.checkVisibility() ?? false,
        naturalWidth: image?.naturalWidth ?? 0,
        naturalHeight: image?.naturalHeight ?? 0,
        shownWidth: box?.width ?? 0,
        shownHeight: box?.height ?? 0,
      };
    }),
  );
}

/** Every step's frame drew, is on the page, and is shown no larger than its own pixels (never stretched). */
function expectSharpFrames(frames: DrawnFrame[], steps: number): void {
  expect(frames).toHaveLength(steps);
  for (const frame of frames) {
    expect(frame.complete && frame.naturalWidth > 0, `step ${frame.step} drew its frame`).toBe(true);
    expect(frame.visible, `step ${frame.step} shows its frame, not behind a click`).toBe(true);
    expect(frame.shownWidth, `step ${frame.step} shows its frame`).toBeGreaterThan(100);
    expect(frame.naturalWidth, `step ${frame.step}: ${frame.naturalWidth} px shown ${frame.shownWidth} px wide`).toBeGreaterThanOrEqual(Math.floor(frame.shownWidth));
    expect(frame.naturalHeight, `step ${frame.step}: ${frame.naturalHeight} px shown ${frame.shownHeight} px high`).toBeGreaterThanOrEqual(Math.floor(frame.shownHeight));
  }
}

describe('every step shows its frame, for a person reading the report (issue 38)', () => {
  const cases = [
    { name: 'passing', steps: 5, flowSteps: 3 },
    { name: 'failing', steps: 3, flowSteps: 2 },
  ] as const;
  for (const { name, steps, flowSteps } of cases) {
    it(`a ${name} flow: every frame inline and sharp, the evidence open, Evidence opens and scrolls to its frame, one status and no memory words per step`, async () => {
      const { page, refused, problems } = await open(files[name]);
      expect(await page.locator('li.flow-step').count()).toBe(flowSteps);
      // Every flow step shows a frame, and every agent step its own, drawn and sharp.
      const perFlowStep = await page.locator('li.flow-step').evaluateAll((items) => items.map((item) => (item as unknown as { querySelectorAll(selector: string): { length: number } }).querySelectorAll('img').length));
      expect(perFlowStep.every((count) => count > 0)).toBe(true);
      expectSharpFrames(await stepFrames(page), steps);

      // The evidence frame is open on load, shown whole across the row.
      const link = page.locator('.answer-evidence a').first();
      const target = page.locator(`[id="${(await link.getAttribute('href'))!.slice(1)}"]`);
      expect(await target.evaluate((element) => (element as unknown as { tagName: string }).tagName)).toBe('DETAILS');
      expect(await target.getAttribute('open')).not.toBeNull();
      expect((await target.locator('img').boundingBox())!.width).toBeGreaterThan(600);

      // Closed again and scrolled away, the Evidence link opens it and brings it into view.
      await target.evaluate((element) => {
        (element as unknown as { open: boolean }).open = false;
      });
      await page.evaluate(() => (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0));
      await link.scrollIntoViewIfNeeded();
      const scrolledBefore = await page.evaluate(() => (globalThis as unknown as { scrollY: number }).scrollY);
      await link.click();
      await expect.poll(() => target.getAttribute('open')).not.toBeNull();
      await expect
        .poll(() =>
          target.evaluate((element) => {
            const box = (element as unknown as { getBoundingClientRect(): { top: number; bottom: number } }).getBoundingClientRect();
            return box.top >= -1 && box.top < (globalThis as unknown as { innerHeight: number }).innerHeight / 2;
          }),
        )
        .toBe(true);
      expect(await page.evaluate(() => (globalThis as unknown as { scrollY: number }).scrollY)).toBeGreaterThan(scrolledBefore);
      expect((await target.locator('img').boundingBox())!.width).toBeGreaterThan(600);

      // One status per step: the turn's is folded into the flow step's.
      const pills = await page.locator('li.flow-step').evaluateAll((items) => items.map((item) => (item as unknown as { querySelectorAll(selector: string): { length: number } }).querySelectorAll('.status-pill').length));
      expect(pills).toEqual(Array.from({ length: flowSteps }, () => 1));

      // The reader's words: the model's memory vocabulary is only in a closed details line.
      const visible = (await page.locator('li.flow-step').allInnerTexts()).join('\n');
      expect(visible).not.toMatch(/request/i);
      expect(visible).not.toMatch(/placeholder/i);
      expect(visible).toContain('What the model saw');

      // Every frame opened: still never drawn larger than its own pixels; a reduced one says why it is small.
      const closed = page.locator('details.report-shot:not([open]) > summary');
      for (let left = await closed.count(); left > 0; left -= 1) {
        await closed.first().click();
        await expect.poll(() => closed.count()).toBe(left - 1);
      }
      expectSharpFrames(await stepFrames(page), steps);
      const reduced = page.locator('li.report-step .frame-reduced');
      if ((await reduced.count()) > 0) expect(await page.locator('li.report-step .frame-note').first().innerText()).toBe('Shown smaller to keep the file small.');
      expect(refused).toEqual([]);
      expect(problems).toEqual([]);
      await page.close();
    });
  }
});

describe("the timeline's placeholder card", () => {
  it('keeps the caption clear of the hint at the timeline row size (1440 px wide: a 200 × 102 px frame)', async () => {
    const face = renderToStaticMarkup(
      createElement(PlaceholderFace, {
        imageId: 'img_0123456789ab',
        zone: 'compact',
        caption: 'Team page, Priya Raman row highlighted, cursor near the invite field, the Send invite button at the right.',
        pinned: false,
        hint: placeholderHint({ zone: 'compact' }),
      }),
    );
    const page = await browser.newPage({ viewport: { width: 1440, height: 400 } });
    await page.setContent(
      `<!DOCTYPE html><html><head><style>${joinedStyles(ROOT)}</style></head><body><div class="step-media" style="width:200px"><button type="button" class="placeholder-card">${face}</button></div></body></html>`,
    );
    const box = async (selector: string) => (await page.locator(selector).boundingBox())!;
    const caption = await box('.placeholder-caption');
    const hint = await box('.placeholder-hint');
    const card = await box('.placeholder-card');
    expect(caption.y + caption.height).toBeLessThanOrEqual(hint.y + 0.5);
    // Its box holds whole lines: the column did not shrink it through a line (what ran under the hint).
    const lines = await page.locator('.placeholder-caption').evaluate((element) => {
      const window = globalThis as unknown as { getComputedStyle(element: unknown): { lineHeight: string } };
      return (element as unknown as { clientHeight: number }).clientHeight / Number.parseFloat(window.getComputedStyle(element).lineHeight);
    });
    expect(Math.abs(lines - Math.round(lines))).toBeLessThan(0.1);
    expect(Math.round(lines)).toBe(2);
    // The hint keeps one line, stays inside the card, and is not cut off (it was: "Whole in blobs, folded in t…").
    expect(hint.height).toBeLessThan(20);
    expect(await page.locator('.placeholder-hint').evaluate((element) => {
      const shown = element as unknown as { scrollWidth: number; clientWidth: number };
      return shown.scrollWidth <= shown.clientWidth;
    })).toBe(true);
    expect(hint.y + hint.height).toBeLessThanOrEqual(card.y + card.height);
    await page.close();
  });
});
