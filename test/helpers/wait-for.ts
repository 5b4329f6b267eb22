/**
 * Polling with a deadline, for what a test cannot be told by an event (another process's output, a request
 * reaching a server, a window title). A loop without a deadline hangs until the test's own timeout and then
 * says nothing about what never happened; this one fails naming it.
 *
 *   await waitFor(() => server.requests.length === 2, { description: 'the second model call' });
 *   const box = await waitFor(() => boxOfColour(frame(), RED), { description: 'the red button', timeoutMs: 20_000 });
 */
import { scaledLimit } from './time-limits.js';

export interface WaitForOptions {
  /** What is awaited, as the failure message names it: "the second model call". */
  description: string;
  /** 5 seconds unless given, on an idle machine: scaled to this one's load (test/helpers/time-limits.ts). */
  timeoutMs?: number;
  /** How long to wait between two probes; 20 ms unless given. */
  intervalMs?: number;
}

/** Probes until it returns a value other than undefined or false, and resolves with that value. */
export async function waitFor<Value>(
  probe: () => Value | undefined | false | Promise<Value | undefined | false>,
  options: WaitForOptions,
): Promise<Value> {
  const timeoutMs = scaledLimit(options.timeoutMs ?? 5000);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${options.description}.`);
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 20));
  }
}
