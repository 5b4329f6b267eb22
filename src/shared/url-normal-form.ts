/**
 * The one spelling URL patterns are matched in (src/shared/url-patterns.ts): a URL and a pattern are both
 * brought to it before they are compared, so writing a host or a path another way cannot step around a
 * pattern. The host half leans on the WHATWG URL parser (the global `URL`, in every runtime Sightline runs
 * in); the path half is done here, because the parser leaves percent-encoding and repeated slashes as written.
 */

/**
 * How a path is read. A server may or may not take an encoded slash (`%2F`, `%5C`) for a separator, fold
 * repeated slashes, or drop a `;parameter` from a `..` segment: `literal` reads the path as the URL spells its
 * segments, `lenient` as a server that does all of that. A block holds when either reading matches; an allow
 * only when both do, so an ambiguous spelling always counts against the URL.
 */
export type PathReading = 'literal' | 'lenient';
export const PATH_READINGS: readonly PathReading[] = ['literal', 'lenient'];

/**
 * A host as the parser spells it (lowercase, punycode, IPv4 in dotted decimal, IPv6 compressed), without a
 * trailing dot: `localhost.` is the same host as `localhost` to DNS.
 */
export function normalHostname(url: URL): string {
  return withoutTrailingDots(url.hostname);
}

/** A pattern's host (no wildcard) in the same spelling, or undefined when the parser does not take it as a host. */
export function normalPatternHost(text: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(`http://${text}/`);
  } catch {
    return undefined;
  }
  // `a@b`, `a?b` or `a\b` parse as a URL whose host is only part of the text: then the text was not a host.
  const onlyHost = parsed.username === '' && parsed.password === '' && parsed.port === '' && parsed.pathname === '/' && parsed.search === '' && parsed.hash === '';
  const host = withoutTrailingDots(parsed.hostname);
  return onlyHost && host !== '' ? host : undefined;
}

function withoutTrailingDots(host: string): string {
  return host.replace(/\.+$/, '');
}

/**
 * A URL's path and query in the reading's spelling: percent-escapes decoded (except those that would change
 * the structure: `%25`, `%2F` and `%5C` in the literal reading, `%3F`, `%23`, and `%26 %3D %2B` in the
 * query), dot segments resolved, and every byte outside printable ASCII written `%XX` in capitals.
 */
export function normalPathAndQuery(pathname: string, search: string, reading: PathReading): string {
  return normalPieces(pathname, search, reading, false).join('');
}

/**
 * A pattern's path and query in the same spelling, as the literal runs between its `*`s: the `*` of a
 * pattern is never decoded or resolved (a `%2A` in the pattern stays a literal star).
 */
export function normalPatternPieces(pathAndQuery: string, reading: PathReading): string[] {
  const queryAt = pathAndQuery.indexOf('?');
  const [path, query] = queryAt === -1 ? [pathAndQuery, ''] : [pathAndQuery.slice(0, queryAt), pathAndQuery.slice(queryAt)];
  return normalPieces(path, query, reading, true);
}

const WILDCARD = 'wildcard';
type Token = { byte: number; escaped: boolean } | typeof WILDCARD;

const SLASH = 0x2f;
const BACKSLASH = 0x5c;
const DOT = 0x2e;
const SEMICOLON = 0x3b;
/** Bytes never written as themselves: the escape sign, the separators, and the query and fragment signs. */
const ALWAYS_ESCAPED = new Set([0x25, SLASH, BACKSLASH, 0x3f, 0x23]);
/** In a query, an escaped `&`, `=` or `+` is data, not a separator, and stays escaped. */
const QUERY_DELIMITERS = new Set([0x26, 0x3d, 0x2b]);

const UTF8 = new TextEncoder();

