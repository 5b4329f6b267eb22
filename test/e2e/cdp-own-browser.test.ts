/**
 * Acting in the person's own browser: a real Chromium started here the way docs/flows.md tells a person to start
 * Chrome (a debugging port, a user-data-dir of its own), the person "logged in by hand" (the session cookie set
 * through the test's own CDP connection) with a tab of their own open, then `sightline flow --cdp` (or a flow's
 * target.cdpEndpoint, or Midscene's bridgeMode) spawned as a user runs it. The fake model answers from the frame it
 * is sent: the account page is green only for a request that carried the person's cookie. After the run the
 * person's tab and the browser are still there, and Sightline's tab is gone.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { decodeImageBytes } from '../../src/main/perception/image-encoding.js';
import { findBrowserExecutable } from '../../src/main/operators/browser-executable.js';
import { startFakeOpenAiServer, type FakeOpenAiServer, type RecordedRequest } from '../helpers/fake-openai-server.js';
import { scriptedMoves } from '../helpers/scripted-computer-model.js';
import { createTemporaryHome, type TemporaryHome } from '../helpers/seed.js';
import { hasBrowser } from '../helpers/browser-agent.js';
import { Sightline } from '../../src/main/automation/index.js';
import { runSightlineProcess, startSightline } from './support/sightline-process.js';
import { scaledLimit } from '../helpers/time-limits.js';

const SESSION_COOKIE = { name: 'session', value: 'ada-signed-in-by-hand' };

interface SitePage {
  origin: string;
  /** The Cookie header of each request for the account page, in order. */
  cookies: string[];
  /** Every path asked for (a favicon included). */
  paths: string[];
  close(): Promise<void>;
}

/** The person's site: its page is green and says who is signed in when the session cookie comes with the request. */
async function startAccountSite(): Promise<SitePage> {
  const site: Omit<SitePage, 'origin' | 'close'> = { cookies: [], paths: [] };
  const server: Server = createServer((request, response) => {
    site.paths.push(request.url ?? '');
    if (request.url !== '/account') {
      response.writeHead(404).end();
      return;
    }
    const cookie = request.headers.cookie ?? '';
    site.cookies.push(cookie);
    const signedIn = cookie.includes(`${SESSION_COOKIE.name}=${SESSION_COOKIE.value}`);
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(
      `<!doctype html><title>Account</title><body style="margin:0;background:${signedIn ? '#00b000' : '#c00000'};font:40px sans-serif">` +
        `${signedIn ? 'Signed in as Ada' : 'Please sign in'}</body>`,
    );
  });
  return listening(server, site);
}

/** Another site, open in the person's own tab (and out of the flows' URL scope in the scope test). */
async function startOtherSite(): Promise<SitePage> {
  const site: Omit<SitePage, 'origin' | 'close'> = { cookies: [], paths: [] };
  const server: Server = createServer((request, response) => {
    site.paths.push(request.url ?? '');
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end('<!doctype html><title>Mail</title><body>Your inbox</body>');
  });
  return listening(server, site);
}

