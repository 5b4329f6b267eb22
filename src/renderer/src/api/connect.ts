/**
 * Picks the transport for this page: the preload's bridge inside the Electron app; the token in the URL
 * (`#token=…`, or `?token=…`) when `sightline timeline` opened the page in a browser; null otherwise (a
 * plain preview of the built page, with nothing to talk to).
 */
import type { SightlineBridge } from '../../../shared/app-api.js';
import type { AppApiClient } from './app-api-client.js';
import { createHttpClient } from './http-client.js';
import { createIpcClient } from './ipc-client.js';

export interface PageLocation {
  origin: string;
  hash: string;
  search: string;
}

export function connectAppApi(
  bridge: SightlineBridge | undefined = window.sightline,
  location: PageLocation = window.location,
): AppApiClient | null {
  if (bridge) return createIpcClient(bridge);
  const token = tokenFromLocation(location);
  return token === null ? null : createHttpClient({ origin: location.origin, token });
}

/** The token `sightline timeline` put in the URL it printed, from the fragment or the query. */
export function tokenFromLocation(location: Pick<PageLocation, 'hash' | 'search'>): string | null {
  const fromHash = new URLSearchParams(location.hash.replace(/^#/, '')).get('token');
  const token = fromHash ?? new URLSearchParams(location.search).get('token');
  return token !== null && /^[A-Za-z0-9_-]{16,200}$/.test(token) ? token : null;
}