function normalPieces(path: string, query: string, reading: PathReading, wildcards: boolean): string[] {
  const out = new PieceWriter();
  out.text('/');
  resolvedSegments(segmentsOf(tokens(path, wildcards), reading), reading).forEach((segment, index) => {
    if (index > 0) out.text('/');
    for (const token of segment) out.token(token, false);
  });
  const queryTokens = tokens(query.replace(/^\?/, ''), wildcards);
  if (queryTokens.length > 0) {
    out.text('?');
    for (const token of queryTokens) out.token(token, token !== WILDCARD && token.escaped && QUERY_DELIMITERS.has(token.byte));
  }
  return out.pieces;
}

/** The text as bytes (UTF-8, as the URL parser encodes), each saying whether it was written as `%XX`. */
function tokens(text: string, wildcards: boolean): Token[] {
  const result: Token[] = [];
  let index = 0;
  while (index < text.length) {
    const char = String.fromCodePoint(text.codePointAt(index) ?? 0);
    const hex = text.slice(index + 1, index + 3);
    if (wildcards && char === '*') {
      result.push(WILDCARD);
    } else if (char === '%' && /^[0-9a-f]{2}$/i.test(hex)) {
      result.push({ byte: Number.parseInt(hex, 16), escaped: true });
      index += 2;
    } else if (char.length === 1 && char.charCodeAt(0) < 0x80) {
      result.push({ byte: char.charCodeAt(0), escaped: false });
    } else {
      for (const byte of UTF8.encode(char)) result.push({ byte, escaped: false });
    }
    index += char.length;
  }
  return result;
}

function segmentsOf(pathTokens: readonly Token[], reading: PathReading): Token[][] {
  const segments: Token[][] = [[]];
  for (const token of pathTokens) {
    const separates = token !== WILDCARD && (token.byte === SLASH || token.byte === BACKSLASH) && (!token.escaped || reading === 'lenient');
    if (separates) segments.push([]);
    else segments[segments.length - 1]?.push(token);
  }
  // The path starts with its separator: what stands before it is not a segment.
  if (segments[0]?.length === 0) segments.shift();
  return segments;
}

/** `.` and `..` resolved as the URL parser does; in the lenient reading, empty segments (`//`) dropped too. */
function resolvedSegments(segments: readonly Token[][], reading: PathReading): Token[][] {
  const resolved: Token[][] = [];
  segments.forEach((segment, index) => {
    const last = index === segments.length - 1;
    const dots = dotSegment(segment, reading);
    if (dots === 2) resolved.pop();
    // A path that ends in a dot segment or a slash keeps its trailing slash.
    if (dots > 0 || (segment.length === 0 && reading === 'lenient')) {
      if (last) resolved.push([]);
      return;
    }
    resolved.push(segment);
  });
  if (resolved.length === 0) resolved.push([]);
  return resolved;
}

/** 1 for `.`, 2 for `..` (escaped dots included), 0 for any other segment. Servlet containers read `..;x` as `..`. */
function dotSegment(segment: readonly Token[], reading: PathReading): 0 | 1 | 2 {
  const bytes: number[] = [];
  for (const token of segment) {
    if (token === WILDCARD) return 0;
    if (token.byte === SEMICOLON && reading === 'lenient') break;
    bytes.push(token.byte);
  }
  if (!bytes.every((byte) => byte === DOT)) return 0;
  return bytes.length === 1 ? 1 : bytes.length === 2 ? 2 : 0;
}

/** Writes bytes in their one spelling, starting a new piece at each wildcard. */
class PieceWriter {
  readonly pieces: string[] = [''];

  text(text: string): void {
    this.pieces[this.pieces.length - 1] += text;
  }

  token(token: Token, keepEscaped: boolean): void {
    if (token === WILDCARD) {
      this.pieces.push('');
      return;
    }
    const printable = token.byte > 0x20 && token.byte < 0x7f && !ALWAYS_ESCAPED.has(token.byte);
    this.text(printable && !keepEscaped ? String.fromCharCode(token.byte) : `%${token.byte.toString(16).toUpperCase().padStart(2, '0')}`);
  }
}
