/**
 * Durations in flow files and the SDK's waitFor: `500ms`, `30s`, `1.5m`, `2h`. A string without a unit is refused
 * rather than guessed: `"30"` could mean seconds to one author and milliseconds to another. A bare YAML number
 * (`timeout: 10`) is the same guess, so our flow files refuse it too (`unitRequired`); the SDK's number is typed
 * as milliseconds by its signature, and Midscene's YAML documents its numbers as milliseconds, so both keep them.
 */

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;

/** Nothing a flow waits for needs a day; a bigger number is a typo (a duration in microseconds, an extra zero…). */
export const MAX_DURATION_MS = 24 * 3_600_000;

export const DURATION_FORMS = '500ms, 30s, 1.5m, 2h or a number of milliseconds';

/** The forms where a unit is required (our flow files). */
export const UNIT_DURATION_FORMS = '500ms, 30s, 1.5m or 2h';

export type DurationReading = { ok: true; ms: number } | { ok: false; problem: string };

export interface DurationOptions {
  /** For a sleep, where 0 is harmless; not for a timeout, where it cannot succeed. */
  allowZero: boolean;
  /** A number without a unit is refused with the fix, as a quoted one is (flow files). */
  unitRequired?: boolean;
}

export function readDuration(value: unknown, options: DurationOptions): DurationReading {
  const forms = options.unitRequired === true ? UNIT_DURATION_FORMS : DURATION_FORMS;
  let ms: number;
  if (typeof value === 'number') {
    if (options.unitRequired === true && Number.isFinite(value) && value > 0) return { ok: false, problem: withoutUnit(String(value)) };
    ms = value;
  } else if (typeof value === 'string') {
    const match = /^\s*(\d+(?:\.\d+)?|\.\d+)\s*(ms|s|m|h)\s*$/.exec(value);
    if (match === null) {
      const bare = /^\s*(\d+(?:\.\d+)?|\.\d+)\s*$/.exec(value);
      if (bare !== null && Number(bare[1]) > 0) return { ok: false, problem: withoutUnit(bare[1]!) };
      return { ok: false, problem: `expected a duration (${forms})` };
    }
    ms = Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
  } else {
    return { ok: false, problem: `expected a duration (${forms})` };
  }
  if (!Number.isFinite(ms) || ms < 0) return { ok: false, problem: `expected a duration of 0 or more (${forms})` };
  if (ms === 0 && !options.allowZero) return { ok: false, problem: 'expected a duration above 0' };
  if (ms > MAX_DURATION_MS) return { ok: false, problem: 'expected a duration of at most 24h' };
  return { ok: true, ms: Math.round(ms) };
}

/** A number without a unit, refused with the two readings an author may have meant. */
function withoutUnit(number: string): string {
  return `${number} has no unit, and one author means seconds where another means milliseconds: write ${number}s or ${number}ms`;
}
