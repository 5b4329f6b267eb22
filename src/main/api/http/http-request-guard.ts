/**
 * Who may talk to the timeline server. It listens on 127.0.0.1 only, but any web page the user opens can
 * still send requests there, and a DNS-rebinding attack can make a foreign name resolve to 127.0.0.1. So:
 * - the Host header must name this server (127.0.0.1:PORT or localhost:PORT): a rebound name is refused;
 * - an Origin header, when present, must be this server's own origin: cross-site requests are refused;
 * - every API request must carry the token printed with the URL, compared in constant time;
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

export function checkHostAndOrigin(request: IncomingMessage, port: number): GuardVerdict {
  const hosts = allowedHosts(port);
  const host = request.headers.host?.toLowerCase();
  if (host === undefined || !hosts.has(host)) {
    return { ok: false, status: 403, message: 'This server answers only to 127.0.0.1 (the Host header names another).' };
  }
  const origin = request.headers.origin;
  if (origin !== undefined && ![...hosts].some((allowed) => origin.toLowerCase() === `http://${allowed}`)) {
    return { ok: false, status: 403, message: 'Requests from other sites are refused.' };
  }
  return { ok: true };
}

/** The token from `Authorization: Bearer …`, else from the `token` query parameter (EventSource and <img>). */
export function presentedToken(request: IncomingMessage, url: URL): string | undefined {
  const header = request.headers.authorization;
  const bearer = header === undefined ? undefined : /^Bearer\s+(\S+)$/i.exec(header)?.[1];
  return bearer ?? url.searchParams.get('token') ?? undefined;
}

export function checkToken(presented: string | undefined, expected: string): GuardVerdict {
  const refusal: GuardVerdict = { ok: false, status: 401, message: 'A valid token is required: open the URL `sightline timeline` printed.' };
  if (presented === undefined) return refusal;
  const given = Buffer.from(presented);
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
