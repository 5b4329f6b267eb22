/**
 * A fuzzer for the browser scope's URL patterns: random spellings of a set of URLs (and of the patterns) get
 * the verdict the URL parser's own spelling of the URL gets. A spelling the parser leaves alone but every
 * server reads the same (a trailing dot, a percent-escape, ...) changes nothing; one a server may read as
 * another path (letter case, an encoded slash, a doubled slash) may only make the scope stricter: no
 * spelling of a blocked URL escapes the block, and no spelling opens what the plain URL may not.
 *
 * Replay a failure with SIGHTLINE_FUZZ_SEED=<seed> npx vitest run <this file>.
 */
import { describe, expect, it } from 'vitest';
import { BrowserUrlScope } from '../../src/main/operators/browser-url-scope.js';
import { seededRandom, type Random } from '../helpers/hostile-model-replies.js';

const SEED = Number(process.env.SIGHTLINE_FUZZ_SEED ?? 20261127);
const CASES = 3000;

const BLOCKED = [
  'http://localhost:8701/secret*',
  '*://*/admin*',
  '*://bücher.de/private/*',
  'https://admin.example.com/*',
  'http://[::1]/internal/*',
];
const ALLOWED = [
  '*://localhost:8701/public/*',
  'http://127.0.0.1:8702/docs/*',
  'https://*.example.com/api/*',
  '*://bücher.de/shop/*',
  'http://[::1]:8703/*',
  'https://example.com/café/*',
];

/** Each written the way the URL parser writes it. */
const BASES = [
  'http://localhost:8701/secret/page?x=1',
  'http://localhost:8701/public/docs/a.html',
  'http://localhost:8701/other',
  'http://127.0.0.1:8702/admin/users',
  'http://127.0.0.1:8702/docs/guide?q=a+b&r=%26',
  'https://xn--bcher-kva.de/shop/cart',
  'https://xn--bcher-kva.de/private/orders',
  'https://docs.example.com/api/v1/ref',
  'https://admin.example.com/api/x',
  'http://[::1]:8703/internal/x',
  'http://[::1]:8703/ok',
  'https://example.com/caf%C3%A9/menu',
  'https://example.com/docs',
];

/** Other ways to write each host that the URL parser brings back to it. */
const HOST_FORMS: Record<string, readonly string[]> = {
  'xn--bcher-kva.de': ['xn--bcher-kva.de', 'bücher.de', 'BÜCHER.DE', 'XN--BCHER-KVA.DE', 'bu\u0308cher.de', '%62%C3%BCcher.de'],
  '127.0.0.1': ['127.0.0.1', '2130706433', '0x7f000001', '0x7f.1', '0177.0.0.1', '127.1', '127.0.1', '0x7F.0.0.0x1'],
  '[::1]': ['[::1]', '[0:0:0:0:0:0:0:1]', '[::0001]', '[0::1]', '[0000:0000::1]'],
};

type Verdict = 'open' | 'blocked' | 'outside';

function verdict(scope: BrowserUrlScope, url: string): Verdict {
  const refusal = scope.refusal(url);
  if (refusal === undefined) return 'open';
  if (refusal.includes(' is blocked by agent.blockedUrls ')) return 'blocked';
  if (refusal.includes(' is outside agent.allowedUrls ')) return 'outside';
  throw new Error(`unexpected refusal of ${url}: ${refusal}`);
}

function percentEncoded(char: string, random: Random): string {
  const hex = [...new TextEncoder().encode(char)].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
  return random.chance(0.5) ? hex.toUpperCase() : hex;
}

function randomCase(text: string, random: Random): string {
  return [...text].map((char) => (random.chance(0.5) ? char.toUpperCase() : char.toLowerCase())).join('');
}

/** A name spelled with letters the parser folds: case, fullwidth letters, the ideographic full stop, escapes. */
function spelledName(name: string, random: Random): string {
  return [...name]
    .map((char) => {
      if (char === '.') return random.chance(0.2) ? '\u3002' : '.';
      if (random.chance(0.1)) return String.fromCodePoint(char.toLowerCase().codePointAt(0)! - 0x21 + 0xff01);
      if (random.chance(0.1)) return percentEncoded(char, random);
      return random.chance(0.5) ? char.toUpperCase() : char;
    })
    .join('');
}

function spelledHost(host: string, random: Random): string {
  const forms = HOST_FORMS[host];
  const spelled = forms !== undefined ? random.pick(forms) : spelledName(host, random);
  if (spelled.startsWith('[') || spelled.startsWith('%')) return spelled;
  return random.chance(0.3) ? `${spelled}.` : spelled;
}

/** Path spellings every server reads as the same path: escapes, `./`, `x/../`, backslashes (the parser's `/`). */
function spelledPathSameEverywhere(path: string, random: Random, allowed: { backslash: boolean }): string {
  const spelledSegments: string[] = [];
  for (const segment of path.split('/').slice(1)) {
    // Before an empty last segment (a trailing slash), a dot segment would leave a doubled slash behind.
    if (segment !== '' && random.chance(0.15)) spelledSegments.push(random.pick(['.', '%2e', '%2E']));
    if (segment !== '' && random.chance(0.15)) spelledSegments.push(random.pick(['x', 'zz', 'a.b']), random.pick(['..', '.%2e', '%2E%2e']));
    spelledSegments.push(spelledText(segment, random));
  }
  return spelledSegments.map((segment) => (allowed.backslash && random.chance(0.1) ? '\\' : '/') + segment).join('');
}

/** Some characters percent-encoded, escapes left as they are. */
function spelledText(text: string, random: Random): string {
  return text.replace(/%[0-9A-F]{2}|[^/]/gi, (char) => (char.length === 1 && random.chance(0.25) ? percentEncoded(char, random) : char));
}

