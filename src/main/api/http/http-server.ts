/**
 * The HTTP transport of the app API, for `sightline timeline`: the built renderer and the same calls the
 * Electron app makes over IPC, on 127.0.0.1 only.
 *
 *   GET  /, /assets/…          the built renderer (out/renderer), with a strict CSP
 *   POST /api/<call>           JSON array of arguments → JSON result (validated by the app API's schemas)
 *   GET  /api/events           server-sent events: one AppEvent per `data:` line
 *   GET  /api/images/<id>      an image's bytes for <img> (?thumbnailWidth=N), through getImage
 *
 * Every request must name this server in Host and, if it has an Origin, come from it (403 otherwise); every
 * /api request must carry the token (401 otherwise). See http-request-guard.ts for why. A path with a
 * malformed percent-encoding is the client's mistake (400); bodies, slow clients and event streams are
 * bounded (http-limits.ts).
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { APP_API_CHANNELS, AppApiError, type AppApiErrorCode, type AppApiName } from '../../../shared/app-api.js';
import { dispatchAppApiCall, isAppApiName, type AppApiImplementation, type DispatchOptions } from '../app-api-dispatch.js';
import type { EventBus } from '../../app/event-bus.js';
import { DEFAULT_HTTP_LIMITS, timeoutCheckIntervalMs, type HttpLimits } from './http-limits.js';
import { checkHostAndOrigin, checkJsonContentType, checkToken, presentedToken, type PublicOrigin } from './http-request-guard.js';
import { readRequestBody } from './request-body.js';
import { readStaticFile } from './static-files.js';

/** The policy of the served page: everything from this server only, no inline script, no framing. */
export const TIMELINE_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  // Audio a model generated plays from a data: URL, like images show from one.
  "media-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "worker-src 'self'",
  "frame-src 'none'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** A comment line this often keeps idle SSE connections open through proxies and sleeping tabs. */
const KEEP_ALIVE_MS = 15_000;

const STATUS_OF: Record<AppApiErrorCode, number> = {
  'invalid-arguments': 400,
  refused: 403,
  'not-found': 404,
  conflict: 409,
  internal: 500,
  unavailable: 503,
};

export interface TimelineServerOptions {
  implementation: AppApiImplementation;
  events: EventBus;
  /** The built renderer (out/renderer). */
  rendererDirectory: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** A token to require; a random 32-byte one by default (tests pass their own). */
  token?: string;
  dispatch?: DispatchOptions;
  /** DEFAULT_HTTP_LIMITS unless given (tests pass small timeouts). */
  limits?: Partial<HttpLimits>;
  /** The origin a reverse proxy serves it at, accepted besides 127.0.0.1 (see http-request-guard.ts). */
  publicOrigin?: PublicOrigin | undefined;
}

export interface TimelineServer {
  port: number;
  token: string;
  /** The URL to open: the token travels in the fragment, which browsers never send to a server or a Referer. */
  url: string;
  /** The same through the reverse proxy, when there is one. */
  publicUrl: string | undefined;
  close(): Promise<void>;
}

