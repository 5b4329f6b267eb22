/**
 * The timeline's Export report, in a browser opened on `sightline timeline`'s HTTP server over a seeded store:
 * the session header's button builds the report through the app API (exportReport) and hands it over as a
 * download, the same self-contained file `sightline report --html` writes. A session that is not there is
 * refused by the API with not-found.
 */
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppService, type AppService } from '../../src/main/api/app-service.js';
import { startTimelineServer, type TimelineServer } from '../../src/main/api/http/http-server.js';
import type { Storage } from '../../src/main/storage/index.js';
import { DEFAULT_CONFIG } from '../../src/shared/config.js';
import { expectNoBlockingViolations } from '../helpers/accessibility-audit.js';
import { builtRenderer } from '../helpers/built-cli.js';
import { failingFlow, type SeededFlow } from '../helpers/report-sessions.js';
import { createTemporaryHome, openHomeStorage, type TemporaryHome } from '../helpers/seed.js';
import { launchTimelineBrowser } from './support/timeline-browser.js';
import { scaledLimit } from '../helpers/time-limits.js';

const TOKEN = 'report-export-test-token-0123456789';

let home: TemporaryHome;
let storage: Storage;
let flow: SeededFlow;
let service: AppService;
let server: TimelineServer;
let browser: Browser;
let page: Page;
const problems: string[] = [];

beforeAll(async () => {
  home = createTemporaryHome('sightline-report-export');
  storage = openHomeStorage(home);
  flow = await failingFlow(storage);
  service = createAppService({ storage, config: DEFAULT_CONFIG, home: home.root, appInfo: () => ({ version: '0.1.0', platform: 'linux' }) });
  server = await startTimelineServer({ implementation: service.implementation, events: service.events, rendererDirectory: builtRenderer(), token: TOKEN, dispatch: service.dispatch });
  browser = await launchTimelineBrowser();
  page = await browser.newPage({ viewport: { width: 1440, height: 900 }, colorScheme: 'dark', acceptDownloads: true });
  page.on('console', (message) => {
    if (message.type() === 'error' || /Content Security Policy|Refused to/i.test(message.text())) problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(server.url);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await service?.close();
  storage?.close();
  home?.remove();
});

describe("the timeline's Export report", () => {
  it('downloads the session as one self-contained HTML report', async () => {
    await page.locator(`.session-item[data-session-id="${flow.session.id}"] .session-open`).click();
    const button = page.getByRole('button', { name: 'Export report' });
    await expect.poll(() => button.isVisible(), { timeout: scaledLimit(15_000) }).toBe(true);
    await expectNoBlockingViolations(page, 'session with Export report');
    const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
    expect(download.suggestedFilename()).toBe(`sightline-${flow.session.id}.html`);
    const html = readFileSync((await download.path())!, 'utf8');
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).toContain('a toast says the invite was sent');
    expect(html).toContain("default-src &#x27;none&#x27;");
    await expect.poll(() => page.locator('.export-report-status').textContent()).toMatch(new RegExp(`^Exported sightline-${flow.session.id}\\.html \\(\\d+ KB\\)$`));
    expect(problems).toEqual([]);
  });

  it('is refused for a session that is not there', async () => {
    const response = await page.request.post(`${server.url.split('#')[0]!.replace(/\/$/, '')}/api/exportReport`, {
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      data: JSON.stringify([{ sessionId: 'ses_0123456789ab' }]),
    });
    expect(response.status()).toBe(404);
    expect(await response.text()).toContain('There is no session ses_0123456789ab.');
  });
});
