/**
 * A browser page as an operator, for automation that must not touch the real desktop: playwright-core
 * drives the system's Chromium or Chrome (headless by default), frames are the viewport's screenshots
 * (BrowserFrameSource) and input is Playwright's mouse and keyboard, in CSS pixels.
 *
 * Links that open a new tab or a popup are followed: the operator acts on the newest open page, and when
 * that one closes (or is a popup the scope refused, which the guard closes), on the newest left.
 *
 * The pages it may open are its scope (agent.allowedUrls, agent.blockedUrls, agent.allowFileUrls): a
 * navigation outside it is refused (browser-navigation-guard.ts), a page or frame found outside it anyway is
 * left before any capture (browser-scope-check.ts), and the model is told (takeNotices). Speculative loading,
 * which neither would see, is off in the browser's profile (browser-profile.ts).
 *
 * Three ways to a page: launch() starts a browser of its own; attach() drives a Playwright page the caller has;
 * connect() attaches to the person's running Chrome over CDP and acts only in the tab it opened and the popups
 * of that tab (browser-owned-tabs.ts), which is all close() closes.
 */
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { z } from 'zod';
import type { ComputerAction } from '../../shared/actions.js';
import type { Frame } from '../perception/frame.js';
import type { ElementIdentity, PageText } from './operator.js';
import { performAction } from './action-performer.js';
import { findBrowserExecutable } from './browser-executable.js';
import { BROWSER_LAUNCH_ARGUMENTS } from './browser-launch-arguments.js';
import { BrowserFrameSource } from './browser-frame-source.js';
import { OwnedTabs } from './browser-owned-tabs.js';
import { checkCdpEndpoint, withoutEndpoint, type CdpEndpoint } from './cdp-endpoint.js';
import { NavigationGuard, noticeOf, type Refusal } from './browser-navigation-guard.js';
import { PendingRequests } from './browser-pending-requests.js';
import { createBrowserProfile, type BrowserProfile } from './browser-profile.js';
import { leaveOutOfScope } from './browser-scope-check.js';
import { BrowserUrlScope, type BrowserUrlScopeSettings } from './browser-url-scope.js';
import { focusedFieldKind, focusedPasswordText, focusedTextFieldText, fieldKindAtPoint, passwordTextAtPoint } from './browser-field-reading.js';
import { mapModelPoint, type FrameGeometry, type Point } from './coordinates.js';
import type { ModelView } from '../../shared/model-view.js';
import type { ActionResult, FocusedFieldKind, Operator, OperatorDescription, PressCheck } from './operator.js';
import { elementAtPoint } from './browser-element-identity.js';
import { pageTexts } from './browser-page-text.js';
import { sleepUnlessAborted, type Sleep } from './pause.js';
import { PlaywrightInput } from './playwright-input.js';
import type { BrowserContextSettings, BrowserCookie, Viewport } from './browser-settings.js';

export type { BrowserContextSettings, BrowserCookie, BrowserSettings, Viewport } from './browser-settings.js';

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
  /** The browser context's own settings (a Midscene script's web target); each absent one keeps the browser's. */
  context?: BrowserContextSettings | undefined;
  env?: Record<string, string | undefined>;
  /** The URLs the operator may open; without it, any but file: URLs. */
  scope?: BrowserUrlScopeSettings | undefined;
  /** Resolves after the time, or early when the signal aborts (pause.ts). */
  sleep?: Sleep;
}

export const DEFAULT_VIEWPORT: Viewport = { width: 1280, height: 800 };

/** Which tab of the person's browser to act in: a new one (default), or the one in front (Midscene's currentTab). */
export type ConnectTab = 'new' | 'current';

export interface BrowserConnectOptions {
  /** The person's Chrome, started with --remote-debugging-port (cdp-endpoint.ts). */
  endpoint: string;
  /** Lets an endpoint on another machine through (`--allow-remote-cdp`). */
  allowRemote?: boolean | undefined;
  tab?: ConnectTab | undefined;
  /** Opened in the tab first: in a new tab, about:blank when absent; the current tab stays where it is without it. */
  url?: string | undefined;
  scope?: BrowserUrlScopeSettings | undefined;
  sleep?: Sleep;
}

