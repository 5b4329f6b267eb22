/**
 * Holds the browser operator inside its URL scope (browser-url-scope.ts): every document navigation of every
 * page and frame of the context, popups included, whatever started it (a start URL, a link, a form post, a
 * script setting window.location, a redirect), is checked before the browser makes it. A refused one is
 * answered with No Content, and what was refused is kept for the model, which is told with the result of its next action.
 *
 * Redirects: Playwright routes only the first request of a redirect chain, and the browser would follow the
 * rest unseen. So a navigation is fetched here without following redirects, and its Location is checked;
 * a redirect that turns into a GET (301, 302, 303, or 307/308 of a GET) is not handed to the browser but
 * made a navigation of its own to the Location, which comes through here again: every hop of a chain is
 * checked before it is asked for. A 307/308 that repeats a POST cannot become a navigation (a navigation
 * cannot carry the body again): its hops are fetched here, each checked first, and the browser is handed the
 * last answer (its address bar keeps the first URL).
 *
 * A prefetch the page asks for with `<link rel=prefetch>` is a request of the page, not a navigation, but it
 * fetches a document: out of scope, it is dropped. (Speculation rules' prefetches and prerenders never come
 * through here: they are turned off in the profile, browser-profile.ts.)
 */
import type { BrowserContext, Frame, Page, Request, Route } from 'playwright-core';
import type { BrowserUrlScope } from './browser-url-scope.js';

/** A navigation the scope refused, for the model and for a start URL's error. */
export interface Refusal {
  /** The URL the browser did not open. */
  url: string;
  /** Why, in words fit for the model and a user. */
  reason: string;
  /** Whether it was a navigation of a page's main frame (not of an iframe in it). */
  mainFrame: boolean;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
// Chromium's own limit for a redirect chain.
const MOST_REPEATED_HOPS = 20;

export class NavigationGuard {
  private refusals: Refusal[] = [];
  /** Per frame, the navigation to the target of the redirect it was last handed (see followThroughGuard). */
  private readonly redirectsFollowed = new Map<Frame, Promise<void>>();
  /** Popups whose first page was refused, from the moment that is known until they are closed. */
  private readonly closing = new WeakSet<Page>();
  /** Per frame, who waits for its next refused navigation (see nextRefusalOf). */
  private readonly refusalWaiters = new WeakMap<Frame, Array<() => void>>();

  private constructor(
    private readonly scope: BrowserUrlScope,
    private readonly owns: ((request: Request) => Promise<boolean>) | undefined,
  ) {}

  /**
   * Watches the context's navigations when the scope restricts any; otherwise nothing is intercepted. `owns`, in
   * the person's own browser (browser-owned-tabs.ts), limits it to Sightline's tabs: the person's other tabs go
   * where they go.
   */
  static async install(context: BrowserContext, scope: BrowserUrlScope, owns?: (request: Request) => Promise<boolean>): Promise<NavigationGuard> {
    const guard = new NavigationGuard(scope, owns);
    if (!scope.watchesNavigations) return guard;
    await context.route('**/*', (route, request) => guard.check(route, request));
    return guard;
  }

  /** What was refused since the last call, one sentence each, for the model. */
  takeNotices(): string[] {
    return this.takeRefusals().map(noticeOf);
  }

  /**
   * Resolves when a navigation of `frame` is next refused. A page whose own navigation is refused while it
   * loads (a form it posts itself) never fires its load event: this ends a wait for it.
   */
  nextRefusalOf(frame: Frame): Promise<void> {
    return new Promise((resolve) => {
      const waiters = this.refusalWaiters.get(frame) ?? [];
      waiters.push(resolve);
      this.refusalWaiters.set(frame, waiters);
    });
  }

  /** Whether anything was refused that no one has taken yet. */
  hasRefusals(): boolean {
    return this.refusals.length > 0;
  }

  /** What was refused since the last call. */
  takeRefusals(): Refusal[] {
    const taken = this.refusals;
    this.refusals = [];
    return taken;
  }

  /**
   * Whether `page` is a popup the guard refused and is closing: it is no page to act on, though it may not
   * have closed yet. Known before the refusal is told (takeNotices), so a caller told of it never picks the popup.
   */
  isClosing(page: Page): boolean {
    return this.closing.has(page);
  }

  /** Whether a navigation of `frame` was handed a redirect that is still to be followed. */
  followsRedirect(frame: Frame): boolean {
    return this.redirectsFollowed.has(frame);
  }

  /**
   * Resolves once the redirects a navigation of `frame` was given have been followed to their end (each hop
   * is a navigation of its own, so the first one's promise ends when the second begins).
   */
  async untilRedirectsFollowed(frame: Frame): Promise<void> {
    for (;;) {
      const pending = this.redirectsFollowed.get(frame);
      if (pending === undefined) return;
      await pending;
      if (this.redirectsFollowed.get(frame) === pending) {
        this.redirectsFollowed.delete(frame);
        return;
      }
    }
  }

