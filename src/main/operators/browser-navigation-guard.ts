/**
 * Holds the browser operator inside its URL scope (browser-url-scope.ts): every document navigation of every
 * page and frame of the context, popups included, whatever started it (a start URL, a link, a form post, a
 * script setting window.location, a redirect), is checked before the browser makes it. A refused one is
 * answered with No Content, and what was refused is kept for the model, which is told with the result of its next action.
 *
 * Redirects: Playwright routes only the first request of a redirect chain, so a navigation is fetched here
 * without following redirects and its Location is checked before the browser is handed the response. A
 * chain of several redirects can still reach a URL out of scope at its later hops: when such a page commits,
 * it is left at once for about:blank and the model is told.
 */
import type { BrowserContext, Frame, Page, Request, Route } from 'playwright-core';
import type { BrowserUrlScope } from './browser-url-scope.js';

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export class NavigationGuard {
  private notices: string[] = [];

  private constructor(private readonly scope: BrowserUrlScope) {}

  /** Watches the context's navigations when the scope restricts any; otherwise nothing is intercepted. */
  static async install(context: BrowserContext, scope: BrowserUrlScope): Promise<NavigationGuard> {
    const guard = new NavigationGuard(scope);
    if (!scope.watchesNavigations) return guard;
    await context.route('**/*', (route, request) => guard.check(route, request));
    const watch = (page: Page): void => {
      page.on('framenavigated', (frame) => void guard.leaveIfOutOfScope(frame));
    };
    context.pages().forEach(watch);
    context.on('page', watch);
    return guard;
  }

  /** What was refused since the last call, one sentence each, for the model. */
  takeNotices(): string[] {
    const taken = this.notices;
    this.notices = [];
    return taken;
  }

  private async check(route: Route, request: Request): Promise<void> {
    if (!request.isNavigationRequest()) return route.fallback();
    const refusal = this.scope.refusal(request.url());
    if (refusal !== undefined) return this.refuse(route, request, refusal);
    const response = await route.fetch({ maxRedirects: 0 }).catch(() => undefined);
    // A request the browser could not make either (a refused connection): let the browser show it as it would.
    if (response === undefined) return route.fallback();
    const location = response.headers()['location'];
    if (REDIRECT_STATUSES.has(response.status()) && location !== undefined) {
      const target = resolvedUrl(location, request.url());
      const redirectRefusal = this.scope.refusal(target);
      if (redirectRefusal !== undefined) return this.refuse(route, request, `it redirects to ${target}, and ${redirectRefusal}`);
    }
    return route.fulfill({ response });
  }

  private async refuse(route: Route, request: Request, refusal: string): Promise<void> {
    this.notices.push(`The browser did not open ${request.url()}: ${refusal}.`);
    // 204 No Content, not an abort: a browser stays on the page it shows, where an aborted navigation would
    // replace it with an error page (and pull the document out from under a capture in progress).
    await route.fulfill({ status: 204, body: '' });
    await closeIfEmptyPopup(request);
  }

  private async leaveIfOutOfScope(frame: Frame): Promise<void> {
    if (frame.parentFrame() !== null) return;
    const url = frame.url();
    if (url.startsWith('chrome-error:')) return;
    const refusal = this.scope.refusal(url);
    if (refusal === undefined) return;
    this.notices.push(`The browser left ${url} as soon as a redirect reached it: ${refusal}.`);
    await frame.goto('about:blank').catch(() => undefined);
  }
}

/** A popup whose first page was refused shows only an error: it is closed, and the opener stays in front. */
async function closeIfEmptyPopup(request: Request): Promise<void> {
  let page: Page;
  try {
    const frame = request.frame();
    if (frame.parentFrame() !== null) return;
    page = frame.page();
  } catch {
    return; // a service worker's request has no frame
  }
  const opener = await page.opener().catch(() => null);
  if (opener === null) return;
  const url = page.url();
  if (url === 'about:blank' || url === '' || url.startsWith('chrome-error:')) await page.close().catch(() => undefined);
}

function resolvedUrl(location: string, base: string): string {
  try {
    return new URL(location, base).href;
  } catch {
    return location;
  }
}