async function listening(server: Server, site: Omit<SitePage, 'origin' | 'close'>): Promise<SitePage> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(site, { origin, close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
}

interface PersonsChrome {
  child: ChildProcess;
  /** http://127.0.0.1:PORT, as a person passes it to --cdp. */
  endpoint: string;
  /** The test's own connection: the person's hands. */
  browser: Browser;
  /** The tab the person had open before Sightline came. */
  tab: Page;
  profile: string;
}

/** Chromium as docs/flows.md starts Chrome: headless here, on a free port (0: Chromium picks it and says which). */
async function startPersonsChrome(): Promise<PersonsChrome> {
  const profile = mkdtempSync(join(tmpdir(), 'sightline-persons-chrome-'));
  const executable = findBrowserExecutable({ env: process.env, platform: process.platform });
  const child = spawn(executable, ['--headless', '--no-sandbox', '--remote-debugging-port=0', `--user-data-dir=${profile}`, '--no-first-run', 'about:blank'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const endpoint = await new Promise<string>((resolve, reject) => {
    let seen = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /DevTools listening on ws:\/\/127\.0\.0\.1:(\d+)\//.exec(seen);
      if (match) resolve(`http://127.0.0.1:${match[1]}`);
    });
    child.once('exit', (code) => reject(new Error(`Chromium exited (${code}) before listening: ${seen.slice(-400)}`)));
  });
  const browser = await chromium.connectOverCDP(endpoint, { noDefaults: true });
  const context = browser.contexts()[0]!;
  const tab = context.pages()[0] ?? (await context.newPage());
  return { child, endpoint, browser, tab, profile };
}

async function stopPersonsChrome(chrome: PersonsChrome): Promise<void> {
  await chrome.browser.close().catch(() => undefined);
  if (chrome.child.exitCode === null && chrome.child.signalCode === null) {
    const exited = new Promise((resolve) => chrome.child.once('exit', resolve));
    chrome.child.kill('SIGTERM');
    await exited;
  }
  rmSync(chrome.profile, { recursive: true, force: true });
}

/** The browser's tabs as its own DevTools endpoint lists them: independent of any Playwright connection. */
async function openTabs(endpoint: string): Promise<string[]> {
  const response = await fetch(`${endpoint}/json/list`);
  const targets = (await response.json()) as Array<{ type: string; url: string }>;
  return targets.filter((target) => target.type === 'page').map((target) => target.url).sort();
}

/** The fake model's verdict on "am I signed in?", read from the last frame it was sent: green is signed in. */
async function signedInOnScreen(request: RecordedRequest): Promise<boolean> {
  const images = [...request.rawBody.matchAll(/data:image\/(?:png|jpeg|webp);base64,([A-Za-z0-9+/=]+)/g)];
  const last = images[images.length - 1];
  if (last === undefined) throw new Error('the model was sent no frame');
  const image = await decodeImageBytes(Buffer.from(last[1]!, 'base64'));
  const at = (Math.floor(image.height / 2) * image.width + Math.floor(image.width / 2)) * 4;
  const [red, green, blue] = [image.rgba[at]!, image.rgba[at + 1]!, image.rgba[at + 2]!];
  return green > 140 && red < 60 && blue < 60;
}

/** One `answer` for an assert step, its verdict what the frame shows. */
function assertsFromScreen(): (request: RecordedRequest) => Promise<ReturnType<ReturnType<typeof scriptedMoves>[number]>> {
  return async (request) => {
    const verdict = await signedInOnScreen(request);
    const reason = verdict ? 'The page says Signed in as Ada.' : 'The page asks to sign in.';
    return scriptedMoves([{ tool: 'answer', arguments: { verdict, reason, evidence: [] } }])[0]!(request);
  };
}

let account: SitePage;
let other: SitePage;

beforeAll(async () => {
  account = await startAccountSite();
  other = await startOtherSite();
});

afterAll(async () => {
  await account?.close();
  await other?.close();
});

let model: FakeOpenAiServer;
let home: TemporaryHome;
let folder: string;
let chrome: PersonsChrome;

beforeEach(async () => {
  model = await startFakeOpenAiServer();
  home = createTemporaryHome('sightline-cdp');
  folder = mkdtempSync(join(tmpdir(), 'sightline-cdp-flows-'));
  chrome = await startPersonsChrome();
  // The person signs in by hand (the cookie their login would set), and reads their mail in their own tab.
  await chrome.browser.contexts()[0]!.addCookies([{ ...SESSION_COOKIE, url: account.origin }]);
  await chrome.tab.goto(`${other.origin}/inbox`);
  account.cookies.length = 0;
  other.paths.length = 0;
});

afterEach(async () => {
  await stopPersonsChrome(chrome);
  await model.close();
  home.remove();
  rmSync(folder, { recursive: true, force: true });
});

function flowFile(name: string, text: string): string {
  const path = join(folder, name);
  writeFileSync(path, text);
  return path;
}

function runFlow(args: readonly string[]) {
  return runSightlineProcess(['--home', home.root, 'flow', ...args, '--base-url', model.baseUrl], { ACCOUNT_URL: `${account.origin}/account` });
}

async function expectPersonsBrowserUntouched(): Promise<void> {
  // The browser process runs on, the person's tab is open on their page, and Sightline's own tab is gone.
  expect(chrome.child.exitCode).toBeNull();
  expect(chrome.tab.isClosed()).toBe(false);
  expect(chrome.tab.url()).toBe(`${other.origin}/inbox`);
  expect(await openTabs(chrome.endpoint)).toEqual([`${other.origin}/inbox`]);
}

describe.skipIf(!hasBrowser)('acting in the person\'s own browser over CDP', () => {
  it('sightline flow --cdp opens a new tab, finds the person signed in, and leaves their tab and browser open', { timeout: scaledLimit(180_000) }, async () => {
    const file = flowFile('account.flow.yaml', 'name: Account\ntarget: { operator: browser, url: "${env.ACCOUNT_URL}" }\nsteps:\n  - assert: The page says I am signed in\n');
    model.script([assertsFromScreen()]);
    const run = await runFlow([file, '--cdp', chrome.endpoint]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('1 flow: 1 passed, 0 failed');
    // The page Sightline opened was asked for with the cookie the person's browser holds.
    expect(account.cookies).toEqual([`${SESSION_COOKIE.name}=${SESSION_COOKIE.value}`]);
    await expectPersonsBrowserUntouched();
  });

  it("a flow's target.cdpEndpoint attaches the same way, and a Midscene bridgeMode script runs over --cdp", { timeout: scaledLimit(240_000) }, async () => {
    const own = flowFile('own.flow.yaml', `name: Own\ntarget: { operator: browser, url: "\${env.ACCOUNT_URL}", cdpEndpoint: "${chrome.endpoint}" }\nsteps:\n  - assert: The page says I am signed in\n`);
    model.script([assertsFromScreen()]);
    const first = await runFlow([own]);
    expect(first.code, first.stderr).toBe(0);
    await expectPersonsBrowserUntouched();

    const midscene = flowFile('bridge.yaml', 'web:\n  url: "${ACCOUNT_URL}"\n  bridgeMode: newTabWithUrl\n  closeNewTabsAfterDisconnect: true\ntasks:\n  - name: check\n    flow:\n      - aiAssert: the page says I am signed in\n');
    // Without an endpoint the script is refused before anything starts, saying what bridge mode needs here.
    const refused = await runFlow([midscene]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('bridgeMode: newTabWithUrl acts in your own Chrome');
    expect(refused.stderr).toContain('--remote-debugging-port');
    expect(refused.stderr).toContain('--cdp http://127.0.0.1:9222');
    model.script([assertsFromScreen()]);
    const bridged = await runFlow([midscene, '--cdp', chrome.endpoint]);
    expect(bridged.code, bridged.stderr).toBe(0);
    expect(account.cookies).toHaveLength(2);
    await expectPersonsBrowserUntouched();
  });

  it("the URL scope holds in the person's browser: an out-of-scope page is refused, and their own tab on it is left alone", { timeout: scaledLimit(180_000) }, async () => {
    writeFileSync(join(home.root, 'config.json'), JSON.stringify({ agent: { allowedUrls: [`${account.origin}/*`] } }));
    const file = flowFile('scope.flow.yaml', `name: Scope\ntarget: { operator: browser, url: "\${env.ACCOUNT_URL}" }\nsteps:\n  - goto: ${other.origin}/inbox?from=sightline\n`);
    const run = await runFlow([file, '--cdp', chrome.endpoint]);
    // A URL the flow names outside the scope is refused at load, at its line, before the person's browser is
    // reached at all (issue 38); the browser's own scope holds what is known only as the flow runs.
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(`scope.flow.yaml:4:5: goto: ${other.origin}/inbox?from=sightline is outside agent.allowedUrls`);
    expect(model.requests).toHaveLength(0);
    // Sightline asked the other site for nothing; the person's tab there was neither closed nor sent back.
    expect(other.paths.filter((path) => path.includes('from=sightline'))).toEqual([]);
    await expectPersonsBrowserUntouched();
  });

  it('refuses an endpoint on another machine before anything starts, and never prints its token', { timeout: scaledLimit(120_000) }, async () => {
    const file = flowFile('remote.flow.yaml', 'name: Remote\ntarget: { operator: browser, url: "${env.ACCOUNT_URL}" }\nsteps:\n  - assert: The page says I am signed in\n');
    const run = await runFlow([file, '--cdp', 'wss://browsers.example.net/devtools/browser/abc?token=s3cr3t-t0ken']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('wss://browsers.example.net/… is not on this machine');
    expect(run.stderr).toContain('--allow-remote-cdp');
    expect(run.stderr + run.stdout).not.toContain('s3cr3t-t0ken');
    expect(model.requests).toHaveLength(0);
  });

  it('sightline run --cdp acts in a new tab of the person\'s browser and closes only that tab', { timeout: scaledLimit(180_000) }, async () => {
    model.script(scriptedMoves([{ finish: 'The account page shows Ada signed in.' }]));
    const run = await runSightlineProcess(
      ['--home', home.root, 'run', 'Check that I am signed in', '--cdp', chrome.endpoint, '--url', `${account.origin}/account`, '--base-url', model.baseUrl],
      {},
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(`browser operator on ${account.origin}/account`);
    expect(account.cookies).toEqual([`${SESSION_COOKIE.name}=${SESSION_COOKIE.value}`]);
    await expectPersonsBrowserUntouched();
  });

  it('Ctrl+C during a step closes only the tab Sightline opened', { timeout: scaledLimit(180_000) }, async () => {
    const file = flowFile('stop.flow.yaml', 'name: Stop\ntarget: { operator: browser, url: "${env.ACCOUNT_URL}" }\nsteps:\n  - assert: The page says I am signed in\n');
    let asked!: () => void;
    const modelAsked = new Promise<void>((resolve) => (asked = resolve));
    model.script([
      () => {
        asked();
        return { type: 'hang' };
      },
    ]);
    const run = startSightline(['--home', home.root, 'flow', file, '--cdp', chrome.endpoint, '--base-url', model.baseUrl], { ACCOUNT_URL: `${account.origin}/account` });
    // Sightline exiting before the model is asked is a failure, not a wait until the timeout.
    await Promise.race([modelAsked, run.exited.then((exit) => Promise.reject(new Error(`sightline exited ${exit.code} before the step: ${exit.stderr}`)))]);
    // Sightline's tab is open while the step runs.
    expect(await openTabs(chrome.endpoint)).toEqual([`${account.origin}/account`, `${other.origin}/inbox`].sort());
    run.child.kill('SIGINT');
    const exit = await run.exited;
    expect(exit.code, exit.stderr).toBe(3);
    await expectPersonsBrowserUntouched();
  });

  it('Sightline.connect acts in a new tab, or in the tab in front with tab: current, and close() leaves the person\'s tab', { timeout: scaledLimit(180_000) }, async () => {
    model.script([assertsFromScreen()]);
    const agent = await Sightline.connect({ cdp: chrome.endpoint, home: home.root, env: {}, baseUrl: model.baseUrl, url: `${account.origin}/account` });
    await agent.assert('The page says I am signed in');
    await agent.close();
    await expectPersonsBrowserUntouched();

    // The person opens the account page in their own tab, and asks Sightline to look at the tab in front.
    await chrome.tab.goto(`${account.origin}/account`);
    await chrome.tab.bringToFront();
    model.script([assertsFromScreen()]);
    const current = await Sightline.connect({ cdp: chrome.endpoint, tab: 'current', home: home.root, env: {}, baseUrl: model.baseUrl });
    await current.assert('The page says I am signed in');
    await current.close();
    expect(chrome.tab.isClosed()).toBe(false);
    expect(await openTabs(chrome.endpoint)).toEqual([`${account.origin}/account`]);
    expect(chrome.child.exitCode).toBeNull();

    await expect(Sightline.connect({ cdp: 'http://10.0.0.8:9222', home: home.root, env: {} })).rejects.toThrow(/not on this machine/);
  });
});