  private async check(route: Route, request: Request): Promise<void> {
    if (this.owns !== undefined && !(await this.owns(request))) return route.fallback();
    if (!request.isNavigationRequest()) {
      if (isPrefetch(request) && this.scope.refusal(request.url()) !== undefined) return route.abort('blockedbyclient');
      return route.fallback();
    }
    const refusal = this.scope.refusal(request.url());
    if (refusal !== undefined) return this.refuse(route, request, refusal);
    let response = await route.fetch({ maxRedirects: 0 }).catch(() => undefined);
    // A request the browser could not make either (a refused connection): let the browser show it as it would.
    if (response === undefined) return route.fallback();
    let url = request.url();
    for (let hop = 1; ; hop += 1) {
      const location = response.headers()['location'];
      if (!REDIRECT_STATUSES.has(response.status()) || location === undefined) return route.fulfill({ response });
      const target = resolvedUrl(location, url);
      const redirectRefusal = this.scope.refusal(target);
      if (redirectRefusal !== undefined) return this.refuse(route, request, `it redirects to ${target}, and ${redirectRefusal}`);
      if (redirectsAsGet(response.status(), request.method())) return this.followThroughGuard(route, request, target);
      if (hop > MOST_REPEATED_HOPS) return this.refuse(route, request, `it redirects more than ${MOST_REPEATED_HOPS} times`);
      // The same method and body again, to the next hop, now that it is known to be in scope.
      url = target;
      response = await route.fetch({ url: target, maxRedirects: 0 }).catch(() => undefined);
      if (response === undefined) return route.abort('connectionfailed');
    }
  }

  /** The browser stays put (No Content), then goes to the redirect's target as a navigation that is routed again. */
  private async followThroughGuard(route: Route, request: Request, target: string): Promise<void> {
    let frame: Frame;
    try {
      frame = request.frame();
    } catch {
      return route.fulfill({ status: 204, body: '' });
    }
    // Known before the first navigation ends as aborted by the No Content, so that untilRedirectsFollowed sees it.
    let started!: () => void;
    const handedOver = new Promise<void>((resolve) => (started = resolve));
    this.redirectsFollowed.set(frame, handedOver.then(() => frame.goto(target)).then(() => undefined, () => undefined));
    await route.fulfill({ status: 204, body: '' });
    // Not awaited here: the route handler must return for the browser to go on.
    started();
  }

  private async refuse(route: Route, request: Request, reason: string): Promise<void> {
    const frame = frameOf(request);
    const popup = frame === undefined ? undefined : await emptyPopupOf(frame);
    if (popup !== undefined) this.closing.add(popup);
    this.refusals.push({ url: request.url(), reason, mainFrame: frame?.parentFrame() === null });
    if (frame !== undefined) {
      for (const wake of this.refusalWaiters.get(frame) ?? []) wake();
      this.refusalWaiters.delete(frame);
    }
    // 204 No Content, not an abort: a browser stays on the page it shows, where an aborted navigation would
    // replace it with an error page (and pull the document out from under a capture in progress).
    await route.fulfill({ status: 204, body: '' });
    await popup?.close().catch(() => undefined);
  }
}

export function noticeOf(refusal: Refusal): string {
  return `The browser did not open ${refusal.url}: ${refusal.reason}.`;
}

/** A document fetched ahead of a navigation (`<link rel=prefetch>`); Chromium marks it so for the server. */
function isPrefetch(request: Request): boolean {
  return request.headers()['sec-purpose']?.includes('prefetch') ?? false;
}

function frameOf(request: Request): Frame | undefined {
  try {
    return request.frame();
  } catch {
    return undefined; // a service worker's request has no frame
  }
}

/** Browsers turn a POST into a GET on 301, 302 and 303; 307 and 308 repeat the request as it was. */
function redirectsAsGet(status: number, method: string): boolean {
  return status === 301 || status === 302 || status === 303 || method === 'GET';
}

/** A popup whose first page is refused would show only an empty page: it is closed, and the opener stays in front. */
async function emptyPopupOf(frame: Frame): Promise<Page | undefined> {
  if (frame.parentFrame() !== null) return undefined;
  const page = frame.page();
  const opener = await page.opener().catch(() => null);
  if (opener === null) return undefined;
  const url = page.url();
  return url === 'about:blank' || url === '' || url.startsWith('chrome-error:') ? page : undefined;
}

function resolvedUrl(location: string, base: string): string {
  try {
    return new URL(location, base).href;
  } catch {
    return location;
  }
}
