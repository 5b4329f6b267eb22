/**
 * Waiting on a person (a confirmation, an answer) must not outlive a stop: if the handler ignores the
 * signal, the wait is abandoned here and the turn still ends promptly.
 */
import { TurnStoppedError } from './turn-stopped-error.js';

export function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new TurnStoppedError());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new TurnStoppedError());
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
