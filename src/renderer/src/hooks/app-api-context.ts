/**
 * The app API client for every component below the App, without passing it through each one. Null in a
 * plain preview of the page (no bridge, no token): components then show their empty states.
 */
import { createContext, useContext } from 'react';
import type { AppApiClient } from '../api/index.js';

export const AppApiContext = createContext<AppApiClient | null>(null);

export function useAppApi(): AppApiClient | null {
  return useContext(AppApiContext);
}