// How long attaching may take before the person is told to check the browser is running with its port.
const CONNECT_TIMEOUT_MS = 30_000;

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
  context: z
    .object({
      userAgent: z.string().min(1).max(1000).optional(),
      acceptInsecureCerts: z.boolean().optional(),
      // A header value with a line break would start another header.
      extraHTTPHeaders: z.record(z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/), z.string().regex(/^[^\r\n\0]*$/)).optional(),
      cookies: z.array(z.object({ name: z.string().min(1), value: z.string() }).loose()).optional(),
      downloadPath: z.string().min(1).optional(),
    })
    .optional(),
});

export class BrowserOperator implements Operator {
  /** A page moves the focus while a key is dispatched; a navigation a key starts is waited for (waitForPendingWork). */
  readonly focusCurrentAfterKeys = true;
  /** Chromium on Linux pastes the primary selection on a middle click, as every X11 and Wayland application does. */
  readonly middleClickPastes = process.platform === 'linux';
  private closed = false;
  /** The geometry of the last frame captured, and of which page: a frame of another page maps nothing. */
  private lastFrame: { page: Page; geometry: FrameGeometry } | undefined;
  /** Pages and frames left because they were found outside the scope, for the model (takeNotices). */
  private leftNotices: string[] = [];
  private readonly input: PlaywrightInput;
  private readonly sleep: Sleep;
  private readonly pendingRequests: PendingRequests;
  /** The files a file chooser receives while a step that names them runs (acceptingFiles); none otherwise. */
  private acceptedFiles: readonly string[] | undefined;
  /** One frame source per page: it keeps the page's DevTools session and its open capture series. */
  private readonly frameSources = new WeakMap<Page, BrowserFrameSource>();

  private constructor(
    /** Ends what this operator started: the launched browser and its profile, or its tabs in the person's browser. */
    private readonly release: (() => Promise<void>) | undefined,
    /** In the person's own browser, the tabs that are Sightline's; undefined where every page of the context is. */
    private readonly tabs: OwnedTabs | undefined,
    private readonly context: BrowserContext,
    private readonly firstPage: Page,
    private readonly deviceScaleFactor: number,
    private readonly scope: BrowserUrlScope,
    private readonly guard: NavigationGuard,
    options: BrowserOperatorOptions,
  ) {
    this.input = new PlaywrightInput(() => this.page);
    this.sleep = options.sleep ?? sleepUnlessAborted;
    this.pendingRequests = new PendingRequests(context, tabs === undefined ? undefined : (request) => tabs.ownsRequestNow(request));
    // A file chooser is answered only while a step names files, and only in Sightline's own tabs (in the person's
    // browser, their other tabs are theirs); otherwise it is left as it was (no file chosen).
    const watch = (page: Page) =>
      page.on('filechooser', (chooser) => {
        const files = this.acceptedFiles;
        if (files !== undefined && (tabs === undefined || tabs.has(page))) void chooser.setFiles([...files]).catch(() => undefined);
      });
    for (const page of context.pages()) watch(page);
    context.on('page', watch);
  }

  async acceptingFiles<T>(files: readonly string[], work: () => Promise<T>): Promise<T> {
    this.acceptedFiles = files;
    try {
      return await work();
    } finally {
      this.acceptedFiles = undefined;
    }
  }

  /**
   * The page acted on: the newest open one (a new tab or popup is followed), leaving out a popup the guard
   * refused and is closing. Read on every use, so a page that closes hands over to the one that survives.
   */
  private get page(): Page {
    const open = this.openPages();
    return open[open.length - 1] ?? this.firstPage;
  }

  private openPages(): Page[] {
    return this.context.pages().filter((page) => !page.isClosed() && !this.guard.isClosing(page) && (this.tabs?.has(page) ?? true));
  }

