/**
 * The pauses an action takes (a `wait`, the time a `hold_key` holds its keys) end early when the turn is
 * stopped: the operators' sleep is handed the turn's signal, and resolves (never rejects) when it aborts,
 * so the keys of a hold are released at once and the turn ends promptly.
 */
import { setTimeout as sleep } from 'node:timers/promises';

/** Resolves after `milliseconds`, or as soon as `signal` aborts. */
export type Sleep = (milliseconds: number, signal?: AbortSignal) => Promise<void>;

export const sleepUnlessAborted: Sleep = async (milliseconds, signal) => {
  try {
    await sleep(milliseconds, undefined, signal === undefined ? {} : { signal });
  } catch (error) {
    // An aborted signal rejects the timer (at once when it was aborted already): the pause is over.
    if (signal?.aborted !== true) throw error;
  }
};
