/**
 * Another spelling of a URL is the same URL to a server: URL patterns (src/shared/url-patterns.ts) read the URL
 * and the pattern in one spelling, so a trailing dot, a percent-escape, a doubled slash, letter case or an
 * internationalized host cannot step around agent.blockedUrls, nor widen agent.allowedUrls.
 */
import { describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../src/shared/config.js';
import { parseUrlPattern, urlMatchesPattern, urlPatternError, type PatternUse } from '../../src/shared/url-patterns.js';
import { BrowserUrlScope } from '../../src/main/operators/browser-url-scope.js';

function matches(pattern: string, url: string, use: PatternUse): boolean {
  const parsed = parseUrlPattern(pattern);
  if (parsed === undefined) throw new Error(`not a pattern: ${pattern} (${urlPatternError(pattern)})`);
  return urlMatchesPattern(new URL(url), parsed, use);
}

describe('a block holds every spelling of what it names', () => {
  it('a trailing dot in the host', () => {
    expect(matches('http://localhost:8701/*', 'http://localhost.:8701/', 'block')).toBe(true);
    expect(matches('https://*.example.com/*', 'https://admin.example.com./', 'block')).toBe(true);
    expect(matches('http://localhost./*', 'http://localhost/', 'block')).toBe(true);
  });

  it('a percent-encoded path, in the URL or in the pattern', () => {
    expect(matches('*://*/secret*', 'http://localhost:8701/%73ecret', 'block')).toBe(true);
    expect(matches('*://*/secret*', 'http://localhost:8701/%73%65%63%72%65%74/x', 'block')).toBe(true);
    expect(matches('*://*/%73ecret*', 'http://localhost:8701/secret', 'block')).toBe(true);
    expect(matches('https://example.com/caf%c3%a9*', 'https://example.com/café', 'block')).toBe(true);
    expect(matches('https://example.com/café*', 'https://example.com/caf%C3%A9', 'block')).toBe(true);
  });

  it('a doubled slash and a dot segment', () => {
    expect(matches('http://localhost:8701/secret*', 'http://localhost:8701//secret', 'block')).toBe(true);
    expect(matches('http://localhost:8701/a/secret*', 'http://localhost:8701/a//secret', 'block')).toBe(true);
    expect(matches('http://localhost:8701/secret*', 'http://localhost:8701/x/%2e%2E/secret', 'block')).toBe(true);
  });

  it('letter case in the path', () => {
    expect(matches('http://localhost:8701/admin*', 'http://localhost:8701/ADMIN', 'block')).toBe(true);
    expect(matches('http://localhost:8701/admin*', 'http://localhost:8701/Admin/users', 'block')).toBe(true);
  });

  it('an internationalized host, written in Unicode on one side and punycode on the other', () => {
    expect(matches('*://bücher.de/*', 'http://xn--bcher-kva.de/', 'block')).toBe(true);
    expect(matches('*://*.BÜCHER.de/*', 'http://shop.xn--bcher-kva.de/', 'block')).toBe(true);
    expect(matches('*://xn--bcher-kva.de/*', 'http://bücher.de/', 'block')).toBe(true);
  });

  it('an address spelled another way, on either side', () => {
    expect(matches('http://2130706433/*', 'http://127.0.0.1/', 'block')).toBe(true);
    expect(matches('http://127.0.0.1/*', 'http://0x7f.1/', 'block')).toBe(true);
    expect(matches('http://[::1]/*', 'http://[0:0:0:0:0:0:0:1]:8701/', 'block')).toBe(true);
  });

  it("an encoded slash, and a servlet container's `..;`, read as a lenient server reads them", () => {
    expect(matches('http://localhost:8701/admin/*', 'http://localhost:8701/admin%2Fusers', 'block')).toBe(true);
    expect(matches('http://localhost:8701/admin*', 'http://localhost:8701/public/..%2Fadmin', 'block')).toBe(true);
    expect(matches('http://localhost:8701/admin*', 'http://localhost:8701/public/..%5cadmin', 'block')).toBe(true);
    expect(matches('http://localhost:8701/admin*', 'http://localhost:8701/public/..;/admin', 'block')).toBe(true);
  });

  it('and still names only what it names', () => {
    expect(matches('http://localhost:8701/admin*', 'http://localhost:8701/public/admin', 'block')).toBe(false);
    expect(matches('*://*/secret*', 'http://localhost:8701/%2573ecret', 'block')).toBe(false);
    expect(matches('*://bücher.de/*', 'http://bucher.de/', 'block')).toBe(false);
    // A `%2A` in a pattern is a star in the path, not a wildcard.
    expect(matches('https://example.com/a%2Ab', 'https://example.com/a*b', 'block')).toBe(true);
    expect(matches('https://example.com/a%2Ab', 'https://example.com/axb', 'block')).toBe(false);
  });
});

describe('an allow admits only what it surely names', () => {
  it('takes the spellings that mean the same path everywhere', () => {
    expect(matches('https://example.com/docs/*', 'https://example.com/%64ocs/page', 'allow')).toBe(true);
    expect(matches('https://example.com/docs/*', 'https://example.com./docs/a%2Fb', 'allow')).toBe(true);
    expect(matches('*://bücher.de/*', 'http://xn--bcher-kva.de/', 'allow')).toBe(true);
  });

  it('refuses a spelling a server may read as somewhere else', () => {
    // Letter case: a case-sensitive server serves /DOCS from somewhere else.
    expect(matches('https://example.com/docs/*', 'https://example.com/DOCS/page', 'allow')).toBe(false);
    // An encoded slash that climbs out, and a doubled slash, mean another path to a lenient server or a strict one.
    expect(matches('https://example.com/docs/*', 'https://example.com/docs/..%2Fadmin', 'allow')).toBe(false);
    expect(matches('https://example.com/docs/*', 'https://example.com/docs/..;/admin', 'allow')).toBe(false);
    expect(matches('https://example.com/docs/*', 'https://example.com//docs/page', 'allow')).toBe(false);
  });
});

describe('the browser scope refuses the spellings', () => {
  const scope = BrowserUrlScope.from({
    blockedUrls: ['http://localhost:8701/*', '*://*/secret*', 'http://127.0.0.1:8702/admin*', '*://bücher.de/*'],
  });

  it.each([
    ['http://localhost.:8701/', 'http://localhost.:8701/ is blocked by agent.blockedUrls (http://localhost:8701/*)'],
    ['http://127.0.0.1:8702/%73ecret', 'http://127.0.0.1:8702/%73ecret is blocked by agent.blockedUrls (*://*/secret*)'],
    ['http://127.0.0.1:8702//secret', 'http://127.0.0.1:8702//secret is blocked by agent.blockedUrls (*://*/secret*)'],
    ['http://127.0.0.1:8702/ADMIN', 'http://127.0.0.1:8702/ADMIN is blocked by agent.blockedUrls (http://127.0.0.1:8702/admin*)'],
    ['http://xn--bcher-kva.de/', 'http://xn--bcher-kva.de/ is blocked by agent.blockedUrls (*://bücher.de/*)'],
  ])('%s', (url, refusal) => {
    expect(scope.refusal(url)).toBe(refusal);
  });

  it('cannot know other names and addresses of a blocked host', () => {
    // Documented in the README: a pattern names a host, not a machine.
    expect(scope.refusal('http://127.0.0.1:8701/')).toBeUndefined();
    expect(scope.refusal('http://[::1]:8701/')).toBeUndefined();
    expect(scope.refusal('http://[::ffff:127.0.0.1]:8702/admin')).toBeUndefined();
    // What the URL parser rewrites is covered: these are 127.0.0.1 by the time they are matched.
    expect(scope.refusal('http://2130706433:8702/admin')).toContain('is blocked by');
    expect(scope.refusal('http://0x7f.1:8702/admin')).toContain('is blocked by');
  });
});

describe('a pattern that is not one says why', () => {
  it.each([
    ['https://exa mple.com/*', '"exa mple.com" is not a host name or address'],
    ['https://user@example.com/*', '"user@example.com" is not a host name or address'],
    // Not `xn--a.com`: Node 20's URL parser refused that punycode, Node 24's takes it (and Chromium's parser judges
    // the pages' URLs the same way as the patterns), so it says nothing about patterns.
    ['https://exa^mple.com/*', '"exa^mple.com" is not a host name or address'],
    ['https://exa*mple.com/*', 'a host may only start with *.'],
    ['https://example.com/page#top', 'has a #fragment'],
    ['example.com', 'a URL pattern like'],
  ])('%s', (text, reason) => {
    expect(parseUrlPattern(text)).toBeUndefined();
    expect(urlPatternError(text)).toContain(reason);
    expect(urlPatternError(text)).toContain('a URL pattern like https://example.com/*');
  });

  it('in the configuration too', () => {
    const checked = ConfigSchema.safeParse({ agent: { blockedUrls: ['https://exa mple.com/*'] } });
    expect(checked.success).toBe(false);
    expect(checked.error?.issues[0]?.message).toBe(urlPatternError('https://exa mple.com/*'));
    expect(checked.error?.issues[0]?.path).toEqual(['agent', 'blockedUrls', 0]);
  });
});