  /** Starts the browser, opens a page with the viewport asked for, and goes to `url` when given. */
  static async launch(options: BrowserOperatorOptions = {}): Promise<BrowserOperator> {
    const checked = BrowserOperatorOptionsSchema.safeParse(options);
    if (!checked.success) throw new BrowserOperatorError(`invalid browser options: ${z.prettifyError(checked.error)}`);
    const executablePath = findBrowserExecutable({ env: options.env ?? process.env, platform: process.platform }, options.executablePath);
    const deviceScaleFactor = options.deviceScaleFactor ?? 1;
    let profile: BrowserProfile;
    try {
      profile = await createBrowserProfile();
    } catch (error) {
      throw new BrowserOperatorError(`cannot make a browser profile in the temporary folder: ${firstLine(error)}`);
    }
    let context: BrowserContext;
    try {
      // A persistent context, on a profile made fresh for this launch: its preferences must be written before
      // the browser starts (browser-profile.ts).
      context = await chromium.launchPersistentContext(profile.folder, {
        executablePath,
        headless: options.headless ?? true,
        args: [...BROWSER_LAUNCH_ARGUMENTS],
        // Chromium's sandbox cannot run as root; Playwright adds --no-sandbox exactly when this is false.
        chromiumSandbox: !runsAsRootOnLinux(),
        // Playwright's own Ctrl+C handler closes the browser and exits the process with 130 at once, which
        // would cut a clean stop short: the caller owns SIGINT (the turn ends as stopped, then close()).
        handleSIGINT: false,
        viewport: options.viewport ?? DEFAULT_VIEWPORT,
        deviceScaleFactor,
        ...contextOptionsOf(options.context),
      });
    } catch (error) {
      await profile.remove().catch(() => undefined);
      throw new BrowserOperatorError(`cannot start the browser at ${executablePath}: ${firstLine(error)}`);
    }
    try {
      const scope = BrowserUrlScope.from(options.scope);
      const guard = await NavigationGuard.install(context, scope);
      if (options.context?.cookies !== undefined && options.context.cookies.length > 0) await context.addCookies(options.context.cookies.map(cookieOf));
      const firstPage = context.pages()[0] ?? (await context.newPage());
      const release = async (): Promise<void> => {
        try {
          // Closing the persistent context ends the browser process; the profile can go once it has.
          await context.close();
        } finally {
          await profile.remove().catch(() => undefined);
        }
      };
      const operator = new BrowserOperator(release, undefined, context, firstPage, deviceScaleFactor, scope, guard, options);
      if (options.url) await operator.start(options.url);
      return operator;
    } catch (error) {
      await context.close().catch(() => undefined);
      await profile.remove().catch(() => undefined);
      throw error;
    }
  }

  /**
   * Drives a page the caller already has (a Playwright test's `page`): the same capture, input and URL scope
   * as a launched browser, on the caller's browser, which close() leaves running.
   */
  static async attach(page: Page, options: Pick<BrowserOperatorOptions, 'scope' | 'sleep'> = {}): Promise<BrowserOperator> {
    const context = page.context();
    const scope = BrowserUrlScope.from(options.scope);
    const guard = await NavigationGuard.install(context, scope);
    const deviceScaleFactor = (await page.evaluate('window.devicePixelRatio').catch(() => 1)) as number;
    return new BrowserOperator(undefined, undefined, context, page, typeof deviceScaleFactor === 'number' ? deviceScaleFactor : 1, scope, guard, options);
  }

