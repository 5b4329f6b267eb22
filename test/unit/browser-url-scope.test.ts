/**
 * The browser operator's scope, decided outside the browser: URL patterns (src/shared/url-patterns.ts) and
 * which URLs BrowserUrlScope refuses, with the reason the model and the user are shown.
 */
import { describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../src/shared/config.js';
import { parseUrlPattern, urlMatchesPattern } from '../../src/shared/url-patterns.js';
import { BrowserUrlScope } from '../../src/main/operators/browser-url-scope.js';

/** Whether the pattern matches: a plainly written URL gets the same answer whether the pattern allows or blocks. */
function matches(pattern: string, url: string): boolean {
  const parsed = parseUrlPattern(pattern);
  if (parsed === undefined) throw new Error(`not a pattern: ${pattern}`);
  const allows = urlMatchesPattern(new URL(url), parsed, 'allow');
  expect(urlMatchesPattern(new URL(url), parsed, 'block'), `${pattern} blocking ${url}`).toBe(allows);
  return allows;
}

describe('URL patterns', () => {
  it('match a host and its subdomains, under any path', () => {
    expect(matches('https://*.example.com/*', 'https://example.com/')).toBe(true);
    expect(matches('https://*.example.com/*', 'https://docs.example.com/a/b?c=d')).toBe(true);
    expect(matches('https://*.example.com/*', 'https://badexample.com/')).toBe(false);
    expect(matches('https://*.example.com/*', 'http://example.com/')).toBe(false);
  });

  it('never let a path wildcard accept another host', () => {
    expect(matches('https://*.example.com/*', 'https://evil.test/?.example.com/')).toBe(false);
    expect(matches('https://*.example.com/*', 'https://example.com.evil.test/')).toBe(false);
  });

  it('read * as http or https, and an absent port as any port', () => {
    expect(matches('*://localhost/*', 'http://localhost:8080/x')).toBe(true);
    expect(matches('*://localhost/*', 'https://localhost/')).toBe(true);
    expect(matches('*://localhost/*', 'file:///etc/passwd')).toBe(false);
    expect(matches('http://localhost:8080/*', 'http://localhost:8081/')).toBe(false);
    expect(matches('https://example.com:443/*', 'https://example.com/')).toBe(true);
  });

  it('match paths by glob, and an absent path as every path', () => {
    expect(matches('http://127.0.0.1/blocked*', 'http://127.0.0.1:4000/blocked?x=1')).toBe(true);
    expect(matches('http://127.0.0.1/blocked*', 'http://127.0.0.1:4000/fine')).toBe(false);
    expect(matches('https://example.com', 'https://example.com/deep/page')).toBe(true);
    expect(matches('file:///home/me/*', 'file:///home/me/page.html')).toBe(true);
  });

  it('refuse text that is not a pattern, in the configuration too', () => {
    for (const text of ['example.com', 'ftp://example.com/*', 'https://exa*mple.com/*', 'https:///x', 'file://host/x']) {
      expect(parseUrlPattern(text), text).toBeUndefined();
    }
    const checked = ConfigSchema.safeParse({ agent: { blockedUrls: ['example.com'] } });
    expect(checked.success).toBe(false);
    expect(JSON.stringify(checked.error?.issues)).toContain('URL pattern');
  });
});

describe('the browser scope', () => {
  it('refuses file: URLs unless they are allowed', () => {
    expect(BrowserUrlScope.from().refusal('file:///tmp/page.html')).toContain('--allow-file-urls');
    expect(BrowserUrlScope.from({ allowFileUrls: true }).refusal('file:///tmp/page.html')).toBeUndefined();
    expect(BrowserUrlScope.from().refusal('https://example.com/')).toBeUndefined();
    expect(BrowserUrlScope.from().watchesNavigations).toBe(false);
  });

  it('refuses what is blocked, even when allowed, and what the allowed list leaves out', () => {
    const scope = BrowserUrlScope.from({ allowedUrls: ['https://*.example.com/*'], blockedUrls: ['https://admin.example.com/*'] });
    expect(scope.watchesNavigations).toBe(true);
    expect(scope.refusal('https://www.example.com/docs')).toBeUndefined();
    expect(scope.refusal('https://admin.example.com/users')).toBe(
      'https://admin.example.com/users is blocked by agent.blockedUrls (https://admin.example.com/*)',
    );
    expect(scope.refusal('https://evil.test/')).toBe('https://evil.test/ is outside agent.allowedUrls (https://*.example.com/*)');
    // A new tab or popup starts empty: that is never a navigation anywhere.
    expect(scope.refusal('about:blank')).toBeUndefined();
  });

  it('opens only web pages, with or without patterns: no browser page, source view, made-up document or script', () => {
    const schemes = [
      'chrome://version',
      'chrome://settings/passwords',
      'devtools://devtools/bundled/inspector.html',
      'view-source:http://127.0.0.1:8080/',
      'data:text/html,<h1>made up</h1>',
      'blob:http://127.0.0.1:8080/0d1e0f2a-0000-4000-8000-000000000000',
      'filesystem:http://127.0.0.1:8080/temporary/page.html',
      'javascript:alert(document.cookie)',
      'chrome-extension://abcdefghijklmnopabcdefghijklmnop/page.html',
      'about:version',
      'about:config',
      'ftp://example.com/',
      'ws://127.0.0.1:8080/',
    ];
    const scopes = [BrowserUrlScope.from(), BrowserUrlScope.from({ allowFileUrls: true }), BrowserUrlScope.from({ blockedUrls: ['https://admin.example.com/*'] })];
    for (const scope of scopes) {
      for (const url of schemes) expect(scope.refusal(url), url).toMatch(/URL, and the browser opens only http\(s\) pages \(and file: ones with agent\.allowFileUrls\)$/);
      expect(scope.refusal('http://127.0.0.1:8080/')).toBeUndefined();
      expect(scope.refusal('https://example.com/a?b=c')).toBeUndefined();
      expect(scope.refusal('about:blank')).toBeUndefined();
    }
    // A whole document in a data: URL is named by its start only.
    const long = `data:text/html,${'x'.repeat(5000)}`;
    expect(BrowserUrlScope.from().refusal(long)!.length).toBeLessThan(300);
  });
});
