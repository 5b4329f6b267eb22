/**
 * A browser page as an operator, for automation that must not touch the real desktop: playwright-core
 * drives the system's Chromium or Chrome (headless by default), frames are the viewport's screenshots
 * (BrowserFrameSource) and input is Playwright's mouse and keyboard, in CSS pixels.
 *
 * Links that open a new tab or a popup are followed: the operator acts on the newest open page.
 *
 * The pages it may open are its scope (agent.allowedUrls, agent.blockedUrls, agent.allowFileUrls): a
 * navigation outside it is refused (browser-navigation-guard.ts) and the model is told (takeNotices).
 */
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { z } from 'zod';
import type { ComputerAction } from '../../shared/actions.js';
import type { Frame } from '../perception/frame.js';
import { performAction } from './action-performer.js';
import { findBrowserExecutable } from './browser-executable.js';
import { BROWSER_LAUNCH_ARGUMENTS } from './browser-launch-arguments.js';
import { BrowserFrameSource } from './browser-frame-source.js';
import { NavigationGuard } from './browser-navigation-guard.js';
import { PendingRequests } from './browser-pending-requests.js';
import { BrowserUrlScope, type BrowserUrlScopeSettings } from './browser-url-scope.js';
import { focusedFieldKind, focusedPasswordText, fieldKindAtPoint, passwordTextAtPoint } from './browser-field-reading.js';
import { mapModelPoint, type FrameGeometry, type Point } from './coordinates.js';
import type { ModelView } from '../../shared/model-view.js';
import type { ActionResult, FocusedFieldKind, Operator, OperatorDescription } from './operator.js';
import { sleepUnlessAborted, type Sleep } from './pause.js';
import { PlaywrightInput } from './playwright-input.js';

export interface Viewport {
  width: number;
  height: number;
}

export interface BrowserOperatorOptions {
  /** Page to open at launch; about:blank when absent. */
  url?: string | undefined;
  /** Without a window (default). A headed browser opens a window on the desktop, which is rarely wanted. */
  headless?: boolean | undefined;
  /** CSS pixels; 1280x800 by default. */
  viewport?: Viewport | undefined;
  /** The page's devicePixelRatio; 1 by default, 2 to see the page as a Retina screen shows it. */
  deviceScaleFactor?: number | undefined;
  /** The browser executable; otherwise SIGHTLINE_BROWSER_PATH, then the usual install locations. */
  executablePath?: string | undefined;
  env?: Record<string, string | undefined>;
  /** The URLs the operator may open; without it, any but file: URLs. */
  scope?: BrowserUrlScopeSettings | undefined;
  /** Resolves after the time, or early when the signal aborts (pause.ts). */
  sleep?: Sleep;
}

export const DEFAULT_VIEWPORT: Viewport = { width: 1280, height: 800 };

/** The browser could not be started or a page could not be opened; the message is fit to show a user. */
export class BrowserOperatorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BrowserOperatorError';
  }
}

const BrowserOperatorOptionsSchema = z.object({
  url: z.url().optional(),
  viewport: z.object({ width: z.number().int().min(100).max(7680), height: z.number().int().min(100).max(4320) }).optional(),
  deviceScaleFactor: z.number().min(0.5).max(4).optional(),
});

export class BrowserOperator implements Operator {
  private page: Page;
  private closed = false;
  private lastFrame: FrameGeometry | undefined;
  private readonly input: PlaywrightInput;
  private readonly sleep: Sleep;
  private readonly pendingRequests: PendingRequests;
  /** One frame source per page: it keeps the page's DevTools session and its open capture series. */
  private readonly frameSources = new WeakMap<Page, BrowserFrameSource>();

  private constructor(
    private readonly browser: Browser,
    private readonly context: BrowserContext,
    page: Page,
    private readonly deviceScaleFactor: number,
    private readonly scope: BrowserUrlScope,
    private readonly guard: NavigationGuard,
    options: BrowserOperatorOptions,
    /** Whether close() ends the browser: not when the page was the caller's (attach). */
    private readonly ownsBrowser = true,
  ) {
    this.page = page;
    this.input = new PlaywrightInput(() => this.page);
    this.sleep = options.sleep ?? sleepUnlessAborted;
    this.pendingRequests = new PendingRequests(context);
    context.on('page', (opened) => this.follow(opened));
  }