  /**
   * Attaches to the person's running Chrome over CDP and acts in a new tab of it (or in its current tab): their
   * cookies and signed-in sessions are there, and the rest of their browser is left alone (browser-owned-tabs.ts).
   * close() closes only the tab it opened (and popups opened from it) and disconnects; the browser keeps running.
   */
  static async connect(options: BrowserConnectOptions): Promise<BrowserOperator> {
    const checked = checkCdpEndpoint(options.endpoint, { allowRemote: options.allowRemote });
    if (!checked.ok) throw new BrowserOperatorError(capitalized(checked.problem) + '.');
    const { endpoint } = checked;
    if (options.url !== undefined && !z.url().safeParse(options.url).success) throw new BrowserOperatorError(`not a URL: ${options.url}`);
    let browser: Browser;
    try {
      // noDefaults: Playwright would otherwise turn on its own download, font and media settings in the person's
      // default context, for every tab of it.
      browser = await chromium.connectOverCDP(endpoint.url, { noDefaults: true, timeout: CONNECT_TIMEOUT_MS });
    } catch (error) {
      throw new BrowserOperatorError(cannotAttach(endpoint, error));
    }
    const disconnect = () => browser.close().catch(() => undefined);
    let tabs: OwnedTabs | undefined;
    let context: BrowserContext | undefined;
    try {
      context = browser.contexts()[0];
      if (context === undefined) throw new BrowserOperatorError(`The browser at ${endpoint.shown} has no default profile to open a tab in.`);
      const tab = options.tab ?? 'new';
      const firstPage = tab === 'new' ? await context.newPage() : await currentTab(context, endpoint);
      tabs = new OwnedTabs(context, firstPage, tab === 'new');
      const owned = tabs;
      const scope = BrowserUrlScope.from(options.scope);
      const guard = await NavigationGuard.install(context, scope, (request) => owned.ownsRequest(request));
      const deviceScaleFactor = (await firstPage.evaluate('window.devicePixelRatio').catch(() => 1)) as number;
      const inContext = context;
      const release = async (): Promise<void> => {
        await owned.closeOurs(inContext);
        // The person's other tabs are no longer routed through Sightline once it has gone.
        await inContext.unrouteAll({ behavior: 'ignoreErrors' }).catch(() => undefined);
        // For a browser reached over CDP, close() only disconnects: the browser keeps running.
        await disconnect();
      };
      const operator = new BrowserOperator(release, owned, context, firstPage, typeof deviceScaleFactor === 'number' ? deviceScaleFactor : 1, scope, guard, options);
      await operator.measureViewport();
      if (options.url !== undefined && (tab === 'new' || options.url !== firstPage.url())) await operator.start(options.url);
      return operator;
    } catch (error) {
      if (tabs !== undefined && context !== undefined) await tabs.closeOurs(context).catch(() => undefined);
      await context?.unrouteAll({ behavior: 'ignoreErrors' }).catch(() => undefined);
      await disconnect();
      if (error instanceof BrowserOperatorError) throw error;
      throw new BrowserOperatorError(withoutEndpoint(`cannot act in the browser at ${endpoint.shown}: ${firstLine(error)}`, endpoint));
    }
  }

  /** A page without an emulated viewport (the person's own tab) is as large as its window: read from the page. */
  private measuredViewport: Viewport | undefined;

