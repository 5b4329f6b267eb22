/**
 * Which URLs the browser operator may open (agent.allowedUrls, agent.blockedUrls, agent.allowFileUrls). A page
 * on the screen can tell the model anything, so where the browser may go is decided here, outside the model:
 * a navigation outside the scope is never made, whatever started it.
 *
 * Only web pages are ever opened: http and https, and file: with agent.allowFileUrls, patterns or not. Every
 * other scheme is a way around the scope or into the browser itself: chrome: and devtools: (the browser's own
 * pages and settings), view-source: (any URL's source, read as a page of its own), data:, blob: and
 * filesystem: (a document made from text the model or a page wrote), javascript: (a script run in the page),
 * chrome-extension:, and about: pages other than the empty ones. A pattern can name none of them
 * (url-patterns.ts), so an allow list already kept them out; a block list alone, or no list, did not.
 */
import { parseUrlPattern, urlMatchesPattern, type UrlPattern } from '../../shared/url-patterns.js';

export interface BrowserUrlScopeSettings {
  /** When given, only URLs one of these patterns matches may be opened. */
  allowedUrls?: readonly string[] | undefined;
  /** URLs never opened, even when allowedUrls matches them. */
  blockedUrls?: readonly string[] | undefined;
  /** Whether file: URLs may be opened at all. */
  allowFileUrls?: boolean | undefined;
}

// The empty page a new tab or popup starts with, and an iframe's inline document: they load nothing.
const ALWAYS_OPEN = new Set(['about:blank', 'about:srcdoc']);
/** The schemes of web pages: the only ones the browser operator opens (file: only when allowed). */
const WEB_PROTOCOLS = new Set(['http:', 'https:', 'file:']);

export class BrowserUrlScope {
  private constructor(
    private readonly allowed: readonly UrlPattern[] | undefined,
    private readonly blocked: readonly UrlPattern[],
    private readonly allowFileUrls: boolean,
  ) {}

  static from(settings: BrowserUrlScopeSettings = {}): BrowserUrlScope {
    return new BrowserUrlScope(
      settings.allowedUrls === undefined ? undefined : settings.allowedUrls.map(patternOf),
      (settings.blockedUrls ?? []).map(patternOf),
      settings.allowFileUrls ?? false,
    );
  }

  /**
   * Whether navigations must be watched at all. Without patterns, only file: URLs and the schemes that are no
   * web pages are out of scope: the browser itself refuses a web page's way to a file: URL and to its own pages
   * (chrome:, view-source:, a top-level data:), and requests to those never come through a route anyway; the
   * operator's own navigations (the start URL, goto) are checked before they are made, and the capture's check
   * (browser-scope-check.ts) leaves a page on any of them. Intercepting every request would cost each page its
   * HTTP cache for nothing.
   */
  get watchesNavigations(): boolean {
    return this.allowed !== undefined || this.blocked.length > 0;
  }

  /** Undefined when the URL may be opened; otherwise why not, in words fit for the model and a user. */
  refusal(text: string): string | undefined {
    if (ALWAYS_OPEN.has(text)) return undefined;
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      return `${text} is not a URL`;
    }
    if (!WEB_PROTOCOLS.has(url.protocol)) {
      return `${shortened(url.href)} is a ${url.protocol} URL, and the browser opens only http(s) pages (and file: ones with agent.allowFileUrls)`;
    }
    if (url.protocol === 'file:' && !this.allowFileUrls) {
      return `${url.href} is a file: URL, and file: URLs are not allowed (agent.allowFileUrls, --allow-file-urls)`;
    }
    const blockedBy = this.blocked.find((pattern) => urlMatchesPattern(url, pattern, 'block'));
    if (blockedBy !== undefined) return `${url.href} is blocked by agent.blockedUrls (${blockedBy.text})`;
    if (this.allowed !== undefined && !this.allowed.some((pattern) => urlMatchesPattern(url, pattern, 'allow'))) {
      return `${url.href} is outside agent.allowedUrls (${this.allowed.map((pattern) => pattern.text).join(', ') || 'empty'})`;
    }
    return undefined;
  }
}

// A data: or javascript: URL can hold a whole document: the message names its start.
const MOST_SHOWN_CHARACTERS = 100;

/** The URL as messages show it: a long one (a data: document) cut after its start. */
export function shortened(href: string): string {
  return href.length <= MOST_SHOWN_CHARACTERS ? href : `${href.slice(0, MOST_SHOWN_CHARACTERS)}…`;
}

function patternOf(text: string): UrlPattern {
  const pattern = parseUrlPattern(text);
  // The configuration schema checks every pattern; one that fails here came past it, which is a bug.
  if (pattern === undefined) throw new Error(`not a URL pattern: ${text}`);
  return pattern;
}