  /** Starts the browser, opens a page with the viewport asked for, and goes to `url` when given. */
  static async launch(options: BrowserOperatorOptions = {}): Promise<BrowserOperator> {
    const checked = BrowserOperatorOptionsSchema.safeParse(options);
    if (!checked.success) throw new BrowserOperatorError(`invalid browser options: ${z.prettifyError(checked.error)}`);
    const executablePath = findBrowserExecutable({ env: options.env ?? process.env, platform: process.platform }, options.executablePath);
    const deviceScaleFactor = options.deviceScaleFactor ?? 1;
    let browser: Browser;
    try {
      browser = await chromium.launch({
        executablePath,
        headless: options.headless ?? true,
        args: [...BROWSER_LAUNCH_ARGUMENTS],
        // Chromium's sandbox cannot run as root; Playwright adds --no-sandbox exactly when this is false.
        chromiumSandbox: !runsAsRootOnLinux(),
        // Playwright's own Ctrl+C handler closes the browser and exits the process with 130 at once, which
        // would cut a clean stop short: the caller owns SIGINT (the turn ends as stopped, then close()).
        handleSIGINT: false,
      });
    } catch (error) {
      throw new BrowserOperatorError(`cannot start the browser at ${executablePath}: ${firstLine(error)}`);
    }
    try {
      const context = await browser.newContext({ viewport: options.viewport ?? DEFAULT_VIEWPORT, deviceScaleFactor });
      const scope = BrowserUrlScope.from(options.scope);
      const guard = await NavigationGuard.install(context, scope);
      const operator = new BrowserOperator(browser, context, await context.newPage(), deviceScaleFactor, scope, guard, options);
      if (options.url) await operator.start(options.url);
      return operator;
    } catch (error) {
      await browser.close();
      throw error;
    }
  }

  /**
   * Drives a page the caller already has (a Playwright test's `page`): the same capture, input and URL scope
   * as a launched browser, on the caller's browser, which close() leaves running.
   */
  static async attach(page: Page, options: Pick<BrowserOperatorOptions, 'scope' | 'sleep'> = {}): Promise<BrowserOperator> {
    const context = page.context();
    const browser = context.browser();
    if (browser === null) throw new BrowserOperatorError('the page belongs to a persistent context without a browser object; attach a page of browser.newContext()');
    const scope = BrowserUrlScope.from(options.scope);
    const guard = await NavigationGuard.install(context, scope);
    const deviceScaleFactor = (await page.evaluate('window.devicePixelRatio').catch(() => 1)) as number;
    return new BrowserOperator(browser, context, page, typeof deviceScaleFactor === 'number' ? deviceScaleFactor : 1, scope, guard, options, false);
  }

