/**
 * The one place a test that starts processes takes its time limits from. A limit is written for an idle
 * machine and scaled by how slow this one is right now: the built CLI's start-up, measured once in global
 * setup (test/setup/build-for-tests.ts), against what it takes on an idle 2-core machine. A loaded machine
 * gets longer limits (up to ten times): a test under load waits longer, it does not fail.
 *
 *   it('…', { timeout: scaledLimit(CLI_TEST_MS) }, …)
 *   await waitFor(…, { timeoutMs: scaledLimit(30_000) })
 *
 * Limits are for hangs only. A test never waits a fixed time for something to happen: it waits for the event
 * (waitFor on output, a latch the test releases).
 */
import { inject } from 'vitest';

/**
 * `node <bundle> --version` on a quiet 2-core machine. It loaded every model SDK and Playwright until issue 36
 * (4.0 to 4.5 s at load 3, an idle machine taken to need 2 s); now it loads commander and zod only. Timed in turns
 * at load 19 to 22 on the 2026-11-28 dev machine, the lighter start took 0.09 to 0.13 of the old one's time (1.9–3.2 s
 * against 17.7–24.8 s), so an idle one is taken to need a tenth of those 2 s.
 */
export const IDLE_CLI_STARTUP_MS = 200;
/** Past this the machine is not loaded but stuck; a longer limit would only hide a hang. */
const MOST_SLOWNESS = 10;

/** Per test that spawns the CLI once or a few times, on an idle machine. */
export const CLI_TEST_MS = 120_000;

/** How many times slower than idle this machine is now (1 at least), from global setup's measure. */
export function slowness(): number {
  const measured = measuredStartupMs();
  if (measured === undefined) return 1;
  return Math.min(MOST_SLOWNESS, Math.max(1, measured / IDLE_CLI_STARTUP_MS));
}

/** An idle machine's limit, scaled to this machine's load. */
export function scaledLimit(idleMs: number): number {
  return Math.round(idleMs * slowness());
}

function measuredStartupMs(): number | undefined {
  try {
    return inject('cliStartupMs');
  } catch {
    // A test run without the global setup (a unit test importing a helper): no measure, no scaling.
    return undefined;
  }
}
