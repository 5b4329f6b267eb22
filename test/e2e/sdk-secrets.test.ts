/**
 * Issue 33, findings 10 and 19, through the SDK: a script's `secrets` are refused at launch when too short to
 * be masked (named, never quoted), a 4-character one is masked where the model echoes it, and a secret is typed
 * only during a step whose text holds its placeholder: in another step the model's typing of it is refused, it is
 * told why, and the page gets nothing.
 */
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Sightline, SightlineSetupError, type SightlineAgent } from '../../src/main/automation/index.js';
import { BROWSER_LAUNCH_ARGUMENTS } from '../../src/main/operators/browser-launch-arguments.js';
import { findBrowserExecutable } from '../../src/main/operators/browser-executable.js';
import { startCartPage, NAME_FIELD, type CartPageServer } from '../helpers/cart-page.js';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../helpers/fake-openai-server.js';
import { everythingStored } from '../helpers/raw-database.js';
import { scriptedMoves } from '../helpers/scripted-computer-model.js';
import { createTemporaryHome, type TemporaryHome } from '../helpers/seed.js';

let pageServer: CartPageServer;
let browser: Browser;

beforeAll(async () => {
  pageServer = await startCartPage();
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
  home = createTemporaryHome('sightline-sdk-secrets');
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(pageServer.url);
});

afterEach(async () => {
  await agent?.close();
  agent = undefined;
  await page.close();
  await model.close();
  home.remove();
});

function attach(secrets: Record<string, string>): Promise<SightlineAgent> {
  return Sightline.attach(page, { home: home.root, env: {}, baseUrl: model.baseUrl, model: 'gpt-4.1', secrets });
}

describe("the SDK's secrets", () => {
  it('finding 10: a secret shorter than 4 characters is refused at launch, by name, without its value', { timeout: 60_000 }, async () => {
    const refused = await attach({ CARD_PIN: 'zq7' }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(SightlineSetupError);
    expect((refused as Error).message).toMatch(/secrets: secret CARD_PIN is shorter than 4 characters/);
    expect((refused as Error).message).not.toContain('zq7');
    expect(model.requests).toHaveLength(0);
  });

  it('finding 10: a 4-character secret the model echoes is stored masked', { timeout: 60_000 }, async () => {
    const pin = 'zq47';
    model.script(
      scriptedMoves([
        { action: { action: 'click', ...NAME_FIELD } },
        { action: { action: 'type', text: '{{CARD_PIN}}' }, thought: `The PIN is ${pin}.` },
        { finish: `Typed ${pin}.` },
      ]),
    );
    agent = await attach({ CARD_PIN: pin });
    await agent.do('Type {{CARD_PIN}} into the name field');
    expect(await page.inputValue('#name')).toBe(pin);
    const stored = everythingStored(home.databaseFile);
    expect(stored).toContain('Typed [redacted].');
    expect(stored).not.toMatch(new RegExp(`(?<![A-Za-z0-9])${pin}(?![A-Za-z0-9])`, 'i'));
  });

  it('finding 19: a secret is typed only in a step whose text holds its placeholder', { timeout: 90_000 }, async () => {
    const secret = 'open-sesame-4471';
    model.script(
      scriptedMoves([
        { action: { action: 'click', ...NAME_FIELD } },
        { action: { action: 'type', text: 'shoes {{SHOP_PASSWORD}}' } },
        { finish: 'Could not type it.' },
        { action: { action: 'type', text: '{{SHOP_PASSWORD}}' } },
        { finish: 'Typed the password.' },
      ]),
    );
    agent = await attach({ SHOP_PASSWORD: secret });
    await agent.do('Search the shop for shoes');
    // Refused whole: neither the secret nor the rest of that action was typed.
    expect(await page.inputValue('#name')).toBe('');
    const told = model.requests.map((request) => request.rawBody).filter((body) => body.includes('{{SHOP_PASSWORD}} stands for a secret this step does not name'));
    expect(told).toHaveLength(1);
    await agent.do('Type {{SHOP_PASSWORD}} into the name field');
    expect(await page.inputValue('#name')).toBe(secret);
    expect(everythingStored(home.databaseFile)).not.toContain(secret);
  });
});
