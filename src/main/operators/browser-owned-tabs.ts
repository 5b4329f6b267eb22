/**
 * In the person's own browser (BrowserOperator.connect), which tabs are Sightline's to act on, to check against
 * the URL scope and to close at the end: the tab it opened (or the person's current tab it was told to use), and
 * every popup or new tab opened from one of those, whoever clicked. Every other tab is the person's: the operator
 * never acts on it, never leaves it for being outside the scope, never waits for its requests, and never closes it.
 */
import type { BrowserContext, Page, Request } from 'playwright-core';

export class OwnedTabs {
  private readonly owned = new Set<Page>();

  /**
   * `first`: the tab acted on first. `openedByUs`: whether Sightline opened it (a new tab, closed at the end) or it
   * is the person's current tab (left open).
   */
  constructor(
    context: BrowserContext,
    private readonly first: Page,
    private readonly openedByUs: boolean,
  ) {
    this.owned.add(first);
    context.on('page', (page) => void this.includes(page));
  }

  /** Whether `page` is known to be ours now (a popup is known once its opener has been read: includes()). */
  has(page: Page): boolean {
    return this.owned.has(page);
  }

  /** Whether `page` is ours, reading its opener when it is new: a popup of an owned tab is owned too. */
  async includes(page: Page): Promise<boolean> {
    if (this.owned.has(page)) return true;
    const opener = await page.opener().catch(() => null);
    if (opener === null || !this.owned.has(opener)) return false;
    this.owned.add(page);
    return true;
  }

  /** Whether `request` comes from one of our tabs (a service worker's request, with no tab, is not). */
  async ownsRequest(request: Request): Promise<boolean> {
    let page: Page;
    try {
      page = request.frame().page();
    } catch {
      return false;
    }
    return this.includes(page);
  }

  /** Same, answered from what is known now: for request events, which cannot wait. */
  ownsRequestNow(request: Request): boolean {
    try {
      return this.owned.has(request.frame().page());
    } catch {
      return false;
    }
  }

  /**
   * Closes the tabs Sightline opened (the person's current tab stays), but never the browser's last tab: closing
   * that would quit the person's browser.
   */
  async closeOurs(context: BrowserContext): Promise<void> {
    const ours = [...this.owned].filter((page) => !page.isClosed() && (page !== this.first || this.openedByUs));
    for (const page of ours) {
      const others = context.pages().filter((open) => !open.isClosed() && open !== page);
      if (others.length === 0) {
        await page.goto('about:blank').catch(() => undefined);
        continue;
      }
      await page.close().catch(() => undefined);
    }
  }
}
