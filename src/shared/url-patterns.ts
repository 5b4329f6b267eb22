/**
 * URL patterns for the browser operator's scope (agent.allowedUrls / agent.blockedUrls), in the shape of
 * browsers' extension match patterns: `<scheme>://<host>[:<port>][<path>]`.
 *
 * - scheme: `http`, `https`, `file`, or `*` for http and https;
 * - host: an exact host (a name, an IPv4 address or a bracketed IPv6 one), `*` for any host, or `*.example.com`
 *   for example.com and every subdomain of it;
 * - port: a number, or `*`; absent means any port;
 * - path: the path and query, where `*` stands for any run of characters; absent means `/*`.
 *
 * The host and the path are matched separately: a `*` in the path can never make a pattern accept another
 * host (`https://*.example.com/*` does not match `https://evil.test/?.example.com/`).
 *
 * Spelling does not matter (src/shared/url-normal-form.ts): the pattern and the URL are both brought to one
 * spelling before they are compared. Hosts as the URL parser writes them (lowercase, punycode for an
 * internationalized name, `2130706433` or `0x7f.1` as 127.0.0.1, IPv6 compressed) without a trailing dot;
 * paths with their percent-escapes decoded and their `.` and `..` segments resolved. An encoded slash and
 * repeated slashes are read both as written and as a lenient server reads them (`%2F` a separator, `//` one
 * slash): a block holds when either reading matches, an allow only when both do. A block matches the path
 * whatever its letter case (a server may not care); an allow matches it exactly (a looser allow is a hole).
 *
 * What a pattern cannot cover: it names a host, not a machine. A block on `localhost` does not hold
 * `127.0.0.1`, `[::1]`, `127.0.0.2` or `0.0.0.0`; a block on a name does not hold the name's IP addresses, nor
 * another name (a CNAME, a wildcard DNS service) for the same server; a block on `127.0.0.1` does not hold the
 * IPv4-mapped `[::ffff:7f00:1]`. An allow list is the way to be sure of where the browser goes.
 */
import { normalHostname, normalPathAndQuery, normalPatternHost, normalPatternPieces, PATH_READINGS, type PathReading } from './url-normal-form.js';

export interface UrlPattern {
  /** As written in the configuration, to name it in messages. */
  text: string;
  schemes: readonly string[];
  host: { kind: 'any' } | { kind: 'exact'; name: string } | { kind: 'domain'; name: string };
  /** Undefined for any port. */
  port: string | undefined;
  /** The path glob in each reading, matched exactly (for an allow) and whatever the letter case (for a block). */
  paths: Record<PathReading, { exact: RegExp; anyCase: RegExp }>;
}

/** An allow admits only what it surely names; a block holds whatever may be what it names. */
export type PatternUse = 'allow' | 'block';

const PATTERN_SHAPE = /^(\*|https?|file):\/\/(\[[^\]/]*\]|[^/:]*)(?::(\*|\d{1,5}))?(\/.*)?$/i;

export const URL_PATTERN_FORMS =
  'a URL pattern like https://example.com/*, *://*.example.com/* or http://localhost:8080/docs/* ' +
  '(scheme http, https, file or *; host exact, * or *.domain; optional port; * in the path stands for anything)';

/** The pattern, or undefined when the text is not one (urlPatternError says why). */
export function parseUrlPattern(text: string): UrlPattern | undefined {
  const read = readUrlPattern(text);
  return 'pattern' in read ? read.pattern : undefined;
}

/** Undefined for a pattern; otherwise what is wrong with the text, in words fit for a configuration error. */
export function urlPatternError(text: string): string | undefined {
  const read = readUrlPattern(text);
  return 'error' in read ? read.error : undefined;
}

function readUrlPattern(text: string): { pattern: UrlPattern } | { error: string } {
  // The URL parser drops tabs and line breaks anywhere in a URL; a pattern that kept them could match nothing.
  const shape = PATTERN_SHAPE.exec(text.trim().replace(/[\t\n\r]/g, ''));
  if (shape === null) return { error: URL_PATTERN_FORMS };
  const [, scheme, host, port, path] = shape as unknown as [string, string, string, string | undefined, string | undefined];
  const lowerScheme = scheme.toLowerCase();
  if (lowerScheme === 'file' ? host !== '' : host === '') return { error: URL_PATTERN_FORMS };
  const hostRule = lowerScheme === 'file' ? ({ kind: 'exact', name: '' } as const) : readHost(host);
  if (typeof hostRule === 'string') return { error: `${hostRule} in "${text}": expected ${URL_PATTERN_FORMS}` };
  if (path?.includes('#')) return { error: `"${text}" has a #fragment, which never reaches a server: expected ${URL_PATTERN_FORMS}` };
  return {
    pattern: {
      text,
      schemes: lowerScheme === '*' ? ['http', 'https'] : [lowerScheme],
      host: hostRule,
      port: port === undefined || port === '*' ? undefined : String(Number(port)),
      paths: pathExpressions(path ?? '/*'),
    },
  };
}

/** The host rule, or why the text is not a host. */
function readHost(host: string): UrlPattern['host'] | string {
  if (host === '*') return { kind: 'any' };
  const domain = host.startsWith('*.');
  const name = domain ? host.slice(2) : host;
  if (name.includes('*')) return 'a host may only start with *. (for a domain and its subdomains) or be * alone';
  const normal = normalPatternHost(name);
  if (normal === undefined) return `"${name}" is not a host name or address`;
  return domain ? { kind: 'domain', name: normal } : { kind: 'exact', name: normal };
}

/** Whether the URL (absolute) falls under the pattern, read for the use the pattern is put to. */
export function urlMatchesPattern(url: URL, pattern: UrlPattern, use: PatternUse): boolean {
  const scheme = url.protocol.replace(/:$/, '');
  if (!pattern.schemes.includes(scheme)) return false;
  if (!hostMatches(normalHostname(url), pattern.host)) return false;
  if (pattern.port !== undefined && effectivePort(url) !== pattern.port) return false;
  const readingMatches = (reading: PathReading): boolean => {
    const path = pattern.paths[reading];
    return (use === 'block' ? path.anyCase : path.exact).test(normalPathAndQuery(url.pathname, url.search, reading));
  };
  return use === 'block' ? PATH_READINGS.some(readingMatches) : PATH_READINGS.every(readingMatches);
}

function hostMatches(hostname: string, rule: UrlPattern['host']): boolean {
  switch (rule.kind) {
    case 'any':
      return true;
    case 'exact':
      return hostname === rule.name;
    case 'domain':
      return hostname === rule.name || hostname.endsWith(`.${rule.name}`);
  }
}

/** The port a URL reaches, written out: a URL object leaves the scheme's default port empty. */
function effectivePort(url: URL): string {
  if (url.port !== '') return url.port;
  return url.protocol === 'https:' ? '443' : url.protocol === 'http:' ? '80' : '';
}

function pathExpressions(glob: string): UrlPattern['paths'] {
  const expressions = (reading: PathReading): { exact: RegExp; anyCase: RegExp } => {
    const pieces = normalPatternPieces(glob, reading).map((piece) => piece.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    const source = `^${pieces.join('.*')}$`;
    // The normal form is ASCII: the `i` flag folds exactly the letters a server might fold.
    return { exact: new RegExp(source, 's'), anyCase: new RegExp(source, 'is') };
  };
  return { literal: expressions('literal'), lenient: expressions('lenient') };
}
