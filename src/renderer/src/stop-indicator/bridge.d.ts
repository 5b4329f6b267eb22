import type { StopIndicatorBridge } from '../../../shared/stop-indicator.js';

declare global {
  interface Window {
    /** The stop indicator's preload bridge (src/preload/stop-indicator.ts); only on the indicator's page. */
    readonly sightlineStopIndicator?: StopIndicatorBridge;
  }
}
