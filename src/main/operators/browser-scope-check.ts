/**
 * The browser scope's second line, behind the navigation guard (browser-navigation-guard.ts): before every
 * capture, so after every action and before any screenshot is kept, each open page and each frame in it is
 * checked against the scope, and one showing a URL outside it is left. The guard refuses a navigation before
 * its request; this catches a document that came without a request the guard could see: a page Chromium
 * prerendered and then activated (turned off in the profile, browser-profile.ts, which a future Chromium could
 * undo), or a navigation a page's service worker answered itself.
 *
 * Left how: a tab or popup other than the first page is closed; the first page goes back, or to about:blank
 * when going back does not bring it into scope; an iframe is emptied (about:blank). The model is told, as for
 * a refused navigation.
 */
import type { Frame, Page } from 'playwright-core';
import { shortened, type BrowserUrlScope } from './browser-url-scope.js';

// What the scope governs in a frame: URLs that load from somewhere. An iframe's about:, data: and blob:
// documents hold what the page itself put there. A page's main frame is held to web pages whatever its scheme
// (browser-url-scope.ts): a tab showing chrome:, view-source: or a top-level data: or blob: document is left.
const CHECKED_PROTOCOLS = new Set(['http:', 'https:', 'file:']);
// Chromium's own error page, shown in place of a page that failed to load: nothing was opened.
const ERROR_PAGE_PROTOCOL = 'chrome-error:';

export interface ScopeCheckTarget {
  scope: BrowserUrlScope;
  /** The page the browser opened with: it goes back rather than being closed. */
  firstPage: Page;
  /** The open pages, the first one included, but none the navigation guard is closing already. */
  pages: readonly Page[];
}

/** Leaves every page and frame outside the scope; one sentence for the model for each. */
export async function leaveOutOfScope(target: ScopeCheckTarget): Promise<string[]> {
  const notices: string[] = [];
  for (const page of target.pages) {
    if (page.isClosed()) continue;
    const main = page.mainFrame();
    const mainRefusal = refusalOf(main, target.scope, true);
    if (mainRefusal !== undefined) {
      const url = main.url();
      const how = page === target.firstPage ? await goBackIntoScope(page, target.scope) : await closed(page);
      notices.push(`The browser did not stay on ${shortened(url)}: ${mainRefusal}; it ${how}.`);
      continue;
    }
    for (const frame of page.frames()) {
      const refusal = frame === main ? undefined : refusalOf(frame, target.scope, false);
      if (refusal === undefined) continue;
      const url = frame.url();
      await frame.goto('about:blank').catch(() => undefined);
      notices.push(`The browser did not stay on ${url} in a frame of ${main.url()}: ${refusal}; it emptied the frame.`);
    }
  }
  return notices;
}

function refusalOf(frame: Frame, scope: BrowserUrlScope, mainFrame: boolean): string | undefined {
  const url = frame.url();
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    return undefined; // a frame not yet committed reads as ''
  }
  if (mainFrame) return protocol === ERROR_PAGE_PROTOCOL ? undefined : scope.refusal(url);
  return CHECKED_PROTOCOLS.has(protocol) ? scope.refusal(url) : undefined;
}

async function goBackIntoScope(page: Page, scope: BrowserUrlScope): Promise<string> {
  // Going back is a navigation like any other: the guard checks it before its request.
  await page.goBack({ waitUntil: 'commit' }).catch(() => null);
  if (refusalOf(page.mainFrame(), scope, true) === undefined && page.url() !== '') return 'went back';
  await page.goto('about:blank').catch(() => undefined);
  return 'went to an empty page';
}

async function closed(page: Page): Promise<string> {
  await page.close().catch(() => undefined);
  return 'closed the tab';
}
