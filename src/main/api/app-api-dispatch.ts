/**
 * The one gate every app API call passes, whichever transport brought it: the arguments must match the
 * call's schema, the implementation runs, and its result must match the result schema before it leaves the
 * main process. Failures come out as AppApiError with a code the transports map to an IPC message or an
 * HTTP status; an unexpected error's message is passed through the redactor, so an API key in it never
 * reaches the renderer.
 */
import { z } from 'zod';
import { APP_API, AppApiError, type AppApiCall, type AppApiName } from '../../shared/app-api.js';

/** What the main process does for each call: it receives parsed arguments and returns an unvalidated result. */
export type AppApiImplementation = {
  [Name in AppApiName]: (
    ...callArguments: z.output<(typeof APP_API)[Name]['arguments']>
  ) => z.input<(typeof APP_API)[Name]['result']> | Promise<z.input<(typeof APP_API)[Name]['result']>>;
};

/** Whether a string names a call of the app API (own keys only: `constructor` or `__proto__` are not calls). */
export function isAppApiName(name: string): name is AppApiName {
  return Object.hasOwn(APP_API, name);
}

export interface DispatchOptions {
  /** Masks secrets in the message of an unexpected error. */
  redact?: (text: string) => string;
}

export async function dispatchAppApiCall(
  implementation: AppApiImplementation,
  name: AppApiName,
  rawArguments: readonly unknown[],
  options: DispatchOptions = {},
): Promise<unknown> {
  const call: AppApiCall = APP_API[name];
  const callArguments = call.arguments.safeParse(rawArguments);
  if (!callArguments.success) {
    throw new AppApiError('invalid-arguments', `Invalid arguments for ${call.channel}: ${z.prettifyError(callArguments.error)}`);
  }
  const run = implementation[name] as (...parsed: unknown[]) => unknown;
  let value: unknown;
  try {
    value = await run(...(callArguments.data as unknown[]));
  } catch (error) {
    if (error instanceof AppApiError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new AppApiError('internal', `${call.channel} failed: ${(options.redact ?? ((text) => text))(message)}`);
  }
  const result = call.result.safeParse(value);
  if (!result.success) {
    // A bug on our side, not the caller's: say so rather than hand over a malformed value.
    throw new AppApiError('internal', `The main process produced an invalid result for ${call.channel}: ${z.prettifyError(result.error)}`);
  }
  return result.data;
}
