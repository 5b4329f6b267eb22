/**
 * The timeline UI in a real Chromium against the HTTP transport of `sightline timeline` (the same server,
 * started in-process over a seeded database): the sessions list, a session's turns and steps, a folded
 * screenshot brought back from cold storage, a purged one shown as unavailable, a thousand-step session
 * windowed, a live run whose events appear as they happen (with a question answered from the page), and
 * the token every API request must carry. No CSP violation may be logged. axe-core finds no serious or
 * critical accessibility problem in any view, in either theme, and the keyboard alone opens a session, loads a
 * folded screenshot, opens the viewer and closes every dialog, with focus kept inside each dialog.
 *
 * Screenshots of the main views go to test-artifacts/timeline-ui/ for a person to look at.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { launchTimelineBrowser } from './support/timeline-browser.js';
import { builtRenderer } from '../helpers/built-cli.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, type Config } from '../../src/shared/config.js';
import { createAppService, type AppService } from '../../src/main/api/app-service.js';
import { startTimelineServer, type TimelineServer } from '../../src/main/api/http/http-server.js';
import { sha256Of, type Storage } from '../../src/main/storage/index.js';
import { expectNoBlockingViolations } from '../helpers/accessibility-audit.js';
import { computerCall, finishCall, toolCall, TEST_API_KEY } from '../helpers/agent-harness.js';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../helpers/fake-openai-server.js';
import { FakeOperator } from '../helpers/fake-operator.js';
import { createTemporaryHome, makePng, openHomeStorage, type TemporaryHome } from '../helpers/seed.js';
import { HOSTILE_REASON, HOSTILE_VALUE_TEXT, SeedClock, seedFlowSession, seedTimeline, type SeededFlowSession, type SeededTimeline } from '../helpers/seed-timeline.js';
import { scaledLimit } from '../helpers/time-limits.js';

const ROOT = resolve(import.meta.dirname, '../..');
const ARTIFACTS = join(ROOT, 'test-artifacts/timeline-ui');
const TOKEN = 'timeline-ui-test-token-0123456789';
const LONG_STEPS = 1500;

let home: TemporaryHome;
let storage: Storage;
let seeded: SeededTimeline;
let flow: SeededFlowSession;
let model: FakeOpenAiServer;
let service: AppService;
let server: TimelineServer;
let browser: Browser;
let page: Page;
const consoleProblems: string[] = [];
/** Released by the test: the live run's second computer action waits on it, so the run is caught mid-way. */
let releaseAction: () => void = () => {};
/** Every computer action waits on it as well: a test that replaces it holds the run where it wants. */
let actionGate: Promise<void> = Promise.resolve();

/** The page renders asynchronously (thumbnails are made on request): give it time on a loaded machine. */
/** What a drop or a paste is made of in the page. */
interface PageEventConstructors {
  DataTransfer: new () => { items: { add(file: File): void } };
  DragEvent: new (type: string, init: { bubbles: boolean; cancelable: boolean; dataTransfer: unknown }) => Event;
  ClipboardEvent: new (type: string, init: { bubbles: boolean; cancelable: boolean; clipboardData: unknown }) => Event;
}

function poll<Value>(read: () => Promise<Value> | Value) {
  return expect.poll(read, { timeout: scaledLimit(15_000), interval: 50 });
}

/** Whether the element `selector` names has keyboard focus. */
async function isFocused(selector: string): Promise<boolean> {
  return (await page.locator(`${selector}:focus`).count()) === 1;
}

/** Presses Tab (Shift+Tab with `backwards`) until `selector` has focus, as a person on the keyboard would. */
async function tabTo(selector: string, { backwards = false, limit = 80 } = {}): Promise<void> {
  const key = backwards ? 'Shift+Tab' : 'Tab';
  for (let press = 0; press < limit; press += 1) {
    if (await isFocused(selector)) return;
    await page.keyboard.press(key);
  }
  throw new Error(`${limit} presses of ${key} never reached ${selector}`);
}

/**
 * What a page callback receives. The node program has no DOM types; React's type stubs (which main's report
 * rendering brings in) make the elements empty interfaces, so the callbacks name theirs loosely.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type PageElement = any;

/** Where focus is, as the index of the focused element among the dialog's descendants; -1 when outside it. */
function focusInside(dialog: Locator): Promise<number> {
  return dialog.evaluate((element: PageElement) => {
    const focused = element.ownerDocument.activeElement;
    return focused !== null && element.contains(focused) ? [...element.querySelectorAll('*')].indexOf(focused) : -1;
  });
}