/** Spellings a server may read as another path: letter case, an encoded slash, a doubled slash. */
function spelledPathMaybeElsewhere(path: string, random: Random): string {
  return path.replace(/[a-z]|\//gi, (char, at: number) => {
    if (char !== '/') return random.chance(0.3) ? randomCase(char, random) : char;
    // The first slash ends the host: escaped, it would be part of the port or host.
    if (at === 0) return random.chance(0.15) ? '//' : '/';
    if (random.chance(0.15)) return random.pick(['%2F', '%2f', '%5C']);
    return random.chance(0.15) ? '//' : '/';
  });
}

function spelledQuery(search: string, random: Random): string {
  // `&`, `=` and `+` are the query's own separators: their escapes are other data, not another spelling.
  return search.replace(/[^?&=+%]/g, (char) => (random.chance(0.25) ? percentEncoded(char, random) : char));
}

function spelledUrl(base: string, random: Random, maybeElsewhere: boolean): string {
  const url = new URL(base);
  const scheme = random.chance(0.3) ? url.protocol.toUpperCase() : url.protocol;
  const userinfo = random.pick(['', '', 'user@', 'user:secret@', 'localhost:8701@']);
  const defaultPort = url.protocol === 'https:' ? '443' : '80';
  const port = url.port !== '' ? `:${random.chance(0.2) ? `0${url.port}` : url.port}` : random.chance(0.3) ? `:${defaultPort}` : '';
  // Another path first, then spelled: a dot segment spelled into the URL resolves the same in every reading.
  const path = spelledPathSameEverywhere(maybeElsewhere ? spelledPathMaybeElsewhere(url.pathname, random) : url.pathname, random, { backslash: true });
  const fragment = random.chance(0.2) ? '#top' : '';
  return `${scheme}//${userinfo}${spelledHost(url.hostname, random)}${port}${path}${spelledQuery(url.search, random)}${fragment}`;
}

/** The pattern written another way: its host and the literal parts of its path. */
function spelledPattern(pattern: string, random: Random): string {
  const shape = /^([^:]+):\/\/(\[[^\]]*\]|[^/:]*)(:[^/]*)?(\/.*)?$/.exec(pattern);
  if (shape === null) throw new Error(`test pattern ${pattern}`);
  const [, scheme, host, port = '', path = ''] = shape as unknown as [string, string, string, string | undefined, string | undefined];
  const domain = host.startsWith('*.') ? '*.' : '';
  const name = host.slice(domain.length);
  const normalName = name === '*' ? '*' : new URL(`http://${name}/`).hostname;
  const spelledHostText = name === '*' ? '*' : spelledHost(normalName, random);
  // Dot segments go only where a whole segment stands, before the first `*`; after it, only escapes.
  const [head = '', ...rest] = path.split('*');
  const spelledPath = [head === '' ? '' : spelledPathSameEverywhere(head, random, { backslash: false }), ...rest.map((piece) => spelledText(piece, random))].join('*');
  return `${scheme}://${domain}${spelledHostText}${port}${spelledPath}`;
}

describe(`URL patterns under random spellings (seed ${SEED})`, () => {
  const scopes = {
    block: (blockedUrls: readonly string[], _allowedUrls: readonly string[]) => BrowserUrlScope.from({ blockedUrls }),
    allow: (_blockedUrls: readonly string[], allowedUrls: readonly string[]) => BrowserUrlScope.from({ allowedUrls }),
    both: (blockedUrls: readonly string[], allowedUrls: readonly string[]) => BrowserUrlScope.from({ blockedUrls, allowedUrls }),
  };

  it("give every spelling the parser's verdict, or a stricter one where a server may read it elsewhere", () => {
    const random = seededRandom(SEED);
    const plainScopes = Object.fromEntries(Object.entries(scopes).map(([kind, make]) => [kind, make(BLOCKED, ALLOWED)]));
    const seen = { open: 0, blocked: 0, outside: 0, narrowed: 0 };
    const failures: string[] = [];
    for (let index = 0; index < CASES; index += 1) {
      const base = random.pick(BASES);
      const kind = random.pick(Object.keys(scopes) as (keyof typeof scopes)[]);
      const maybeElsewhere = random.chance(0.4);
      const spelling = spelledUrl(base, random, maybeElsewhere);
      const spellPatterns = random.chance(0.5);
      const [blocked, allowed] = spellPatterns
        ? [BLOCKED.map((pattern) => spelledPattern(pattern, random)), ALLOWED.map((pattern) => spelledPattern(pattern, random))]
        : [BLOCKED, ALLOWED];
      const scope = spellPatterns ? scopes[kind](blocked, allowed) : plainScopes[kind]!;
      const expected = verdict(plainScopes[kind]!, new URL(base).href);
      const got = verdict(scope, spelling);
      // Where a server may read the spelling as another path, only a block may hold it, or an allow leave it out.
      const fine = !maybeElsewhere || kind === 'block' ? got === expected : got === expected || (expected !== 'blocked' && got !== 'open');
      if (!fine) {
        failures.push(`case ${index}: ${spelling} is ${got}, ${base} is ${expected}, under the ${kind} scope of ${JSON.stringify({ blocked, allowed })}`);
      }
      if (got !== expected) seen.narrowed += 1;
      seen[got] += 1;
    }
    expect(failures.slice(0, 5), `${failures.length} failures; replay with SIGHTLINE_FUZZ_SEED=${SEED}`).toEqual([]);
    // The run reached every verdict, and spellings a server may read elsewhere did narrow the allow list.
    expect(Math.min(seen.open, seen.blocked, seen.outside, seen.narrowed)).toBeGreaterThan(50);
  });
});
