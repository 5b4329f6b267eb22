/**
 * Replay through the SDK (Sightline.attach with `replay`) on a real Chromium page, with the fake OpenAI server as
 * the model: a step recorded once is replayed on the same page without a model call; on a page whose labels are
 * swapped, a banner moved everything, or a popup covers it, the replay stops before acting, the model heals that
 * step from the present screen, and the healed run is the next recording; a recorded secret is typed from the
 * script's value, never from the recording; a question's verdict is reused only on an identical frame.
 */
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Sightline, StepFailedError, type AgentEvent, type SightlineAgent } from '../../src/main/automation/index.js';
import { BROWSER_LAUNCH_ARGUMENTS } from '../../src/main/operators/browser-launch-arguments.js';
import { findBrowserExecutable } from '../../src/main/operators/browser-executable.js';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../helpers/fake-openai-server.js';
import { BANNER_HEIGHT, FIRST_ADD, NAME_INPUT, POPUP_ACCEPT, startReplayPage, type ReplayPageServer, type ReplayVariant } from '../helpers/replay-page.js';
import { scriptedMoves } from '../helpers/scripted-computer-model.js';
import { withRawDatabase } from '../helpers/raw-database.js';
import { createTemporaryHome, openHomeStorage, type TemporaryHome } from '../helpers/seed.js';

let shop: ReplayPageServer;
let browser: Browser;

beforeAll(async () => {
  shop = await startReplayPage();
  browser = await chromium.launch({
    executablePath: findBrowserExecutable({ env: process.env, platform: process.platform }),
    args: [...BROWSER_LAUNCH_ARGUMENTS, '--no-sandbox'],
  });
});

afterAll(async () => {
  await browser?.close();
  await shop.close();
});

let model: FakeOpenAiServer;
let home: TemporaryHome;
const opened: Array<{ agent: SightlineAgent; page: Page }> = [];

beforeEach(async () => {
  model = await startFakeOpenAiServer();
  home = createTemporaryHome('sightline-replay');
  shop.setVariant('same');
  shop.reports.length = 0;
});

afterEach(async () => {
  for (const { agent, page } of opened.splice(0)) {
    await agent.close();
    await page.close();
  }
  await model.close();
  home.remove();
});

/** A new page on the shop in the given variant, and an automation of the flow "Shop" on it. */
async function open(variant: ReplayVariant, options: Parameters<typeof Sightline.attach>[1] = {}): Promise<{ agent: SightlineAgent; page: Page }> {
  shop.setVariant(variant);
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(shop.url);
  const agent = await Sightline.attach(page, { home: home.root, env: {}, baseUrl: model.baseUrl, model: 'gpt-4.1', flowName: 'Shop', ...options });
  opened.push({ agent, page });
  return { agent, page };
}

/** Records "Add apples" on the plain page: the model clicks the first row's Add and finishes. */
async function recordAddApples(): Promise<void> {
  model.script(scriptedMoves([{ action: { action: 'click', ...FIRST_ADD } }, { finish: 'Added apples.' }]));
  const { agent } = await open('same');
  const step = await agent.do('Add apples to the cart');
  expect(step.replay?.mode).toBe('model');
  expect(added()).toEqual(['Apples']);
  shop.reports.length = 0;
}

function added(): string[] {
  return shop.reports.filter((report) => report.kind === 'added').map((report) => report.value);
}

