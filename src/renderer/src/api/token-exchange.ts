/**
 * The timeline's token, taken from the URL `sightline timeline` printed once: kept where the page can find it again
 * (the tab's sessionStorage, so a reload still works and it goes when the tab closes) and removed from the address bar
 * with history.replaceState, so it is not left in the browser's history, a bookmark or an address copied to someone
 * else. API calls send it as `Authorization: Bearer` (http-client.ts).
 */
import type { AppApiClient } from './app-api-client.js';
import { createHttpClient } from './http-client.js';

export interface PageLocation {
  origin: string;
  hash: string;
  search: string;
  pathname?: string;
}

/** Where the page keeps the token once it has left the URL: the tab's sessionStorage and history in a browser. */
export interface TokenKeeper {
  /** The token kept by an earlier load of this tab, or null. */
  recall(): string | null;
  /** Keeps the token; false when it cannot (storage refused), and the URL then keeps it instead. */
  keep(token: string): boolean;
  /** Shows `url` in the address bar in place of the current one, without loading it. */
  replaceAddress(url: string): void;
}

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{16,200}$/;

/** The HTTP client for the token in the page's URL or kept by an earlier load; null when there is none. */
export function connectOverHttp(location: PageLocation, keeper: TokenKeeper): AppApiClient | null {
  const fromUrl = tokenFromLocation(location);
  if (fromUrl !== null && keeper.keep(fromUrl)) keeper.replaceAddress(addressWithoutToken(location));
  const token = fromUrl ?? validToken(keeper.recall());
  return token === null ? null : createHttpClient({ origin: location.origin, token });
}

/** The token `sightline timeline` put in the URL it printed, from the fragment or the query. */
export function tokenFromLocation(location: Pick<PageLocation, 'hash' | 'search'>): string | null {
  const fromHash = new URLSearchParams(location.hash.replace(/^#/, '')).get('token');
  return validToken(fromHash ?? new URLSearchParams(location.search).get('token'));
}

/** The page's address (path, query, fragment) with the token taken out of the fragment and the query. */
export function addressWithoutToken(location: Pick<PageLocation, 'hash' | 'search' | 'pathname'>): string {
  const without = (text: string, mark: string): string => {
    const parameters = new URLSearchParams(text.replace(/^[#?]/, ''));
    parameters.delete('token');
    const rest = parameters.toString();
    return rest === '' ? '' : `${mark}${rest}`;
  };
  return `${location.pathname ?? '/'}${without(location.search, '?')}${without(location.hash, '#')}`;
}

function validToken(token: string | null): string | null {
  return token !== null && TOKEN_SHAPE.test(token) ? token : null;
}
