/**
 * URL patterns for the browser operator's scope (agent.allowedUrls / agent.blockedUrls), in the shape of
 * browsers' extension match patterns: `<scheme>://<host>[:<port>][<path>]`.
 *
 * - scheme: `http`, `https`, `file`, or `*` for http and https;
 * - host: an exact host, `*` for any host, or `*.example.com` for example.com and every subdomain of it;
 * - port: a number, or `*`; absent means any port;
 * - path: the path and query, where `*` stands for any run of characters; absent means `/*`.
 *
 * The host and the path are matched separately: a `*` in the path can never make a pattern accept another
 * host (`https://*.example.com/*` does not match `https://evil.test/?.example.com/`).
 */

export interface UrlPattern {
  /** As written in the configuration, to name it in messages. */
  text: string;
  schemes: readonly string[];
  host: { kind: 'any' } | { kind: 'exact'; name: string } | { kind: 'domain'; name: string };
  /** Undefined for any port. */
  port: string | undefined;
  path: RegExp;
}

const PATTERN_SHAPE = /^(\*|https?|file):\/\/([^/:]*)(?::(\*|\d{1,5}))?(\/.*)?$/i;

export const URL_PATTERN_FORMS =
  'a URL pattern like https://example.com/*, *://*.example.com/* or http://localhost:8080/docs/* ' +
  '(scheme http, https, file or *; host exact, * or *.domain; optional port; * in the path stands for anything)';

/** The pattern, or undefined when the text is not one (see URL_PATTERN_FORMS). */
export function parseUrlPattern(text: string): UrlPattern | undefined {
  const shape = PATTERN_SHAPE.exec(text.trim());
  if (shape === null) return undefined;
  const [, scheme, host, port, path] = shape as unknown as [string, string, string, string | undefined, string | undefined];
  const lowerScheme = scheme.toLowerCase();
  const lowerHost = host.toLowerCase();
  if (lowerScheme === 'file' ? lowerHost !== '' : lowerHost === '') return undefined;
  if (lowerHost.includes('*') && lowerHost !== '*' && !(lowerHost.startsWith('*.') && !lowerHost.slice(2).includes('*'))) return undefined;
  return {
    text,
    schemes: lowerScheme === '*' ? ['http', 'https'] : [lowerScheme],
    host: hostRule(lowerHost),
    port: port === undefined || port === '*' ? undefined : String(Number(port)),
    path: globExpression(path ?? '/*'),
  };
}

/** Whether the URL (absolute) falls under the pattern. */
export function urlMatchesPattern(url: URL, pattern: UrlPattern): boolean {
  const scheme = url.protocol.replace(/:$/, '');
  if (!pattern.schemes.includes(scheme)) return false;
  if (!hostMatches(url.hostname.toLowerCase(), pattern.host)) return false;
  if (pattern.port !== undefined && effectivePort(url) !== pattern.port) return false;
  return pattern.path.test(url.pathname + url.search);
}

function hostRule(host: string): UrlPattern['host'] {
  if (host === '*') return { kind: 'any' };
  if (host.startsWith('*.')) return { kind: 'domain', name: host.slice(2) };
  return { kind: 'exact', name: host };
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

function globExpression(glob: string): RegExp {
  const escaped = glob.split('*').map((piece) => piece.replace(/[.+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${escaped.join('.*')}$`, 's');
}
