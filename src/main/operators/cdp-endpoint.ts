/**
 * The address of a Chrome the person started with a debugging port (`--cdp URL`, a flow's `target.cdpEndpoint`,
 * the SDK's `Sightline.connect({ cdp })`), checked in one place before anything connects to it.
 *
 * Why loopback only unless the person says otherwise: whoever reaches a DevTools endpoint controls that browser
 * completely (every tab, cookie and saved session), with no password. An endpoint on another machine is a
 * remote-control channel to someone's browser, and Chrome's protocol is plain, unauthenticated WebSocket: a
 * flow file someone else wrote could point Sightline at it, or the person's own session could travel the
 * network in the clear. So a remote endpoint is refused unless the run allows it (`--allow-remote-cdp`,
 * `allowRemote: true`), which a flow file cannot do for itself.
 *
 * Why the shown form: a WebSocket endpoint's path holds the browser's id (`/devtools/browser/<id>`), and hosted
 * browsers put their access token in the query (`?token=`); either lets a reader of a log drive the browser.
 * Messages name the scheme, host and port only.
 */
import { isIP } from 'node:net';
import { z } from 'zod';

const EndpointSchema = z
  .string()
  .trim()
  .min(1, 'the endpoint is empty')
  .max(2048, 'the endpoint is longer than 2048 characters')
  .pipe(z.url({ protocol: /^(https?|wss?)$/, error: 'expected an http://, https://, ws:// or wss:// URL, like http://127.0.0.1:9222' }));

export interface CdpEndpoint {
  /** The address to connect to, as given. */
  url: string;
  /** The address without its path, query or credentials, fit for any message or log. */
  shown: string;
  /** Whether it is on this machine (127.0.0.0/8, ::1 or localhost). */
  loopback: boolean;
}

export type CdpEndpointCheck = { ok: true; endpoint: CdpEndpoint } | { ok: false; problem: string };

export interface CdpEndpointRules {
  /** Lets an endpoint on another machine through (`--allow-remote-cdp`). */
  allowRemote?: boolean | undefined;
}

/** The endpoint, or why it cannot be used; the problem never holds the endpoint's path, query or credentials. */
export function checkCdpEndpoint(text: unknown, rules: CdpEndpointRules = {}): CdpEndpointCheck {
  const parsed = EndpointSchema.safeParse(text);
  if (!parsed.success) return { ok: false, problem: `the CDP endpoint is not usable: ${parsed.error.issues[0]?.message ?? 'invalid'}` };
  const url = new URL(parsed.data);
  const endpoint: CdpEndpoint = { url: parsed.data, shown: shownOf(url), loopback: isLoopback(url.hostname) };
  if (!endpoint.loopback && rules.allowRemote !== true) {
    return {
      ok: false,
      problem:
        `the CDP endpoint ${endpoint.shown} is not on this machine. Whoever reaches a browser's debugging port controls ` +
        'that browser (every tab, cookie and signed-in session), and the protocol has no password or encryption, so ' +
        'Sightline attaches only to 127.0.0.1, ::1 or localhost. If you mean to drive that browser, pass --allow-remote-cdp ' +
        '(the SDK: allowRemote: true)',
    };
  }
  return { ok: true, endpoint };
}

/** The scheme, host and port of an endpoint, for messages; `…` stands for a path or query left out. */
function shownOf(url: URL): string {
  const hidden = (url.pathname !== '/' && url.pathname !== '') || url.search !== '' || url.username !== '' || url.password !== '';
  return `${url.protocol}//${url.host}${hidden ? '/…' : ''}`;
}

function isLoopback(hostname: string): boolean {
  const host = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  if (isIP(host) === 6) return host === '::1' || host === '0:0:0:0:0:0:0:1';
  return false;
}

/** `message` with the endpoint's full address (and any token-like query value) replaced by its shown form. */
export function withoutEndpoint(message: string, endpoint: CdpEndpoint): string {
  return message
    .split(endpoint.url)
    .join(endpoint.shown)
    .replace(/\b(wss?|https?):\/\/([^\s/'"]+)\/devtools\/[^\s'"]*/g, '$1://$2/…')
    .replace(/([?&](?:token|key|apiKey|api_key|auth|access_token)=)[^\s&'"]+/gi, '$1…');
}
