/**
 * The app API in a browser, served by `sightline timeline`: each call is POST /api/<name> with its arguments
 * as a JSON array and the token as `Authorization: Bearer`; live events come from GET /api/events as
 * server-sent events. EventSource and <img> cannot send headers, so those two carry the token as a `token`
 * query parameter instead.
 */
import { AppApiError, AppApiErrorBodySchema, APP_API_CHANNELS, type AppApiName } from '../../../shared/app-api.js';
import type { AppApiCalls, AppApiClient } from './app-api-client.js';
import { createSharedEventStream, type EventStreamHandlers } from './shared-event-stream.js';

export interface HttpClientOptions {
  /** The server's origin, e.g. http://127.0.0.1:4123 (the page's own origin in practice). */
  origin: string;
  token: string;
  /** For tests; the page's fetch by default. */
  fetch?: typeof fetch;
  /** For tests; the page's EventSource on `url` by default. */
  openEventStream?: (url: string, handlers: EventStreamHandlers) => { close(): void };
}

export interface HttpAppApiClient extends AppApiClient {
  /** A URL for <img src>: GET /api/images/<id> with the token (and a thumbnail width when given). */
  imageUrl(imageId: string, options?: { thumbnailWidth?: number }): string;
}

export function createHttpClient(options: HttpClientOptions): HttpAppApiClient {
  const fetchFunction = options.fetch ?? globalThis.fetch.bind(globalThis);
  const call = async (name: AppApiName, callArguments: unknown[]): Promise<unknown> => {
    const response = await fetchFunction(`${options.origin}/api/${name}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${options.token}` },
      body: JSON.stringify(callArguments),
    });
    const body: unknown = await response.json().catch(() => undefined);
    if (response.ok) return body;
    const failure = AppApiErrorBodySchema.safeParse(body);
    if (failure.success) throw new AppApiError(failure.data.error.code, failure.data.error.message);
    throw new AppApiError('internal', `The timeline server answered ${response.status} ${response.statusText}.`);
  };
  const calls = Object.fromEntries(
    (Object.keys(APP_API_CHANNELS) as AppApiName[]).map((name) => [name, (...callArguments: unknown[]) => call(name, callArguments)]),
  ) as AppApiCalls;
  const withToken = (path: string, parameters: Record<string, string> = {}): string => {
    const url = new URL(path, options.origin);
    url.searchParams.set('token', options.token);
    for (const [key, value] of Object.entries(parameters)) url.searchParams.set(key, value);
    return url.href;
  };
  const openEventStream = options.openEventStream ?? openEventSource;
  const events = createSharedEventStream((handlers) => openEventStream(withToken('/api/events'), handlers));
  return {
    ...calls,
    transport: 'http',
    subscribe: events.subscribe,
    imageUrl(imageId, imageOptions = {}) {
      const parameters: Record<string, string> = {};
      if (imageOptions.thumbnailWidth !== undefined) parameters['thumbnailWidth'] = String(imageOptions.thumbnailWidth);
      return withToken(`/api/images/${encodeURIComponent(imageId)}`, parameters);
    },
  };
}

/** The page's EventSource, which reconnects by itself after a dropped connection (and opens again). */
function openEventSource(url: string, handlers: EventStreamHandlers): { close(): void } {
  const source = new EventSource(url);
  source.onmessage = (message: MessageEvent) => handlers.onMessage(String(message.data));
  source.onopen = () => handlers.onOpen();
  return source;
}