  private async measureViewport(): Promise<void> {
    const size = await this.page.evaluate('({ width: window.innerWidth, height: window.innerHeight })').catch(() => undefined);
    const parsed = z.object({ width: z.number().int().positive(), height: z.number().int().positive() }).safeParse(size);
    if (parsed.success) this.measuredViewport = parsed.data;
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

  async evaluate(code: string, signal?: AbortSignal): Promise<{ ok: true; value: unknown } | { ok: false; error: string }> {
    // The code runs in a page inside the scope, as the model's actions do: out-of-scope pages are left first.
    await this.keepInScope();
    const page = this.page;
    const refusal = this.scope.refusal(page.url());
    if (refusal !== undefined) return { ok: false, error: `the page is outside the URL scope: ${refusal}` };
    let stop: (() => void) | undefined;
    const stopped = new Promise<'stopped'>((resolve) => {
      stop = () => resolve('stopped');
      if (signal?.aborted === true) resolve('stopped');
      signal?.addEventListener('abort', stop, { once: true });
    });
    try {
      const value = await Promise.race([page.evaluate(code), stopped]);
      if (value === 'stopped' && signal?.aborted === true) return { ok: false, error: 'stopped' };
      return { ok: true, value: value === undefined ? null : value };
    } catch (error) {
      return { ok: false, error: firstLine(error) };
    } finally {
      if (stop !== undefined) signal?.removeEventListener('abort', stop);
    }
  }

  /**
   * Navigates the current page to `url` and waits for it to load. What the start page then loads or starts on
   * its own and the scope refuses (an iframe, a form it posts itself, a script's navigation) leaves it open:
   * the model is told with its first action. Only a start page that never shows is an error, which names
   * the URL refused.
   */
  async start(url: string): Promise<void> {
    if (!z.url().safeParse(url).success) throw new BrowserOperatorError(`not a URL: ${url}`);
    const refusal = this.scope.refusal(url);
    if (refusal !== undefined) throw new BrowserOperatorError(`cannot open ${url}: ${refusal}`);
    const page = this.page;
    const frame = page.mainFrame();
    let failure: unknown;
    const loaded = page.goto(url, { waitUntil: 'load' }).then(
      () => true,
      (error: unknown) => {
        failure = error;
        return false;
      },
    );
    // A navigation the start page started and the guard refused means its load event may never come.
    if (await Promise.race([loaded, this.guard.nextRefusalOf(frame).then(() => false)])) return;
    // A redirect is followed as a navigation of its own (browser-navigation-guard.ts): the first one ends aborted.
    const followed = this.guard.followsRedirect(frame);
    if (followed) await this.guard.untilRedirectsFollowed(frame);
    if (this.showsPageInScope(page) && (followed || this.guard.hasRefusals())) return;
    // Refused before anything showed: the navigation ends at once (aborted), with the browser's own error.
    if ((await loaded) && this.showsPageInScope(page)) return;
    throw new BrowserOperatorError(`cannot open ${url}: ${whyNotOpened(url, this.guard.takeRefusals(), followed, failure)}`);
  }

  private showsPageInScope(page: Page): boolean {
    const landed = page.url();
    return landed !== '' && landed !== 'about:blank' && !landed.startsWith('chrome-error:') && this.scope.refusal(landed) === undefined;
  }

  /**
   * The page acted on, once every page and frame outside the scope has been left. A page that closes while it
   * is captured (a popup the guard refused) gives way to the page that survives, which is captured instead;
   * a page that commits a new document under the capture (a navigation no request announced, so no wait
   * covered: a service worker's own answer) is checked and captured again.
   */
  async capture(): Promise<Frame> {
    await this.keepInScope();
    for (let attempt = 1; ; attempt += 1) {
      const page = this.page;
      let frame: Frame;
      try {
        frame = await this.frameSource(page).capture();
      } catch (error) {
        const again = this.gaveWay(page) || navigatedUnder(error);
        if (!again || attempt >= MOST_CAPTURE_ATTEMPTS) throw error;
        await this.keepInScope();
        continue;
      }
      // Checked again after: a document that came in during the capture may be what it shows.
      if ((await this.keepInScope()) && attempt < MOST_CAPTURE_ATTEMPTS) continue;
      this.lastFrame = { page, geometry: { width: frame.width, height: frame.height, scaleFactor: frame.scaleFactor, bounds: frame.bounds } };
      return frame;
    }
  }

  /** The carets of the page captured are hidden once for the whole series (browser-carets.ts). */
  async aroundCaptures<T>(work: () => Promise<T>): Promise<T> {
    return this.frameSource(this.page).aroundCaptures(work);
  }

  async execute(action: ComputerAction, view: ModelView, signal?: AbortSignal, check?: PressCheck): Promise<ActionResult> {
    const last = this.lastFrame?.page === this.page ? this.lastFrame.geometry : undefined;
    const frame = last ?? (await this.capture());
    this.pendingRequests.markAction();
    // The element a click meets is read at every click, so that a recording holds it for a replay to check.
    const beforePress = async (at: Point): Promise<{ refusal?: string | undefined; element?: ElementIdentity | undefined; texts?: PageText[] | undefined }> => {
      let element: ElementIdentity | undefined;
      let read = false;
      const identify = async (): Promise<ElementIdentity | undefined> => {
        if (!read) [element, read] = [await elementAtPoint(this.page, at), true];
        return element;
      };
      if (check !== undefined) {
        const refusal = await check({ at, element: identify, capture: () => this.capture(), texts: () => pageTexts(this.page) });
        return refusal === undefined ? { element: await identify() } : { refusal };
      }
      return { element: await identify(), texts: await pageTexts(this.page) };
    };
    return performAction(action, { view, frame, input: this.input, sleep: this.sleep, signal, beforePress });
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

  /** The navigations refused, and the pages and frames left, since the last call, for the model (see Operator.takeNotices). */
  takeNotices(): string[] {
    const left = this.leftNotices;
    this.leftNotices = [];
    return [...this.guard.takeNotices(), ...left];
  }

  async releaseHeldInput(): Promise<void> {
    if (this.closed) return;
    await this.input.releaseHeldButtons();
  }

  describe(): OperatorDescription {
    const viewport = this.page.viewportSize() ?? this.measuredViewport ?? DEFAULT_VIEWPORT;
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

  pageTexts(): Promise<PageText[] | undefined> {
    return pageTexts(this.page);
  }

  /** The text the focused field (not a password field) holds, looking into frames. */
  focusedFieldText(): Promise<string | undefined> {
    return focusedTextFieldText(this.page);
  }

  async passwordFieldText(place: 'focused' | Point | 'pointer', view: ModelView): Promise<string | undefined> {
    if (place === 'focused') return focusedPasswordText(this.page);
    const point = await this.pagePoint(place, view);
    return point === undefined ? undefined : passwordTextAtPoint(this.page, point);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // An attached page is the caller's: its context and browser stay as they were.
    await this.release?.();
  }

  /** A point of the model's view in the page's CSS pixels (as an action there would land), or where the pointer is. */
  private async pagePoint(place: Point | 'pointer', view: ModelView): Promise<Point | undefined> {
    if (place === 'pointer') return this.input.pointer;
    const last = this.lastFrame?.page === this.page ? this.lastFrame.geometry : undefined;
    const mapped = mapModelPoint(place, view, last ?? (await this.capture()));
    return mapped.ok ? mapped.screen : undefined;
  }

  private frameSource(page: Page): BrowserFrameSource {
    let source = this.frameSources.get(page);
    if (source === undefined) {
      source = new BrowserFrameSource(page);
      this.frameSources.set(page, source);
    }
    return source;
  }

  /** Whether `page` failed because it closed (or is being closed), and another page is now the one acted on. */
  private gaveWay(page: Page): boolean {
    return (page.isClosed() || this.guard.isClosing(page)) && this.page !== page;
  }

  /** Leaves what is outside the scope (browser-scope-check.ts); whether there was anything to leave. */
  private async keepInScope(): Promise<boolean> {
    const left = await leaveOutOfScope({ scope: this.scope, firstPage: this.firstPage, pages: this.openPages() });
    this.leftNotices.push(...left);
    return left.length > 0;
  }
}

/**
 * The person's tab in front: the one whose document is visible and focused, else the last visible one. Refused
 * when none is, rather than guessing at a tab the person is not looking at.
 */
async function currentTab(context: BrowserContext, endpoint: CdpEndpoint): Promise<Page> {
  const pages = context.pages().filter((page) => !page.isClosed());
  const states = await Promise.all(
    pages.map(async (page) => {
      const state = await page.evaluate('({ visible: document.visibilityState === "visible", focused: document.hasFocus() })').catch(() => undefined);
      const parsed = z.object({ visible: z.boolean(), focused: z.boolean() }).safeParse(state);
      return { page, visible: parsed.success && parsed.data.visible, focused: parsed.success && parsed.data.focused };
    }),
  );
  const visible = states.filter((state) => state.visible);
  const chosen = visible.find((state) => state.focused) ?? visible[visible.length - 1];
  if (chosen === undefined) {
    throw new BrowserOperatorError(`The browser at ${endpoint.shown} shows no tab in front to act in (currentTab). Bring the tab to the front, or let Sightline open a new tab.`);
  }
  return chosen.page;
}

function cannotAttach(endpoint: CdpEndpoint, error: unknown): string {
  return withoutEndpoint(
    `cannot attach to the browser at ${endpoint.shown}: ${firstLine(error)}. Is Chrome running with ` +
      '--remote-debugging-port (and a --user-data-dir of its own)? See docs/flows.md, "Acting in your own browser".',
    endpoint,
  );
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function runsAsRootOnLinux(): boolean {
  return process.platform === 'linux' && process.getuid?.() === 0;
}

/**
 * Why the start page did not show, naming the URL refused: the start URL itself, a URL it redirects to, or one
 * the start page loaded in its place. Without a refusal of the main frame, the browser's own error says why.
 */
function whyNotOpened(url: string, refusals: readonly Refusal[], followedRedirect: boolean, error: unknown): string {
  const refused = refusals.find((refusal) => refusal.mainFrame);
  if (refused === undefined) return error === undefined ? 'the page did not show' : firstLine(error);
  if (refused.url === url) return noticeOf(refused);
  const how = followedRedirect ? `it redirects to ${refused.url}` : `the start page loaded ${refused.url}`;
  return `${how}, and the browser did not open that: ${refused.reason}.`;
}

// A page that keeps navigating under every capture is an error after this many.
const MOST_CAPTURE_ATTEMPTS = 5;

/** Playwright's error for a page script cut off by a navigation that committed meanwhile. */
function navigatedUnder(error: unknown): boolean {
  return error instanceof Error && error.message.includes('Execution context was destroyed');
}

/** Playwright's errors carry a call log after the first line; the first line is the reason. */
function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0]!.trim();
}

/** The launch options a script's browser settings become (Playwright's names). */
function contextOptionsOf(settings: BrowserContextSettings | undefined): Record<string, unknown> {
  if (settings === undefined) return {};
  return {
    ...(settings.userAgent === undefined ? {} : { userAgent: settings.userAgent }),
    ...(settings.acceptInsecureCerts === true ? { ignoreHTTPSErrors: true } : {}),
    ...(settings.extraHTTPHeaders === undefined ? {} : { extraHTTPHeaders: settings.extraHTTPHeaders }),
    ...(settings.downloadPath === undefined ? {} : { acceptDownloads: true, downloadsPath: settings.downloadPath }),
  };
}

/** A cookie as Playwright sets it: a url, or a domain with a path. */
function cookieOf(cookie: BrowserCookie): Parameters<BrowserContext['addCookies']>[0][number] {
  const defined = Object.fromEntries(Object.entries(cookie).filter(([, value]) => value !== undefined)) as BrowserCookie;
  if (defined.url !== undefined) return { name: defined.name, value: defined.value, url: defined.url, ...pick(defined) };
  return { name: defined.name, value: defined.value, domain: defined.domain ?? '', path: defined.path ?? '/', ...pick(defined) };
}

function pick(cookie: BrowserCookie): { expires?: number; httpOnly?: boolean; secure?: boolean; sameSite?: 'Strict' | 'Lax' | 'None' } {
  return {
    ...(cookie.expires === undefined ? {} : { expires: cookie.expires }),
    ...(cookie.httpOnly === undefined ? {} : { httpOnly: cookie.httpOnly }),
    ...(cookie.secure === undefined ? {} : { secure: cookie.secure }),
    ...(cookie.sameSite === undefined ? {} : { sameSite: cookie.sameSite }),
  };
}
