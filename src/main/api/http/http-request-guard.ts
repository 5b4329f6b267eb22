/**
 * Who may talk to the timeline server. It listens on 127.0.0.1 only, but any web page the user opens can
 * still send requests there, and a DNS-rebinding attack can make a foreign name resolve to 127.0.0.1. So:
 * - the Host header must name this server (127.0.0.1:PORT or localhost:PORT): a rebound name is refused;
 * - an Origin header, when present, must be this server's own origin: cross-site requests are refused;
 * - every API request must carry the token printed with the URL, compared in constant time, in the Authorization
 *   header; only the event stream and images, which EventSource and <img> fetch, may carry it in the query;
 * - a call's body must be declared application/json, which a plain HTML form cannot send (415 otherwise).
 * No CORS header is ever sent, so a foreign page cannot read an answer either.
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export type GuardVerdict = { ok: true } | { ok: false; status: 401 | 403; message: string };

export type ContentTypeVerdict = { ok: true } | { ok: false; message: string };

export function allowedHosts(port: number): Set<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
}

/**
 * The origin a reverse proxy serves the timeline at (`--public-origin https://timeline.example.com`): its host is
 * accepted in the Host header and the origin itself in Origin, so a team reaches the server through the proxy. Every
 * other check stands: the server still listens on 127.0.0.1 only and every API request still needs the token.
 */
export interface PublicOrigin {
  origin: string;
  host: string;
}

export function parsePublicOrigin(text: string): PublicOrigin {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`expected an origin like https://timeline.example.com, got ${JSON.stringify(text.slice(0, 80))}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`expected an http:// or https:// origin, got ${url.protocol}//`);
  if (url.username !== '' || url.password !== '' || (url.pathname !== '/' && url.pathname !== '') || url.search !== '' || url.hash !== '') {
    throw new Error(`an origin is a scheme, a host and an optional port only: ${url.origin} (no user, path, query or fragment)`);
  }
  return { origin: url.origin.toLowerCase(), host: url.host.toLowerCase() };
}

export function checkHostAndOrigin(request: IncomingMessage, port: number, publicOrigin?: PublicOrigin): GuardVerdict {
  const hosts = allowedHosts(port);
  const host = request.headers.host?.toLowerCase();
  if (host === undefined || !(hosts.has(host) || host === publicOrigin?.host)) {
    return { ok: false, status: 403, message: 'This server answers only to 127.0.0.1 (the Host header names another).' };
  }
  const origin = request.headers.origin?.toLowerCase();
  if (origin !== undefined && ![...hosts].some((allowed) => origin === `http://${allowed}`) && origin !== publicOrigin?.origin) {
    return { ok: false, status: 403, message: 'Requests from other sites are refused.' };
  }
  return { ok: true };
}

/**
 * Where a `token` query parameter is taken: GET of the event stream and of an image, which EventSource and <img>
 * request and cannot give a header. Anywhere else a URL's query ends up in proxy and server logs for nothing, so every
 * other request must send `Authorization: Bearer`.
 */
export function acceptsTokenInQuery(method: string | undefined, pathname: string): boolean {
  return method === 'GET' && (pathname === '/api/events' || /^\/api\/images\/[^/]+$/.test(pathname));
}

export interface PresentedToken {
  token: string | undefined;
  /** A `token` query parameter was sent where only the header is taken (and no header came). */
  queryRefused: boolean;
}

/** The token from `Authorization: Bearer …`, else, on the event stream and images only, from the `token` query parameter. */
export function presentedToken(request: IncomingMessage, url: URL): PresentedToken {
  const header = request.headers.authorization;
  const bearer = header === undefined ? undefined : /^Bearer\s+(\S+)$/i.exec(header)?.[1];
  if (bearer !== undefined) return { token: bearer, queryRefused: false };
  const query = url.searchParams.get('token') ?? undefined;
  if (query === undefined) return { token: undefined, queryRefused: false };
  return acceptsTokenInQuery(request.method, url.pathname) ? { token: query, queryRefused: false } : { token: undefined, queryRefused: true };
}

export function checkToken(presented: PresentedToken, expected: string): GuardVerdict {
  if (presented.queryRefused) {
    return { ok: false, status: 401, message: 'Send the token as `Authorization: Bearer TOKEN`: a token in the query is taken only by GET /api/events and images.' };
  }
  const refusal: GuardVerdict = { ok: false, status: 401, message: 'A valid token is required: open the URL `sightline timeline` printed.' };
  if (presented.token === undefined) return refusal;
  const given = Buffer.from(presented.token);
  const wanted = Buffer.from(expected);
  return given.length === wanted.length && timingSafeEqual(given, wanted) ? { ok: true } : refusal;
}

/**
 * Whether a Content-Type header declares JSON: its media type (before any `;` parameters, case-insensitive)
 * must be exactly application/json. A prefix test would take `application/json-patch+json`, and one that
 * searched the header would take `text/plain; application/json`, which is text/plain with a parameter.
 */
export function checkJsonContentType(header: string | undefined): ContentTypeVerdict {
  const mediaType = header?.split(';', 1)[0]?.trim().toLowerCase();
  if (mediaType === 'application/json') return { ok: true };
  const given = header === undefined ? 'no Content-Type' : `Content-Type ${JSON.stringify(header)}`;
  return { ok: false, message: `Send the arguments as JSON with Content-Type: application/json (the request had ${given}).` };
}