  /** Goes to `url` in the page acted on, inside the scope (a flow's goto); a refusal or failure is the result. */
  async navigate(url: string): Promise<ActionResult> {
    try {
      await this.start(url);
      return { ok: true, detail: `opened ${url}` };
    } catch (error) {
      return { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
  }

  /** Navigates the current page to `url` and waits for it to load. */
  async start(url: string): Promise<void> {
    if (!z.url().safeParse(url).success) throw new BrowserOperatorError(`not a URL: ${url}`);
    const refusal = this.scope.refusal(url);
    if (refusal !== undefined) throw new BrowserOperatorError(`cannot open ${url}: ${refusal}`);
    const frame = this.page.mainFrame();
    try {
      await this.page.goto(url, { waitUntil: 'load' });
    } catch (error) {
      // A redirect is followed as a navigation of its own (browser-navigation-guard.ts): the first one ends aborted.
      const followed = this.guard.followsRedirect(frame);
      if (followed) await this.guard.untilRedirectsFollowed(frame);
      const landed = this.page.url();
      if (!followed || landed === 'about:blank' || landed.startsWith('chrome-error:')) {
        // Refused by the scope (at some hop), the refusal says why; else the browser's own error does.
        const refused = this.guard.takeNotices();
        throw new BrowserOperatorError(`cannot open ${url}: ${refused.length > 0 ? refused.join(' ') : firstLine(error)}`);
      }
    }
  }

  async capture(): Promise<Frame> {
    const frame = await this.frameSource().capture();
    this.lastFrame = { width: frame.width, height: frame.height, scaleFactor: frame.scaleFactor, bounds: frame.bounds };
    return frame;
  }

  /** The carets of the page captured are hidden once for the whole series (browser-carets.ts). */
  async aroundCaptures<T>(work: () => Promise<T>): Promise<T> {
    return this.frameSource().aroundCaptures(work);
  }

  async execute(action: ComputerAction, view: ModelView, signal?: AbortSignal): Promise<ActionResult> {
    const frame = this.lastFrame ?? (await this.capture());
    this.pendingRequests.markAction();
    return performAction(action, { view, frame, input: this.input, sleep: this.sleep, signal });
  }

  /**
   * The requests the last action started (a navigation's document, a button's fetch), then the load event
   * of the document now in the page (a navigation it committed), each within what is left of `remainingMs`.
   */
  async waitForPendingWork(remainingMs: number): Promise<void> {
    if (this.closed) return;
    const deadline = Date.now() + remainingMs;
    await this.pendingRequests.untilDone(deadline);
    const left = deadline - Date.now();
    // Without a navigation the page's load state cannot have changed: spare the round trip to the browser.
    if (left <= 0 || !this.pendingRequests.navigatedSinceAction()) return;
    // Past the cap, or a page closed meanwhile: the screen is watched as it is, the wait is only a courtesy.
    await this.page.waitForLoadState('load', { timeout: left }).catch(() => undefined);
  }

  /** The navigations refused since the last call, for the model (see Operator.takeNotices). */
  takeNotices(): string[] {
    return this.guard.takeNotices();
  }

  async releaseHeldInput(): Promise<void> {
    if (this.closed) return;
    await this.input.releaseHeldButtons();
  }

  describe(): OperatorDescription {
    const viewport = this.page.viewportSize() ?? DEFAULT_VIEWPORT;
    const url = this.page.url();
    return {
      kind: 'browser',
      target: url,
      displayId: null,
      url,
      screen: { width: viewport.width, height: viewport.height },
      scaleFactor: this.deviceScaleFactor,
    };
  }

  /** What has the keyboard focus in the page, looking into frames (a login form is often in an iframe). */
  focusedFieldKind(): Promise<FocusedFieldKind> {
    return focusedFieldKind(this.page);
  }

  /** The field under a point of the model's view, or under the pointer, looking into frames. */
  async fieldKindAt(place: Point | 'pointer', view: ModelView): Promise<FocusedFieldKind> {
    const point = await this.pagePoint(place, view);
    return point === undefined ? 'unknown' : fieldKindAtPoint(this.page, point);
  }

  async passwordFieldText(place: 'focused' | Point | 'pointer', view: ModelView): Promise<string | undefined> {
    if (place === 'focused') return focusedPasswordText(this.page);
    const point = await this.pagePoint(place, view);
    return point === undefined ? undefined : passwordTextAtPoint(this.page, point);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.ownsBrowser) await this.browser.close();
  }

  /** A point of the model's view in the page's CSS pixels (as an action there would land), or where the pointer is. */
  private async pagePoint(place: Point | 'pointer', view: ModelView): Promise<Point | undefined> {
    if (place === 'pointer') return this.input.pointer;
    const mapped = mapModelPoint(place, view, this.lastFrame ?? (await this.capture()));
    return mapped.ok ? mapped.screen : undefined;
  }

  private frameSource(): BrowserFrameSource {
    let source = this.frameSources.get(this.page);
    if (source === undefined) {
      source = new BrowserFrameSource(this.page);
      this.frameSources.set(this.page, source);
    }
    return source;
  }

  /** A new tab or popup becomes the page acted on; when it closes, the newest page left takes over. */
  private follow(opened: Page): void {
    this.page = opened;
    this.lastFrame = undefined;
    opened.once('close', () => {
      if (this.page !== opened) return;
      const remaining = this.context.pages();
      const newest = remaining[remaining.length - 1];
      if (newest) {
        this.page = newest;
        this.lastFrame = undefined;
      }
    });
  }
}

function runsAsRootOnLinux(): boolean {
  return process.platform === 'linux' && process.getuid?.() === 0;
}

/** Playwright's errors carry a call log after the first line; the first line is the reason. */
function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0]!.trim();
}
