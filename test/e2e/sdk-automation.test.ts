/**
 * The SDK (src/main/automation) on a real Chromium page, with the fake OpenAI server as the model: one session for
 * the whole automation, a turn per verb, answers checked against their schema and stored with their evidence,
 * waitFor asking the model again only when the screen changed, and secrets typed from the script, never sent.
 */
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AssertionFailedError, Sightline, StepFailedError, WaitTimeoutError, type SightlineAgent } from '../../src/main/automation/index.js';
import { BROWSER_LAUNCH_ARGUMENTS } from '../../src/main/operators/browser-launch-arguments.js';
import { findBrowserExecutable } from '../../src/main/operators/browser-executable.js';
import { startCartPage, type CartPageServer } from '../helpers/cart-page.js';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../helpers/fake-openai-server.js';
import { scriptedMoves, type RequestSummary } from '../helpers/scripted-computer-model.js';
import { createTemporaryHome, openHomeStorage, type TemporaryHome } from '../helpers/seed.js';

let pageServer: CartPageServer;
let pageUrl: string;
let browser: Browser;

beforeAll(async () => {
  pageServer = await startCartPage();
  pageUrl = pageServer.url;
  browser = await chromium.launch({
    executablePath: findBrowserExecutable({ env: process.env, platform: process.platform }),
    args: [...BROWSER_LAUNCH_ARGUMENTS, '--no-sandbox'],
  });
});

afterAll(async () => {
  await browser?.close();
  await pageServer.close();
});

let model: FakeOpenAiServer;
let home: TemporaryHome;
let page: Page;
let agent: SightlineAgent | undefined;

beforeEach(async () => {
  model = await startFakeOpenAiServer();
  home = createTemporaryHome('sightline-sdk');
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(pageUrl);
});

afterEach(async () => {
  await agent?.close();
  agent = undefined;
  await page.close();
  await model.close();
  home.remove();
});

function attach(options: Parameters<typeof Sightline.attach>[1] = {}): Promise<SightlineAgent> {
  return Sightline.attach(page, { home: home.root, env: {}, baseUrl: model.baseUrl, model: 'gpt-4.1', ...options });
}

/** The id of the latest screenshot a request shows, as the model reads it (`<img_…>`). */
function latestImageId(request: RequestSummary): string {
  const ids = [...request.text.matchAll(/<(img_[0-9a-f]{12})>/g)].map((match) => match[1]!);
  if (ids.length === 0) throw new Error('the request names no screenshot');
  return ids.at(-1)!;
}