export async function startTimelineServer(options: TimelineServerOptions): Promise<TimelineServer> {
  const token = options.token ?? randomBytes(32).toString('base64url');
  const streams = new Set<ServerResponse>();
  const limits: HttpLimits = { ...DEFAULT_HTTP_LIMITS, ...options.limits };
  let port = 0;
  const serverOptions = {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    connectionsCheckingInterval: timeoutCheckIntervalMs(limits),
  };
  const server = createServer(serverOptions, (request, response) => {
    handle(request, response).catch((error: unknown) => {
      sendError(response, new AppApiError('internal', error instanceof Error ? error.message : String(error)));
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    setCommonHeaders(response);
    const place = checkHostAndOrigin(request, port, options.publicOrigin);
    if (!place.ok) return sendPlain(response, place.status, place.message);
    const url = new URL(request.url ?? '/', `http://127.0.0.1:${port}`);
    // Decoded once here, so no route meets a malformed escape ("%E0%A4%A") as an internal error.
    if (decodedPath(url.pathname) === undefined) return sendPlain(response, 400, 'The path has a malformed percent-encoding.');
    if (!url.pathname.startsWith('/api/')) return serveRenderer(request, response, url);
    const authorized = checkToken(presentedToken(request, url), token);
    if (!authorized.ok) return sendError(response, new AppApiError('refused', authorized.message), authorized.status);

    if (url.pathname === '/api/events') {
      if (request.method !== 'GET') return sendPlain(response, 405, 'Use GET for /api/events.');
      return openEventStream(request, response);
    }
    const image = /^\/api\/images\/([^/]+)$/.exec(url.pathname);
    if (image) {
      if (request.method !== 'GET') return sendPlain(response, 405, 'Use GET for images.');
      return serveImage(response, decodedPath(image[1] ?? '') ?? '', url);
    }
    const name = url.pathname.slice('/api/'.length);
    if (!isAppApiName(name)) return sendError(response, new AppApiError('not-found', `There is no call ${name}.`));
    if (request.method !== 'POST') return sendPlain(response, 405, `Use POST for /api/${name}.`);
    // A JSON content type cannot be sent by a plain HTML form, one more wall against cross-site posts.
    const contentType = checkJsonContentType(request.headers['content-type']);
    if (!contentType.ok) return sendError(response, new AppApiError('invalid-arguments', contentType.message), 415);
    return serveCall(request, response, name);
  }

  async function serveCall(request: IncomingMessage, response: ServerResponse, name: AppApiName): Promise<void> {
    // Only startRun carries pictures; every other call keeps the small limit.
    const maxBodyBytes = name === 'startRun' ? limits.maxRunBodyBytes : limits.maxBodyBytes;
    const body = await readRequestBody(request, { maxBodyBytes, maxDiscardedBytes: limits.maxDiscardedBytes });
    if (body.kind === 'too-large') {
      // Not all of it was read: the connection cannot carry another request, so it closes after the answer.
      if (!body.drained) response.setHeader('Connection', 'close');
      const limit = `${Math.round(maxBodyBytes / 1024 / 1024)} MB`;
      return sendError(response, new AppApiError('invalid-arguments', `The request body is larger than ${limit}.`), 413);
    }
    let callArguments: unknown;
    try {
      callArguments = body.bytes.length === 0 ? [] : JSON.parse(body.bytes.toString('utf8'));
    } catch {
      return sendError(response, new AppApiError('invalid-arguments', `The body of ${name} is not JSON.`));
    }
    if (!Array.isArray(callArguments)) {
      return sendError(response, new AppApiError('invalid-arguments', `Send the arguments of ${name} as a JSON array.`));
    }
    try {
      sendJson(response, 200, await dispatchAppApiCall(options.implementation, name, callArguments, options.dispatch));
    } catch (error) {
      sendError(response, error instanceof AppApiError ? error : new AppApiError('internal', String(error)));
    }
  }

  async function serveImage(response: ServerResponse, imageId: string, url: URL): Promise<void> {
    const width = url.searchParams.get('thumbnailWidth');
    const request = { imageId, ...(width === null ? {} : { thumbnailWidth: Number(width) }) };
    let result;
    try {
      result = (await dispatchAppApiCall(options.implementation, 'getImage', [request], options.dispatch)) as {
        status: 'ok' | 'unavailable';
        mime?: string;
        dataBase64?: string;
        reason?: string;
        message?: string;
      };
    } catch (error) {
      return sendError(response, error instanceof AppApiError ? error : new AppApiError('internal', String(error)));
    }
    if (result.status !== 'ok') {
      const status = result.reason === 'purged' ? 410 : result.reason === 'too-large' ? 413 : 404;
      return sendPlain(response, status, result.message ?? 'The image is unavailable.');
    }
    const bytes = Buffer.from(result.dataBase64 ?? '', 'base64');
    response.writeHead(200, { 'Content-Type': result.mime ?? 'application/octet-stream', 'Content-Length': bytes.length });
    response.end(bytes);
  }

  function openEventStream(request: IncomingMessage, response: ServerResponse): void {
    if (streams.size >= limits.maxEventStreams) {
      response.setHeader('Retry-After', '5');
      return sendPlain(response, 503, `Too many open event streams (${limits.maxEventStreams}); close another timeline tab.`);
    }
    response.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', Connection: 'keep-alive' });
    // Flushes the headers now, so the browser's EventSource opens before the first event.
    response.write(': connected\n\n');
    streams.add(response);
    const unsubscribe = options.events.subscribe((event) => {
      response.write(`data: ${JSON.stringify(event)}\n\n`);
    });
    const keepAlive = setInterval(() => response.write(': keep-alive\n\n'), KEEP_ALIVE_MS);
    keepAlive.unref();
    const close = (): void => {
      clearInterval(keepAlive);
      unsubscribe();
      streams.delete(response);
    };
    request.on('close', close);
    response.on('close', close);
  }

  async function serveRenderer(request: IncomingMessage, response: ServerResponse, url: URL): Promise<void> {
    if (request.method !== 'GET' && request.method !== 'HEAD') return sendPlain(response, 405, 'The page is read-only.');
    const file = await readStaticFile(options.rendererDirectory, url.pathname);
    if (file === undefined) return sendPlain(response, 404, 'Not found.');
    response.writeHead(200, {
      'Content-Type': file.contentType,
      'Content-Length': file.bytes.length,
      ...(file.isHtml ? { 'Content-Security-Policy': TIMELINE_CONTENT_SECURITY_POLICY } : {}),
    });
    response.end(request.method === 'HEAD' ? undefined : file.bytes);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // 127.0.0.1, never 0.0.0.0 or ::: the timeline shows the user's screens and can start the agent.
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;

  return {
    port,
    token,
    url: `http://127.0.0.1:${port}/#token=${token}`,
    publicUrl: options.publicOrigin === undefined ? undefined : `${options.publicOrigin.origin}/#token=${token}`,
    close: () => closeServer(server, streams),
  };
}

function setCommonHeaders(response: ServerResponse): void {
  response.setHeader('Cache-Control', 'no-store');
  response.setHeader('X-Content-Type-Options', 'nosniff');
  response.setHeader('Referrer-Policy', 'no-referrer');
  response.setHeader('X-Frame-Options', 'DENY');
  response.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
}

/** A URL path decoded, or undefined when one of its percent-escapes is malformed. */
function decodedPath(path: string): string | undefined {
  try {
    return decodeURIComponent(path);
  } catch {
    return undefined;
  }
}

function sendJson(response: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  response.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
  response.end(body);
}

function sendError(response: ServerResponse, error: AppApiError, status = STATUS_OF[error.code]): void {
  if (response.headersSent) {
    response.end();
    return;
  }
  sendJson(response, status, { error: { code: error.code, message: error.message } });
}

function sendPlain(response: ServerResponse, status: number, message: string): void {
  response.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8' });
  response.end(`${message}\n`);
}

async function closeServer(server: Server, streams: Set<ServerResponse>): Promise<void> {
  // Open event streams never end by themselves; end them so close() can finish.
  for (const stream of streams) stream.end();
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** The URL path of each call, for documentation and clients: POST /api/<name>. */
export const APP_API_HTTP_PATHS = Object.fromEntries(Object.keys(APP_API_CHANNELS).map((name) => [name, `/api/${name}`])) as Record<
  AppApiName,
  string
>;
