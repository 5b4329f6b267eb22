/**
 * What the desktop operator lacks, in a real Chromium over the HTTP transport of `sightline timeline` (the
 * timeline on a server), with a checker that sees a Wayland session without XWayland. No banner: the desktop
 * app's permissions panel is not shown there (issue 38). The New task form says what the desktop lacks, once,
 * quietly, under the operator where the desktop is chosen; axe finds nothing serious in it; a desktop task is
 * refused with the same message; once DISPLAY is there, the form, which asks afresh when it opens, says nothing.
 * The panel itself is the desktop app's (IPC), rendered in test/unit/renderer-permissions-panel.dom.test.tsx.
 */
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchTimelineBrowser } from './support/timeline-browser.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, type Config } from '../../src/shared/config.js';
import { createAppService, type AppService } from '../../src/main/api/app-service.js';
import { startTimelineServer, type TimelineServer } from '../../src/main/api/http/http-server.js';
import { createDesktopPermissions, TERMINAL_GRANTEE } from '../../src/main/app/permissions/index.js';
import type { Storage } from '../../src/main/storage/index.js';
import { TEST_API_KEY } from '../helpers/agent-harness.js';
import { builtRenderer } from '../helpers/built-cli.js';
import { FakeOperator } from '../helpers/fake-operator.js';
import { createTemporaryHome, openHomeStorage, type TemporaryHome } from '../helpers/seed.js';
import { scaledLimit } from '../helpers/time-limits.js';

const ROOT = resolve(import.meta.dirname, '../..');
const AXE = join(ROOT, 'node_modules/axe-core/axe.min.js');
const TOKEN = 'permissions-panel-test-token-0123456789';

/** What the checker reads: the test gives the session its DISPLAY back half-way. */
const sessionEnvironment: Record<string, string | undefined> = { XDG_SESSION_TYPE: 'wayland', WAYLAND_DISPLAY: 'wayland-0' };

let home: TemporaryHome;
let storage: Storage;
let service: AppService;
let server: TimelineServer;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

function poll<Value>(read: () => Promise<Value> | Value) {
  return expect.poll(read, { timeout: scaledLimit(15_000), interval: 50 });
}

beforeAll(async () => {
  home = createTemporaryHome('sightline-permissions-panel');
  storage = openHomeStorage(home);
  const config: Config = {
    ...DEFAULT_CONFIG,
    model: { ...DEFAULT_CONFIG.model, name: 'gpt-4.1', baseUrl: 'http://127.0.0.1:9/v1', apiKey: TEST_API_KEY, maxRetries: 0 },
  };
  service = createAppService({
    storage,
    config,
    home: home.root,
    appInfo: () => ({ version: '0.1.0', platform: 'linux' }),
    operatorFactory: async () => new FakeOperator(),
    watchSettling: false,
    permissions: createDesktopPermissions({ probe: { platform: 'linux', env: sessionEnvironment, grantee: TERMINAL_GRANTEE } }),
  });
  server = await startTimelineServer({ implementation: service.implementation, events: service.events, rendererDirectory: builtRenderer(), token: TOKEN, dispatch: service.dispatch });
  browser = await launchTimelineBrowser();
  // bypassCSP: only so that axe can be injected; the CSP itself is timeline-ui.test.ts's business.
  page = await browser.newPage({ viewport: { width: 1280, height: 800 }, colorScheme: 'dark', bypassCSP: true });
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto(server.url);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await service?.close();
  storage?.close();
  home?.remove();
});

describe('the desktop requirements in the timeline served to a browser', () => {
  it('shows no banner; the task form says what the desktop lacks under the operator, with nothing serious for axe', async () => {
    await page.getByRole('button', { name: 'New task' }).click();
    await page.getByRole('textbox', { name: 'Task' }).fill('Open the calculator');
    await page.getByRole('combobox', { name: 'Operator' }).selectOption('desktop');
    const note = page.locator('#operator-note');
    await poll(() => note.isVisible()).toBe(true);
    const said = (await note.textContent()) ?? '';
    expect(said).toMatch(/^Desktop tasks cannot run here: DISPLAY is not set: this is a Wayland session without XWayland, and screen capture and input need X11; to fix: log in to an X11 session .*, or enable XWayland so that DISPLAY is set\.$/);
    expect(said).not.toMatch(/permission/i);
    expect(await page.getByRole('combobox', { name: 'Operator' }).getAttribute('aria-describedby')).toBe('operator-note');
    // The form has the status by now, so a banner would be up too: a server's timeline has none.
    expect(await page.locator('.permissions-panel').count()).toBe(0);
    // Browser tasks are not held up by it.
    await page.getByRole('combobox', { name: 'Operator' }).selectOption('browser');
    expect(await note.count()).toBe(0);
    await page.getByRole('combobox', { name: 'Operator' }).selectOption('desktop');

    await page.addScriptTag({ path: AXE });
    for (const scheme of ['dark', 'light'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      const violations = await page.evaluate(async () => {
        const axe = (globalThis as unknown as { axe: { run: (context: string) => Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }> } }).axe;
        const result = await axe.run('.operator-note');
        return result.violations.map((violation) => `${violation.impact} ${violation.id} (${violation.nodes.length})`);
      });
      expect(violations.filter((violation) => /^(serious|critical) /.test(violation)), scheme).toEqual([]);
    }
    await page.emulateMedia({ colorScheme: 'dark' });
  });

  it('refuses a desktop task in the New task form with the message naming what is missing', async () => {
    await page.getByRole('button', { name: 'Start' }).click();
    const failure = page.getByRole('alert');
    await poll(() => failure.textContent()).toContain('The desktop operator cannot run yet. X11 display is missing');
    expect(await failure.textContent()).toContain('log in to an X11 session');
    await page.getByRole('button', { name: 'Cancel' }).click();
    expect((await service.implementation.listSessions({ limit: 10, offset: 0 })).total).toBe(0);
  });

  it('says nothing once the session has X11 again: the form asks afresh when it opens', async () => {
    sessionEnvironment['DISPLAY'] = ':0';
    await page.getByRole('button', { name: 'New task' }).click();
    await page.getByRole('combobox', { name: 'Operator' }).selectOption('desktop');
    await poll(() => page.locator('#operator-note').count()).toBe(0);
    await page.getByRole('button', { name: 'Cancel' }).click();
    expect(await page.locator('.permissions-panel').count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });
});