describe('replaying a do step', () => {
  it('on the same page: the recorded click is done again with no model call', { timeout: 90_000 }, async () => {
    await recordAddApples();
    const before = model.requests.length;
    const events: AgentEvent[] = [];
    const { agent, page } = await open('same', { replay: true, onEvent: (event) => events.push(event) });
    const step = await agent.do('Add apples to the cart');
    expect(model.requests.length - before).toBe(0);
    // The turn-ended event says it too.
    expect(events.find((event) => event.type === 'turn-ended')).toMatchObject({ replay: { mode: 'replayed', modelCalls: 0, baselineModelCalls: 2 } });
    expect(step.replay).toMatchObject({ mode: 'replayed', replayedActions: 1, modelCalls: 0, baselineModelCalls: 2, saved: { modelCalls: 2 } });
    expect(added()).toEqual(['Apples']);
    expect(await page.textContent('#status')).toBe('Added Apples');

    // The replayed turn is recorded like the model's: its step, the screen it acted on, and `replayed`.
    const storage = openHomeStorage(home);
    try {
      const turn = storage.turns.get(step.turnId!)!;
      expect(turn.replay?.mode).toBe('replayed');
      const steps = storage.steps.listByTurn(turn.id);
      expect(steps.map((each) => each.action)).toEqual([{ action: 'click', ...FIRST_ADD }]);
      expect(steps[0]!.screenshotImageId).toMatch(/^img_/);
    } finally {
      storage.close();
    }
  });

  it('swapped labels in the same layout: no wrong click; the model heals the step from the present screen', { timeout: 90_000 }, async () => {
    await recordAddApples();
    const seen: string[] = [];
    // On the swapped page Apples is the second row.
    model.script(scriptedMoves([{ action: { action: 'click', x: FIRST_ADD.x, y: FIRST_ADD.y + 70 } }, { finish: 'Added apples.' }], (summary) => seen.push(summary.text)));
    const { agent } = await open('swapped', { replay: true });
    const step = await agent.do('Add apples to the cart');
    // The first row's Add (now Pears) was never clicked.
    expect(added()).toEqual(['Apples']);
    expect(step.replay?.mode).toBe('healed');
    expect(step.replay?.divergence).toMatchObject({ phase: 'before', action: 1, region: { x: 100, y: 140, width: 74, height: 20 } });
    expect(step.replay?.divergence?.reason).toContain('near the target');
    expect(step.replay?.modelCalls).toBe(2);
    // The model was told what was recorded there, and shown that frame by id.
    expect(seen[0]).toContain('the replay stopped');
    expect(seen[0]).toMatch(/The recorded screen the action was chosen on \(img_[0-9a-f]{12}\)/);
  });

  it('a banner that moves everything: healed, and the healed run is the next recording (no model the second time)', { timeout: 120_000 }, async () => {
    await recordAddApples();
    const moved = { x: FIRST_ADD.x, y: FIRST_ADD.y + BANNER_HEIGHT };
    model.script(scriptedMoves([{ action: { action: 'click', ...moved } }, { finish: 'Added apples.' }]));
    const first = await open('banner', { replay: true });
    const healed = await first.agent.do('Add apples to the cart');
    expect(healed.replay?.mode).toBe('healed');
    expect(healed.replay?.divergence?.reason).toContain('the whole screen changed');
    expect(added()).toEqual(['Apples']);

    shop.reports.length = 0;
    const before = model.requests.length;
    const second = await open('banner', { replay: true });
    const replayed = await second.agent.do('Add apples to the cart');
    expect(model.requests.length - before).toBe(0);
    expect(replayed.replay).toMatchObject({ mode: 'replayed', recordedTurnId: healed.turnId });
    expect(added()).toEqual(['Apples']);
  });

  it('a cookie popup that was not there: healed (the model accepts it, then adds)', { timeout: 90_000 }, async () => {
    await recordAddApples();
    model.script(scriptedMoves([{ action: { action: 'click', ...POPUP_ACCEPT } }, { action: { action: 'click', ...FIRST_ADD } }, { finish: 'Added apples.' }]));
    const { agent } = await open('popup', { replay: true });
    const step = await agent.do('Add apples to the cart');
    expect(step.replay?.mode).toBe('healed');
    expect(step.replay?.divergence?.phase).toBe('before');
    expect(shop.reports).toEqual([
      { kind: 'accepted', value: 'yes' },
      { kind: 'added', value: 'Apples' },
    ]);
  });

  it('a screen after the action unlike the recorded one: healed from there, the action not repeated blindly', { timeout: 90_000 }, async () => {
    await recordAddApples();
    const seen: string[] = [];
    model.script(scriptedMoves([{ finish: 'Apples are out of stock; nothing was added.', success: false }], (summary) => seen.push(summary.text)));
    const { agent } = await open('out-of-stock', { replay: true });
    const failure = await agent.do('Add apples to the cart').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StepFailedError);
    const step = agent.steps.at(-1)!;
    // The model ended the step without it done: a failed heal, which saves nothing (issue 36).
    expect(step.replay).toMatchObject({ mode: 'heal-failed', saved: { modelCalls: 0 } });
    expect(step.replay?.divergence).toMatchObject({ phase: 'after', action: 1 });
    expect(step.replay?.divergence?.reason).toMatch(/the whole screen changed|larger than a line of text/);
    // The click was done once (the screen before it was the recorded one); the model saw what it led to.
    expect(shop.reports).toEqual([{ kind: 'out-of-stock', value: 'Apples' }]);
    expect(seen[0]).toContain('had done action 1');
    expect(seen[0]).toContain('The recorded screen the action led to');
  });

  it('a step the model found already done replays as nothing only on the same screen: a popup now there is healed', { timeout: 90_000 }, async () => {
    model.script(scriptedMoves([{ finish: 'No cookie popup is shown; nothing to do.' }]));
    const recording = await open('same');
    await recording.agent.do('Accept the cookies if a popup asks');

    const before = model.requests.length;
    const same = await open('same', { replay: true });
    expect((await same.agent.do('Accept the cookies if a popup asks')).replay).toMatchObject({ mode: 'replayed', replayedActions: 0 });
    expect(model.requests.length - before).toBe(0);

    model.script(scriptedMoves([{ action: { action: 'click', ...POPUP_ACCEPT } }, { finish: 'Accepted the cookies.' }]));
    const popup = await open('popup', { replay: true });
    const healed = await popup.agent.do('Accept the cookies if a popup asks');
    expect(healed.replay?.mode).toBe('healed');
    expect(healed.replay?.divergence?.actionText).toBe('finish: the recorded run did nothing here');
    expect(shop.reports).toEqual([{ kind: 'accepted', value: 'yes' }]);
  });

  it('a recording whose screens can no longer be read (purged) is not trusted: the step is healed', { timeout: 90_000 }, async () => {
    await recordAddApples();
    // The recorded frames were deleted by the retention sweep (their rows marked purged).
    withRawDatabase(home.databaseFile, (database) => database.prepare("UPDATE images SET purged_at = '2026-11-27T00:00:00.000Z'").run());
    model.script(scriptedMoves([{ action: { action: 'click', ...FIRST_ADD } }, { finish: 'Added apples.' }]));
    const { agent } = await open('same', { replay: true });
    const step = await agent.do('Add apples to the cart');
    expect(step.replay?.mode).toBe('healed');
    expect(step.replay?.divergence?.reason).toMatch(/the recorded screen img_[0-9a-f]{12} can no longer be read/);
    expect(added()).toEqual(['Apples']);
  });

  it('with healing off, a divergence fails the step naming the action and the region, and nothing is clicked', { timeout: 90_000 }, async () => {
    await recordAddApples();
    const before = model.requests.length;
    const { agent } = await open('swapped', { replay: { heal: false } });
    const failure = await agent.do('Add apples to the cart').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StepFailedError);
    expect((failure as Error).message).toContain('diverged before action 1 (click (330, 150))');
    expect((failure as Error).message).toContain('the region at 100,140 74×20 changed near the target');
    expect(model.requests.length - before).toBe(0);
    expect(added()).toEqual([]);
  });
});

