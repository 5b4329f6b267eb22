/// <reference types="vite/client" />
import type { SightlineBridge } from '../../shared/app-api.js';

declare global {
  interface Window {
    /** The preload's bridge to the main process; absent when the renderer runs in a plain browser. */
    readonly sightline?: SightlineBridge;
  }
}