describe('the SDK on a page the test owns (Sightline.attach)', () => {
  it('acts, asserts and extracts in one session, each answer checked and stored with its evidence', { timeout: 60_000 }, async () => {
    const seen: RequestSummary[] = [];
    model.script(
      scriptedMoves(
        [
          { action: { action: 'click', x: 250, y: 120 } },
          { action: { action: 'type', text: 'apple' } },
          { finish: 'Typed apple.' },
          { tool: 'answer', argumentsFrom: (request) => ({ verdict: true, reason: 'The field shows apple.', evidence: [latestImageId(request)] }) },
          { tool: 'answer', arguments: { value: { amount: 12.5 }, reason: 'The total reads $12.50.', evidence: [] } },
        ],
        (summary) => seen.push(summary),
      ),
    );
    agent = await attach();
    await agent.do('Type apple into the name field');
    expect(await page.inputValue('#name')).toBe('apple');
    const asserted = await agent.assert('The name field shows apple');
    const total = await agent.extract('the cart total', z.object({ amount: z.number() }));
    expect(total.amount).toBe(12.5);

    // An answering step offers the answer and the tools that only look, never the computer.
    expect(seen[3]!.toolNames.sort()).toEqual(['answer', 'crop_image', 'get_history_image']);
    expect(seen[4]!.text).toContain('"amount"');
    expect(asserted.evidence).toHaveLength(1);

    const storage = openHomeStorage(home);
    try {
      const turns = storage.turns.listBySession(agent.sessionId);
      expect(turns.map((turn) => [turn.stepKind, turn.status])).toEqual([['do', 'finished'], ['assert', 'finished'], ['extract', 'finished']]);
      expect(turns[1]!.answer).toEqual({ kind: 'verdict', value: true, reason: 'The field shows apple.', evidence: asserted.evidence });
      expect(storage.images.get(asserted.evidence[0]!)?.sessionId).toBe(agent.sessionId);
      // No evidence named: the screenshot the model was looking at.
      expect(turns[2]!.answer?.evidence).toHaveLength(1);
      expect(turns[2]!.answer?.value).toEqual({ amount: 12.5 });
    } finally {
      storage.close();
    }
    expect(agent.steps.map((step) => step.status)).toEqual(['passed', 'passed', 'passed']);
  });

  it('throws AssertionFailedError with the reason and the evidence when the statement is false', { timeout: 60_000 }, async () => {
    model.script(scriptedMoves([{ tool: 'answer', arguments: { verdict: false, reason: 'The total is $12.50, not $10.', evidence: [] } }]));
    agent = await attach();
    const failure = await agent.assert('The total is $10').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AssertionFailedError);
    const error = failure as AssertionFailedError;
    expect(error.reason).toBe('The total is $12.50, not $10.');
    expect(error.evidence).toHaveLength(1);
    expect(error.message).toContain('sightline sessions show');
    expect(agent.steps[0]!.status).toBe('failed');
  });

  it('sends an answer that does not fit back once, then fails the step saying why', { timeout: 60_000 }, async () => {
    model.script(
      scriptedMoves([
        { tool: 'answer', arguments: { value: { amount: 'twelve' }, reason: 'It says twelve.', evidence: [] } },
        { tool: 'answer', arguments: { value: { amount: 12.5 }, reason: 'The total reads $12.50.', evidence: [] } },
        { tool: 'answer', arguments: { value: 'nothing', reason: 'Unsure.', evidence: [] } },
        { tool: 'answer', arguments: { value: { amount: 12.5 }, reason: 'The total reads $12.50.', evidence: ['img_000000000000'] } },
      ]),
    );
    agent = await attach();
    const schema = z.object({ amount: z.number() });
    await expect(agent.extract('the cart total', schema)).resolves.toEqual({ amount: 12.5 });
    expect(model.requests.at(-1)!.rawBody).toContain('does not fit');

    const failure = await agent.extract('the cart total', schema).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StepFailedError);
    expect((failure as Error).message).toMatch(/did not fit twice/);
    expect((failure as Error).message).toContain('img_000000000000');
    expect(model.requests).toHaveLength(4);
  });

  it('asks the model again only when the screen changes while it waits', { timeout: 60_000 }, async () => {
    model.script([
      ...scriptedMoves(
        [{ tool: 'answer', arguments: { verdict: false, reason: 'Still processing.', evidence: [] } }],
        // The page changes once the model has seen it: the next answer is asked about the changed screen.
        () => void page.evaluate("document.querySelector('#banner').textContent = 'Order placed'"),
      ),
      ...scriptedMoves([{ tool: 'answer', arguments: { verdict: true, reason: 'The banner says Order placed.', evidence: [] } }]),
    ]);
    agent = await attach();
    const step = await agent.waitFor('The "Order placed" banner is visible', { timeout: '30s', pollMs: 50 });
    expect(step.answer?.value).toBe(true);
    expect(model.requests).toHaveLength(2);
  });

  it('gives up when the time is up without asking the model about a screen that did not change', { timeout: 60_000 }, async () => {
    model.script(scriptedMoves([{ tool: 'answer', arguments: { verdict: false, reason: 'Still processing.', evidence: [] } }]));
    agent = await attach();
    const failure = await agent.waitFor('The "Order placed" banner is visible', { timeout: 1500, pollMs: 50 }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(WaitTimeoutError);
    expect((failure as Error).message).toContain('Still processing.');
    expect(model.requests).toHaveLength(1);
  });

  it('types a secret from the script for its placeholder; the model, the database and the events never see the value', { timeout: 60_000 }, async () => {
    const secret = 'hunter2-sesame-91';
    const events: string[] = [];
    model.script(
      scriptedMoves([
        { action: { action: 'click', x: 250, y: 120 } },
        { action: { action: 'type', text: '{{SHOP_PASSWORD}}' } },
        { finish: 'Typed the password.' },
      ]),
    );
    agent = await attach({ secrets: { SHOP_PASSWORD: secret }, onEvent: (event) => events.push(JSON.stringify(event)) });
    await agent.do('Type {{SHOP_PASSWORD}} into the name field');
    expect(await page.inputValue('#name')).toBe(secret);
    expect(model.requests.map((request) => request.rawBody).join('\n')).not.toContain(secret);
    // The model was told how to type the placeholder, in the request only.
    expect(model.requests[0]!.rawBody).toContain('stands for a secret');
    expect(events.join('\n')).not.toContain(secret);
    expect(events.join('\n')).toContain('{{SHOP_PASSWORD}}');
    const storage = openHomeStorage(home);
    try {
      const stored = JSON.stringify([storage.steps.listBySession(agent.sessionId), storage.turns.listBySession(agent.sessionId)]);
      expect(stored).not.toContain(secret);
      expect(stored).toContain('{{SHOP_PASSWORD}}');
    } finally {
      storage.close();
    }
  });

  it('leaves the page and its browser open when it closes', { timeout: 60_000 }, async () => {
    agent = await attach();
    await agent.close();
    agent = undefined;
    expect(await page.title()).toBe('Cart');
  });
});

describe('Sightline.launch', () => {
  it('opens its own browser at the URL and names the session for its flow', { timeout: 60_000 }, async () => {
    model.script(scriptedMoves([{ tool: 'answer', arguments: { verdict: true, reason: 'The total is shown.', evidence: [] } }]));
    agent = await Sightline.launch({ home: home.root, env: {}, baseUrl: model.baseUrl, url: pageUrl, flowName: 'Checkout' });
    await agent.assert('A total is shown');
    const storage = openHomeStorage(home);
    try {
      expect(storage.sessions.get(agent.sessionId)).toMatchObject({ title: 'Checkout', flowName: 'Checkout', operator: 'browser' });
    } finally {
      storage.close();
    }
  });

  it('says what is wrong with its options before anything starts', async () => {
    await expect(Sightline.launch({ home: home.root, env: {}, confirm: 'sometimes' as never })).rejects.toThrow(/agent\.confirm|option confirm/);
    await expect(Sightline.launch({ home: home.root, env: {}, secrets: { 'not a name': 'x' } })).rejects.toThrow(/not a name/);
  });
});