describe('what a replay types and reuses', () => {
  it('a recorded secret is typed from the present value, never from the recording', { timeout: 90_000 }, async () => {
    model.script(scriptedMoves([{ action: { action: 'click', ...NAME_INPUT } }, { action: { action: 'type', text: '{{SHOPPER}}' } }, { finish: 'Typed the name.' }]));
    const recording = await open('same', { secrets: { SHOPPER: 'Ada Lovelace' } });
    await recording.agent.do('Type {{SHOPPER}} into the name field');
    expect(await recording.page.inputValue('#name')).toBe('Ada Lovelace');

    const before = model.requests.length;
    const replay = await open('same', { secrets: { SHOPPER: 'Grace Hopper' }, replay: true });
    const step = await replay.agent.do('Type {{SHOPPER}} into the name field');
    expect(model.requests.length - before).toBe(0);
    expect(step.replay?.mode).toBe('replayed');
    expect(await replay.page.inputValue('#name')).toBe('Grace Hopper');

    const storage = openHomeStorage(home);
    try {
      const typed = storage.steps.listByTurn(step.turnId!).map((each) => each.action);
      expect(typed).toContainEqual({ action: 'type', text: '{{SHOPPER}}' });
      expect(JSON.stringify(typed)).not.toMatch(/Ada|Grace/);
    } finally {
      storage.close();
    }
  });

  it('an assertion reuses its recorded verdict on an identical frame, and asks the model on a changed one', { timeout: 90_000 }, async () => {
    model.script(scriptedMoves([{ tool: 'answer', arguments: { verdict: true, reason: 'The cart is empty.', evidence: [] } }]));
    const recording = await open('same');
    await recording.agent.assert('The cart is empty');

    const before = model.requests.length;
    const same = await open('same', { replay: true });
    const reused = await same.agent.assert('The cart is empty');
    expect(model.requests.length - before).toBe(0);
    expect(reused.replay).toMatchObject({ mode: 'replayed', reusedAnswer: true });
    expect(reused.answer?.value).toBe(true);

    model.script(scriptedMoves([{ tool: 'answer', arguments: { verdict: true, reason: 'Still empty, behind the clock.', evidence: [] } }]));
    const changed = await open('clock', { replay: true });
    const judged = await changed.agent.assert('The cart is empty');
    expect(model.requests.length - before).toBe(1);
    expect(judged.replay?.mode).toBe('model');
  });
});
