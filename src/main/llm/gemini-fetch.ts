/**
 * The fetch @google/genai is given (`httpOptions.fetch`). The client retries what throws from it, except a
 * TypeError (p-retry's rule), and Node's fetch throws a TypeError for a refused or dropped connection; nor does
 * the client bound the wait for the first byte without bounding the whole streamed answer too. So this fetch
 * gives up on a server silent for `timeoutMs` before its headers, and reports both that and a failed connection
 * as errors of their own, which the client retries like a 429 or a 503.
 */

/** The server sent nothing for the timeout before its headers. */
export class GeminiFirstByteTimeoutError extends Error {
  override name = 'GeminiFirstByteTimeoutError';
}

/** The connection to the endpoint failed (refused, reset, unknown host). */
export class GeminiConnectionError extends Error {
  override name = 'GeminiConnectionError';
}

export function patientFetch(timeoutMs: number, fetchImpl: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const callerSignal = init?.signal ?? undefined;
    const controller = new AbortController();
    if (callerSignal?.aborted === true) controller.abort(callerSignal.reason);
    else callerSignal?.addEventListener('abort', () => controller.abort(callerSignal.reason), { once: true });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    try {
      return await fetchImpl(input, { ...init, signal: controller.signal });
    } catch (error) {
      if (timedOut) throw new GeminiFirstByteTimeoutError(`no answer within ${timeoutMs} ms`);
      if (callerSignal?.aborted === true) throw error;
      const cause = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
      throw new GeminiConnectionError(cause, { cause: error });
    } finally {
      clearTimeout(timer);
    }
  };
}
