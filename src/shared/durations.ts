/**
 * Durations in flow files and the SDK's waitFor: `500ms`, `30s`, `1.5m`, `2h`, or a plain number of milliseconds. A string without a
 * unit is refused rather than guessed: `"30"` could mean seconds to one author and milliseconds to another.
 */

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;

/** Nothing a flow waits for needs a day; a bigger number is a typo (a duration in microseconds, an extra zero…). */
export const MAX_DURATION_MS = 24 * 3_600_000;

export const DURATION_FORMS = '500ms, 30s, 1.5m, 2h or a number of milliseconds';

export type DurationReading = { ok: true; ms: number } | { ok: false; problem: string };

/** Reads a duration; `allowZero` for a sleep, where 0 is harmless, not for a timeout, where it cannot succeed. */
export function readDuration(value: unknown, options: { allowZero: boolean }): DurationReading {
  let ms: number;
  if (typeof value === 'number') {
    ms = value;
  } else if (typeof value === 'string') {
    const match = /^\s*(\d+(?:\.\d+)?|\.\d+)\s*(ms|s|m|h)\s*$/.exec(value);
    if (match === null) return { ok: false, problem: `expected a duration (${DURATION_FORMS})` };
    ms = Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
  } else {
    return { ok: false, problem: `expected a duration (${DURATION_FORMS})` };
  }
  if (!Number.isFinite(ms) || ms < 0) return { ok: false, problem: `expected a duration of 0 or more (${DURATION_FORMS})` };
  if (ms === 0 && !options.allowZero) return { ok: false, problem: 'expected a duration above 0' };
  if (ms > MAX_DURATION_MS) return { ok: false, problem: 'expected a duration of at most 24h' };
  return { ok: true, ms: Math.round(ms) };
}