/** More presses than any dialog has controls: enough to go round each once. */
const PRESSES_ROUND_A_DIALOG = 15;

/**
 * Tab, then Shift+Tab, go round the dialog's controls and come back to where they started without focus
 * ever leaving it, through `controls` stops each way.
 */
async function expectFocusTrapped(dialog: Locator, controls: 'one' | 'several'): Promise<void> {
  for (const key of ['Tab', 'Shift+Tab']) {
    const start = await focusInside(dialog);
    expect(start).toBeGreaterThanOrEqual(0);
    const visited: number[] = [];
    for (let press = 0; press < PRESSES_ROUND_A_DIALOG; press += 1) {
      await page.keyboard.press(key);
      visited.push(await focusInside(dialog));
    }
    expect(visited, `${key} left the dialog`).not.toContain(-1);
    expect(visited, `${key} did not come round to where it started`).toContain(start);
    if (controls === 'several') expect(new Set(visited).size, `${key} did not move`).toBeGreaterThan(1);
    else expect(new Set(visited), `${key} moved off the only control`).toEqual(new Set([start]));
  }
}

async function snapshot(name: string): Promise<void> {
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`) });
}

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });

  home = createTemporaryHome('sightline-timeline-ui');
  const clock = new SeedClock();
  storage = openHomeStorage(home, { clock: clock.now });
  seeded = await seedTimeline(storage, clock, { longSteps: LONG_STEPS });
  flow = await seedFlowSession(storage, clock);
  clock.followRealTime();

  model = await startFakeOpenAiServer();
  const config: Config = {
    ...DEFAULT_CONFIG,
    model: { ...DEFAULT_CONFIG.model, name: 'gpt-4.1', baseUrl: model.baseUrl, apiKey: TEST_API_KEY, maxRetries: 0 },
    agent: { ...DEFAULT_CONFIG.agent, operator: 'browser' },
  };
  let executed = 0;
  const operator = new FakeOperator({
    screen: { width: 1280, height: 800 },
    kind: 'browser',
    onExecute: async () => {
      executed += 1;
      if (executed === 2) await new Promise<void>((release) => (releaseAction = release));
      await actionGate;
    },
  });
  service = createAppService({
    storage,
    config,
    home: home.root,
    appInfo: () => ({ version: '0.1.0', platform: 'linux' }),
    operatorFactory: async () => operator,
    watchSettling: false,
  });
  server = await startTimelineServer({
    implementation: service.implementation,
    events: service.events,
    // Built from the sources under test, once per run in global setup, before any limit starts.
    rendererDirectory: builtRenderer(),
    token: TOKEN,
    dispatch: service.dispatch,
  });

  browser = await launchTimelineBrowser();
  page = await browser.newPage({ viewport: { width: 1440, height: 900 }, colorScheme: 'dark' });
  page.on('console', (message) => {
    if (message.type() === 'error' || /Content Security Policy|Refused to/i.test(message.text())) consoleProblems.push(message.text());
  });
  page.on('pageerror', (error) => consoleProblems.push(error.message));
  // A script that ran from stored text (an answer's reason, say) would show itself with an alert.
  page.on('dialog', (dialog) => {
    consoleProblems.push(`a ${dialog.type()} opened: ${dialog.message()}`);
    void dialog.dismiss();
  });
  await page.goto(server.url);
});

afterAll(async () => {
  releaseAction();
  await browser?.close();
  await server?.close();
  await service?.close();
  await model?.close();
  storage?.close();
  home?.remove();
});

describe('the timeline UI over HTTP', () => {
  it('lists the sessions with their turns, steps and tokens saved', async () => {
    const items = page.locator('.session-item');
    await poll(() => items.count()).toBe(5);
    const showcase = page.locator(`.session-item[data-session-id="${seeded.showcase.id}"]`);
    await poll(() => showcase.textContent()).toContain('Invite Alex to the Acme workspace');
    expect(await showcase.textContent()).toContain('2 turns · 13 steps');
    expect(await showcase.locator('.saved-pill').textContent()).toMatch(/^−\d+% tokens$/);
    expect(await page.locator('.badge-ok').textContent()).toContain('v0.1.0');

    await page.getByLabel('Search sessions').fill('atlas');
    await poll(() => items.count()).toBe(1);
    expect(await items.first().textContent()).toContain('Rename the Atlas project');
    await page.getByLabel('Search sessions').fill('');
    await poll(() => items.count()).toBe(5);
    await snapshot('1-sessions-list');
    await expectNoBlockingViolations(page, 'the sessions list');
  });

  it('opens a session: turns in order, steps with thoughts and actions, reports, injections and highlights', async () => {
    await page.locator(`.session-item[data-session-id="${seeded.showcase.id}"] .session-open`).click();
    await poll(() => page.locator('.session-name').textContent()).toBe('Invite Alex to the Acme workspace');
    await poll(() => page.locator('.turn-card').count()).toBeGreaterThanOrEqual(1);
    expect(await page.locator('.turn-card').first().textContent()).toContain('Turn 1');
    expect(await page.locator('.turn-card').first().textContent()).toContain('compacted');
    // A thumbnail of a whole screenshot loads once its row is visible, with the click drawn on it. Each row's
    // image loads on its own: the turn's other whole frame (its finish, with no click to draw) may come first.
    await poll(() => page.locator('.step-row .step-media-frame.media-ok image').count()).toBeGreaterThan(0);
    await poll(() => page.locator('.step-row .step-media-frame.media-ok .action-mark').count()).toBeGreaterThan(0);
    expect(await page.locator('.session-tokens .token-meter-saved').textContent()).toMatch(/\d+% saved/);
    expect(await page.locator('.token-chart polyline.token-chart-sent').getAttribute('points')).toMatch(/\d/);
    await snapshot('2-session-view');
    await expectNoBlockingViolations(page, "a session's first turn");

    // Turn 2 is further down: its report, injections and highlighted steps.
    await page.locator('.timeline-scroller').evaluate((element: PageElement) => (element.scrollTop = 900));
    await poll(() => page.locator('.search-report').count()).toBe(1);
    expect(await page.locator('.search-report').textContent()).toContain('What can a viewer do in an Acme workspace?');
    expect(await page.locator('.search-report .source-chip').count()).toBe(3);
    const badges = await page.locator('.turn-card .injection-badge').allTextContents();
    expect(badges).toEqual(['note1.2k chars', 'document18k chars']);
    await poll(() => page.locator('.step-row[data-outcome="refused"]').count()).toBe(1);
    expect(await page.locator('.step-row[data-outcome="refused"] .outcome-tag').textContent()).toBe('Refused');
    expect(await page.locator('.step-row[data-outcome="error"] .step-error').textContent()).toContain('outside the screenshot');
    expect(await page.locator('.step-row[data-outcome="unchanged"] .step-unchanged').textContent()).toMatch(/^Unchanged: same as img_[0-9a-f]{12}$/);
    expect(await page.locator('.step-row', { hasText: 'Zoom into image' }).count()).toBe(1);
    await page.waitForTimeout(300);
    await snapshot('3-session-details');
    await page.emulateMedia({ colorScheme: 'light' });
    await snapshot('3-session-details-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectNoBlockingViolations(page, "a session's second turn: report, injections, outcomes");
  });

  it('shows the crop_image box and the action on the full-size image, with zoom', async () => {
    const refused = page.locator('.step-row[data-outcome="refused"] .step-media-frame');
    await refused.click();
    const viewer = page.getByRole('dialog', { name: /Screenshot img_/ });
    await poll(() => viewer.locator('.viewer-image image').count()).toBe(1);
    expect(await viewer.locator('.crop-box rect').count()).toBe(1);
    expect(await viewer.locator('.crop-box rect').getAttribute('width')).toBe('700');
    expect(await viewer.locator('.details-text').first().textContent()).toContain('clear the browser data');
    await snapshot('4-image-viewer');
    await expectNoBlockingViolations(page, 'the image viewer');
    await viewer.getByRole('button', { name: '100%' }).click();
    expect(await viewer.locator('.viewer-zoom').textContent()).toBe('100%');
    const width = await viewer.locator('.viewer-image').evaluate((element: PageElement) => element.getBoundingClientRect().width);
    expect(Math.round(width)).toBe(1280);
    await viewer.getByRole('button', { name: 'Zoom in' }).click();
    expect(await viewer.locator('.viewer-zoom').textContent()).toBe('150%');
    await page.keyboard.press('Escape');
    await poll(() => page.getByRole('dialog').count()).toBe(0);
  });

  it('brings a folded screenshot back from cold storage on click, and says a purged one is unavailable', async () => {
    await page.locator('.timeline-scroller').evaluate((element: PageElement) => (element.scrollTop = 0));
    const cold = page.locator(`.placeholder-card[data-image-id="${seeded.coldImage.id}"]`);
    await poll(() => cold.count()).toBe(1);
    expect(await cold.textContent()).toContain(seeded.coldImage.id);
    expect(await cold.textContent()).toContain('member list with five people');
    expect(await cold.locator('.zone-badge').textContent()).toBe('cold');
    expect(await cold.textContent()).toContain('Load from cold storage');

    const purged = page.locator(`.placeholder-card[data-image-id="${seeded.purgedImage.id}"]`);
    expect(await purged.textContent()).toContain('Unavailable');
    expect(await purged.locator('.zone-badge').textContent()).toBe('purged');
    expect(await purged.isDisabled()).toBe(true);
    await snapshot('5-placeholders');
    await expectNoBlockingViolations(page, 'folded and purged placeholders');

    await cold.click();
    const row = page.locator('.step-row', { has: page.locator('.placeholder-loaded') });
    await poll(() => row.locator('.placeholder-loaded image').count()).toBe(1);
    expect(await row.locator('.placeholder-loaded .zone-badge').textContent()).toBe('cold');
    await snapshot('6-placeholder-rehydrated');
    await expectNoBlockingViolations(page, 'a placeholder brought back');
  });

  it('pins a screenshot from its row and marks it, then unpins it (issue 16)', async () => {
    const imageId = seeded.coldImage.id;
    const toggle = page.locator(`.pin-toggle[aria-label$="${imageId}"]`);
    const row = page.locator('.step-row', { has: toggle });
    await poll(() => toggle.count()).toBe(1);
    expect(await toggle.getAttribute('aria-pressed')).toBe('false');
    expect(await row.locator('.pin-badge').count()).toBe(0);

    await toggle.click();
    await poll(() => toggle.getAttribute('aria-pressed')).toBe('true');
    expect(await toggle.textContent()).toBe('Pinned');
    expect(storage.pins.get(imageId)?.imageId).toBe(imageId);
    // The session is read again: the step now says it is pinned, and the row marks it.
    await poll(() => row.locator('.pin-badge').count()).toBe(1);
    await snapshot('6b-pinned-frame');

    await toggle.click();
    await poll(() => toggle.getAttribute('aria-pressed')).toBe('false');
    expect(storage.pins.get(imageId)).toBeUndefined();
    await poll(() => row.locator('.pin-badge').count()).toBe(0);
    // A purged frame has nothing left to pin.
    expect(await page.locator(`.pin-toggle[aria-label$="${seeded.purgedImage.id}"]`).isDisabled()).toBe(true);
  });

  it('works with the keyboard alone: opens a session, expands a placeholder, opens the viewer, closes dialogs, focus kept in each', { timeout: scaledLimit(60_000) }, async () => {
    // A fresh page, nothing focused and no image loaded: from here on only keys are pressed.
    await page.reload();
    await poll(() => page.locator('.session-item').count()).toBe(5);
    await tabTo(`.session-item[data-session-id="${seeded.showcase.id}"] .session-open`);
    await page.keyboard.press('Enter');
    await poll(() => page.locator('.session-name').textContent()).toBe('Invite Alex to the Acme workspace');

    const placeholder = '.placeholder-card:not([disabled])';
    await poll(() => page.locator(placeholder).count()).toBeGreaterThan(0);
    await tabTo(placeholder);
    const imageId = (await page.locator(`${placeholder}:focus`).getAttribute('data-image-id')) ?? '';
    await page.keyboard.press('Enter');
    // The card turns into the loaded frame in place, so focus stays on it.
    await poll(() => page.locator('.placeholder-loaded image').count()).toBe(1);
    expect(await isFocused('.placeholder-loaded')).toBe(true);

    await page.keyboard.press('Enter');
    const viewer = page.getByRole('dialog', { name: `Screenshot ${imageId}` });
    await poll(() => viewer.count()).toBe(1);
    expect(await isFocused('.viewer [aria-label="Close viewer"]')).toBe(true);
    await expectFocusTrapped(viewer, 'several');
    await page.keyboard.press('Escape');
    await poll(() => viewer.count()).toBe(0);
    expect(await isFocused('.placeholder-loaded')).toBe(true);

    const newTaskButton = '.header-actions .button-primary';
    await tabTo(newTaskButton, { backwards: true });
    await page.keyboard.press('Enter');
    const form = page.getByRole('dialog', { name: 'New task' });
    await poll(() => form.count()).toBe(1);
    expect(await isFocused('textarea[name="task"]')).toBe(true);
    await expectFocusTrapped(form, 'several');
    await page.keyboard.press('Escape');
    await poll(() => form.count()).toBe(0);
    expect(await isFocused(newTaskButton)).toBe(true);

    const keysButton = '.header-actions .button:not(.button-primary)';
    await page.keyboard.press('Shift+Tab');
    expect(await isFocused(keysButton)).toBe(true);
    await page.keyboard.press('Enter');
    const keys = page.getByRole('dialog', { name: 'API keys' });
    await poll(() => keys.locator('.api-key-row').count()).toBe(3);
    // In the browser the dialog only shows where keys come from: its Close button is its one control.
    await expectFocusTrapped(keys, 'one');
    await page.keyboard.press('Escape');
    await poll(() => keys.count()).toBe(0);
    expect(await isFocused(keysButton)).toBe(true);
  });

  it('windows a session of thousands of steps: only the rows in view are in the page', async () => {
    await page.locator(`.session-item[data-session-id="${seeded.long.id}"] .session-open`).click();
    await poll(() => page.locator('.session-name').textContent()).toBe('Triage the support inbox');
    await poll(() => page.locator('.session-facts').textContent()).toContain(`${LONG_STEPS} steps`);
    const rendered = await page.locator('.step-row').count();
    expect(rendered).toBeGreaterThan(3);
    expect(rendered).toBeLessThan(40);
    await page.locator('.timeline-scroller').evaluate((element: PageElement) => (element.scrollTop = element.scrollHeight));
    await poll(() => page.locator('.step-row', { hasText: 'Message 500:' }).count()).toBe(1);
    expect(await page.locator('.step-row').count()).toBeLessThan(40);
    await snapshot('7-long-session');
    await expectNoBlockingViolations(page, 'a windowed long session');
  });

  it('shows a flow session: its flow, each step kind, verdicts and reasons in words, the value as JSON text, evidence opening in the viewer (issue 25)', { timeout: scaledLimit(60_000) }, async () => {
    // Tall enough for every row of the flow at once: the windowed list then has them all in the page.
    await page.setViewportSize({ width: 1440, height: 2600 });
    try {
      const item = page.locator(`.session-item[data-session-id="${flow.session.id}"]`);
      expect(await item.locator('.flow-mark').textContent()).toBe('flowteam-smoke');
      // Only the flow's session is marked.
      expect(await page.locator('.session-item .flow-mark').count()).toBe(1);
      await item.locator('.session-open').click();
      await poll(() => page.locator('.session-name').textContent()).toBe('Flow team-smoke');
      expect(await page.locator('.session-facts .flow-mark').textContent()).toBe('flowteam-smoke');

      const [doTurn, passed, extracted, condition, failed, waited] = flow.turns;
      const turnCard = (turnId: string | undefined) => page.locator(`.turn-card[data-turn-id="${turnId}"]`);
      const answerCard = (turnId: string | undefined) => page.locator(`.answer-card[data-turn-id="${turnId}"]`);
      await poll(() => page.locator('.turn-card').count()).toBe(6);
      expect(await page.locator('.turn-card .step-kind').allTextContents()).toEqual(['do', 'assert', 'extract', 'if', 'assert', 'wait for']);
      expect(await answerCard(doTurn?.id).count()).toBe(0);
      expect(await turnCard(passed?.id).textContent()).toContain('The member list shows five people');

      expect(await answerCard(passed?.id).locator('.verdict-pill').textContent()).toBe('✓ Passed');
      expect(await answerCard(passed?.id).locator('.answer-reason').textContent()).toBe('Reason Five member rows are listed, from Dana Whitfield to Jon Alvarez.');
      expect(await answerCard(failed?.id).locator('.verdict-pill').textContent()).toBe('✗ Failed');
      expect(await answerCard(condition?.id).locator('.verdict-pill').textContent()).toBe('✗ False');
      expect(await answerCard(waited?.id).locator('.verdict-pill').textContent()).toBe('✓ Met');
      // The hostile reason is the text shown, whole; nothing of it became an element.
      expect(await answerCard(failed?.id).locator('.answer-reason').textContent()).toBe(`Reason ${HOSTILE_REASON}`);
      expect(await answerCard(failed?.id).locator('.answer-reason *').count()).toBe(1);
      expect(await page.locator('.timeline-scroller img[src="x"]').count()).toBe(0);

      const value = answerCard(extracted?.id).locator('pre.answer-value');
      expect(await value.textContent()).toBe(JSON.stringify(flow.extracted, null, 2));
      expect(await value.textContent()).toContain(HOSTILE_VALUE_TEXT);
      expect(await value.locator('*').count()).toBe(0);
      await snapshot('13-flow-session');
      await expectNoBlockingViolations(page, 'a flow session');

      // A long value is whole in a dialog, scrollable and closed with Escape, focus back on its button.
      const showAll = answerCard(extracted?.id).getByRole('button', { name: 'Show all' });
      await showAll.click();
      const whole = page.getByRole('dialog', { name: 'Extracted value of turn 3' });
      await poll(() => whole.count()).toBe(1);
      expect(await whole.locator('pre').textContent()).toBe(JSON.stringify(flow.extracted, null, 2));
      await expectFocusTrapped(whole, 'several');
      await expectNoBlockingViolations(page, "an extracted value's whole JSON");
      await page.keyboard.press('Escape');
      await poll(() => whole.count()).toBe(0);
      expect(await showAll.evaluate((element: PageElement) => element === element.ownerDocument.activeElement)).toBe(true);

      // The evidence folded to cold storage opens in the viewer by the keyboard, its pixels read back.
      const evidence = `.answer-card[data-turn-id="${passed?.id}"] .evidence-link[data-image-id="${flow.coldEvidence.id}"]`;
      expect(flow.coldEvidence.zone).toBe('offloaded');
      await tabTo(evidence, { backwards: true });
      await page.keyboard.press('Enter');
      const viewer = page.getByRole('dialog', { name: `Screenshot ${flow.coldEvidence.id}` });
      await poll(() => viewer.locator('.viewer-image image').count()).toBe(1);
      expect(await viewer.locator('.zone-badge').textContent()).toBe('cold');
      expect(await viewer.locator('.viewer-details').textContent()).toContain('Evidence of turn 2Assertion');
      await snapshot('14-flow-evidence');
      await expectNoBlockingViolations(page, 'an evidence frame in the viewer');
      await page.keyboard.press('Escape');
      await poll(() => viewer.count()).toBe(0);
      expect(await isFocused(evidence)).toBe(true);

      // Every other evidence frame opens with a click.
      await answerCard(failed?.id).locator(`.evidence-link[data-image-id="${flow.membersFrame.id}"]`).click();
      const members = page.getByRole('dialog', { name: `Screenshot ${flow.membersFrame.id}` });
      await poll(() => members.locator('.viewer-image image').count()).toBe(1);
      expect(await members.locator('.viewer-details').textContent()).toContain(`Evidence of turn 5Assertion${HOSTILE_REASON}`);
      await page.keyboard.press('Escape');
      await poll(() => members.count()).toBe(0);
    } finally {
      await page.setViewportSize({ width: 1440, height: 900 });
    }
  });

  it('starts a run from the page and shows its events live, a question answered from the page', async () => {
    model.script([
      computerCall({ action: 'click', x: 640, y: 200 }, 'Clicking the invite field.'),
      toolCall('ask_user', { question: 'Which role should Alex get: viewer or editor?' }, 'I need to know the role.'),
      computerCall({ action: 'type', text: 'alex@example.com' }, 'Typing the address.'),
      finishCall('Invited Alex as a viewer.'),
    ]);
    await page.getByRole('button', { name: 'New task', exact: true }).click();
    const form = page.getByRole('dialog', { name: 'New task' });
    await form.getByLabel('Task', { exact: true }).fill('Invite alex@example.com to the workspace');
    await form.getByText('Attach context to this request').click();
    await form.getByRole('radio', { name: 'Quote' }).click();
    await form.getByRole('textbox', { name: 'Context' }).fill('Alex starts on Monday; give them the least access that works.');
    await snapshot('8-new-task');
    await expectNoBlockingViolations(page, 'the New task form');
    await form.getByRole('button', { name: 'Start' }).click();

    await poll(() => page.locator('.session-name').textContent()).toBe('Invite alex@example.com to the workspace');
    const question = page.getByRole('form', { name: "Answer the agent's question" });
    await poll(() => question.count()).toBe(1);
    expect(await question.textContent()).toContain('Which role should Alex get');
    expect(await page.locator('.run-state').textContent()).toContain('Running');
    await poll(() => page.locator('.step-row').count()).toBe(1);
    expect(await page.locator('.step-row').first().textContent()).toContain('Click (640, 200)');
    await snapshot('9-live-question');
    await expectNoBlockingViolations(page, 'a live run asking a question');

    await question.getByLabel('Your answer').fill('viewer');
    await question.getByRole('button', { name: 'Answer' }).click();
    await poll(() => page.getByRole('form', { name: "Answer the agent's question" }).count()).toBe(0);
    // The type action waits in the operator: the run is caught mid-way, its steps so far on the page.
    await poll(() => page.locator('.step-row').count()).toBe(2);
    expect(await page.locator('.turn-card .status-pill').textContent()).toBe('Running');
    releaseAction();
    await poll(() => page.locator('.turn-card .status-pill').textContent()).toBe('Finished');
    await poll(() => page.locator('.step-row').count()).toBe(4);
    await poll(() => page.locator('.turn-injections .injection-badge').textContent()).toContain('quote');
    await poll(() => page.locator('.run-controls').textContent()).toContain('Continue with a new task');
    await snapshot('10-live-finished');
  });

  it('starts a run with pictures picked, dropped and pasted, one removed, and shows them on the turn card', { timeout: scaledLimit(60_000) }, async () => {
    const [picked, dropped, pasted] = await Promise.all([1, 2, 3].map((seed) => makePng({ width: 120, height: 80, seed })));
    model.script([finishCall('The pictures show coloured blocks.')]);
    const requestsBefore = model.requests.length;
    await page.getByRole('button', { name: 'New task', exact: true }).click();
    const form = page.getByRole('dialog', { name: 'New task' });
    await form.getByLabel('Task', { exact: true }).fill('What do these pictures show?');

    await form.locator('input[type="file"]').setInputFiles([
      { name: 'picked.png', mimeType: 'image/png', buffer: picked! },
      { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a picture') },
    ]);
    await poll(() => form.locator('.picture-thumbnail').count()).toBe(1);
    expect(await form.getByRole('alert').textContent()).toBe('notes.txt: not a picture Sightline accepts (PNG, JPEG, WebP or GIF).');
    // A drop and a paste, as the browser delivers them: files in a DataTransfer.
    const deliver = (how: 'drop' | 'paste', name: string, bytes: Buffer) =>
      form.evaluate(
        (element: PageElement, file: { how: string; name: string; base64: string }) => {
          // The page's own constructors: the tests are compiled without the DOM's types.
          const page = globalThis as unknown as PageEventConstructors;
          const data = new page.DataTransfer();
          data.items.add(new File([Uint8Array.from(atob(file.base64), (character) => character.charCodeAt(0))], file.name, { type: 'image/png' }));
          if (file.how === 'drop') {
            element.dispatchEvent(new page.DragEvent('dragover', { bubbles: true, cancelable: true, dataTransfer: data }));
            element.dispatchEvent(new page.DragEvent('drop', { bubbles: true, cancelable: true, dataTransfer: data }));
          } else {
            element.querySelector('textarea')?.dispatchEvent(new page.ClipboardEvent('paste', { bubbles: true, cancelable: true, clipboardData: data }));
          }
        },
        { how, name, base64: bytes.toString('base64') },
      );
    const thumbnails = () => form.locator('.picture-thumbnail img').evaluateAll((images: PageElement[]) => images.map((image: PageElement) => image.getAttribute('alt')));
    await deliver('drop', 'dropped.png', dropped!);
    await poll(thumbnails).toEqual(['picked.png', 'dropped.png']);
    await deliver('paste', 'pasted.png', pasted!);
    await poll(thumbnails).toEqual(['picked.png', 'dropped.png', 'pasted.png']);
    // The pasted file went to the pictures, not into the task's text.
    expect(await form.locator('textarea[name="task"]').inputValue()).toBe('What do these pictures show?');
    await form.getByRole('button', { name: 'Remove dropped.png' }).click();
    await poll(() => form.locator('.picture-thumbnail').count()).toBe(2);
    await snapshot('11-new-task-pictures');
    await expectNoBlockingViolations(page, 'the New task form with pictures and a refused file');
    await form.getByRole('button', { name: 'Start' }).click();

    await poll(() => page.locator('.session-name').textContent()).toBe('What do these pictures show?');
    await poll(() => page.locator('.turn-card .status-pill').textContent()).toBe('Finished');
    await poll(() => page.locator('.turn-card .turn-picture img').count()).toBe(2);
    await snapshot('12-turn-pictures');
    await expectNoBlockingViolations(page, "a turn's pictures");

    const sessionId = (await page.locator('.session-item.selected').getAttribute('data-session-id')) ?? '';
    const stored = storage.images.listBySession(sessionId).filter((image) => image.source === 'user');
    expect(stored.map((image) => image.sha256)).toEqual([sha256Of(picked!), sha256Of(pasted!)]);
    const sentImages = (model.requests[requestsBefore]?.rawBody.match(/data:image\/png;base64,/g) ?? []).length;
    // The two pictures and the first screenshot.
    expect(sentImages).toBe(3);
  });

  it('catches up on a run that ended while its event stream was still connecting', async () => {
    // The page's stream is held before it reaches the server, as a slow connection or a reconnect would be.
    let connectStreams: () => void = () => {};
    const streamsHeld = new Promise<void>((release) => (connectStreams = release));
    let releaseRun: () => void = () => {};
    actionGate = new Promise<void>((release) => (releaseRun = release));
    const late = await browser.newPage({ viewport: { width: 1440, height: 900 }, colorScheme: 'dark' });
    let heldStreams = 0;
    await late.route('**/api/events?*', async (route) => {
      heldStreams += 1;
      await streamsHeld;
      await route.continue();
    });
    try {
      model.script([computerCall({ action: 'click', x: 10, y: 10 }, 'Clicking once.'), finishCall('Done while nobody listened.')]);
      await late.goto(server.url);
      await late.getByRole('button', { name: 'New task', exact: true }).click();
      const form = late.getByRole('dialog', { name: 'New task' });
      await form.getByLabel('Task', { exact: true }).fill('Click once, unobserved');
      await form.getByRole('button', { name: 'Start' }).click();
      await poll(() => late.locator('.session-name').textContent()).toBe('Click once, unobserved');
      // Read while the click waits in the operator.
      await poll(() => late.locator('.turn-card .status-pill').textContent()).toBe('Running');
      // One stream for the whole page, however many views listen.
      expect(heldStreams).toBe(1);

      const sessionId = (await late.locator('.session-item.selected').getAttribute('data-session-id')) ?? '';
      releaseRun();
      await poll(() => storage.turns.listBySession(sessionId).map((turn) => turn.status)).toEqual(['finished']);
      // Every event of the run went by while the stream was held: the page still shows what it read.
      expect(await late.locator('.turn-card .status-pill').textContent()).toBe('Running');

      connectStreams();
      await poll(() => late.locator('.turn-card .status-pill').textContent()).toBe('Finished');
      await poll(() => late.locator('.step-row').count()).toBe(2);
    } finally {
      releaseRun();
      connectStreams();
      actionGate = Promise.resolve();
      await late.close();
    }
  });

  it('deletes a session after asking', async () => {
    const item = page.locator(`.session-item[data-session-id="${seeded.others[1]?.id}"]`);
    await item.hover();
    await item.getByRole('button', { name: /Delete session/ }).click();
    expect(await item.locator('.delete-confirm').textContent()).toContain('Delete this session and its screenshots?');
    await item.getByRole('button', { name: 'Delete', exact: true }).click();
    await poll(() => item.count()).toBe(0);
    expect(storage.sessions.get(seeded.others[1]?.id ?? '')).toBeUndefined();
  });

  it('shows the API keys from the header: where each comes from, and that keys are saved in the desktop app', async () => {
    await page.getByRole('button', { name: 'API keys' }).click();
    const dialog = page.getByRole('dialog', { name: 'API keys' });
    await poll(() => dialog.locator('.api-key-row').count()).toBe(3);
    expect(await dialog.locator('.api-key-row').allTextContents()).toEqual(['Model providerSet in config.json', 'Anthropic (Claude)Not set', 'Tavily (web search)Not set']);
    expect(await dialog.textContent()).toContain('Keys are saved in the Sightline desktop app');
    expect(await dialog.locator('input[type="password"]').count()).toBe(0);
    expect(await dialog.textContent()).not.toContain(TEST_API_KEY);
    await snapshot('api-keys');
    await expectNoBlockingViolations(page, 'the API keys dialog');
    await page.keyboard.press('Escape');
    await poll(() => dialog.count()).toBe(0);
  });

  it('refuses every API request without the token', async () => {
    const base = `http://127.0.0.1:${server.port}`;
    const call = (headers: Record<string, string>) =>
      fetch(`${base}/api/listSessions`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: '[{}]' });
    expect((await call({})).status).toBe(401);
    expect((await call({ Authorization: 'Bearer not-the-token-0123456789' })).status).toBe(401);
    expect((await fetch(`${base}/api/events`)).status).toBe(401);
    expect((await fetch(`${base}/api/images/${seeded.coldImage.id}`)).status).toBe(401);
    expect((await call({ Authorization: `Bearer ${TOKEN}` })).status).toBe(200);
    // The page itself, opened without the token, has nothing to talk to and says so.
    const stranger = await browser.newPage();
    await stranger.goto(`${base}/`);
    await poll(() => stranger.locator('.badge').textContent()).toBe('Preview');
    expect(await stranger.locator('.session-item').count()).toBe(0);
    await stranger.close();
  });

  it('logged no CSP violation or error in the console', () => {
    expect(consoleProblems).toEqual([]);
  });
});
