/**
 * What the emergency stop's indicator window and the main process say to each other: the indicator's own
 * channels (it gets no part of the app API), the state it shows, and its one request, Stop. Both directions
 * are checked against these schemas, like every app API call.
 */
import { z } from 'zod';

export { STOP_INDICATOR_STATE_CHANNEL, STOP_INDICATOR_STOP_CHANNEL } from './stop-indicator-channels.js';

export const STOP_INDICATOR_PHASES = ['idle', 'acting', 'paused', 'stopping'] as const;
export type StopIndicatorPhase = (typeof STOP_INDICATOR_PHASES)[number];

export const StopIndicatorStateSchema = z
  .object({
    phase: z.enum(STOP_INDICATOR_PHASES),
    /** How many runs are under way. */
    runs: z.number().int().min(0),
    /** The stop shortcut as a person reads it (Ctrl+Alt+Esc), or null when it could not be registered. */
    shortcut: z.string().nullable(),
  })
  .strict();
export type StopIndicatorState = z.infer<typeof StopIndicatorStateSchema>;

/** Stop takes no arguments: anything sent along is refused. */
export const StopIndicatorStopArgumentsSchema = z.tuple([]);

export const StopIndicatorStopResultSchema = z.object({ stopped: z.number().int().min(0) }).strict();
export type StopIndicatorStopResult = z.infer<typeof StopIndicatorStopResultSchema>;

/** What the indicator's preload exposes as `window.sightlineStopIndicator`. */
export interface StopIndicatorBridge {
  stop(): Promise<StopIndicatorStopResult>;
  onState(listener: (state: StopIndicatorState) => void): () => void;
}
