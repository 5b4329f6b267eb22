/**
 * Picks the transport for this page: the preload's bridge inside the Electron app; the token in the URL
 * (`#token=…`, or `?token=…`) when `sightline timeline` opened the page in a browser; null otherwise (a
 * plain preview of the built page, with nothing to talk to). The token is taken from the URL once
 * (token-exchange.ts): kept in the tab's sessionStorage and removed from the address bar.
 */
import type { SightlineBridge } from '../../../shared/app-api.js';
import type { AppApiClient } from './app-api-client.js';
import { createIpcClient } from './ipc-client.js';
import { connectOverHttp, type PageLocation, type TokenKeeper } from './token-exchange.js';

export { tokenFromLocation, type PageLocation } from './token-exchange.js';

export function connectAppApi(
  bridge: SightlineBridge | undefined = window.sightline,
  location: PageLocation = window.location,
  keeper: TokenKeeper = browserTokenKeeper(),
): AppApiClient | null {
  if (bridge) return createIpcClient(bridge);
  return connectOverHttp(location, keeper);
}

const TOKEN_KEY = 'sightline.timeline-token';

function browserTokenKeeper(): TokenKeeper {
  return {
    recall: () => {
      try {
        return window.sessionStorage.getItem(TOKEN_KEY);
      } catch {
        return null;
      }
    },
    keep: (token) => {
      try {
        window.sessionStorage.setItem(TOKEN_KEY, token);
        return true;
      } catch {
        return false;
      }
    },
    replaceAddress: (url) => window.history.replaceState(window.history.state, '', url),
  };
}
