/**
 * What both adapters do around one streamed call: check the request against the profile, stream with
 * cancellation and an idle watchdog, and turn every failure into a model error without the API key.
 */
import type OpenAI from 'openai';
import type { CompleteOptions, ModelRequest } from './model-adapter.js';
import { translateCallError } from './call-errors.js';
import { ModelCallCancelledError, ModelCallError } from './model-errors.js';
import type { ModelProfile } from './model-profiles.js';
import { assertRequestFitsProfile } from './request-capabilities.js';
import { StreamIdleWatchdog } from './stream-idle-watchdog.js';

/** What a streamed call needs to know, whichever provider's client makes it. */
export interface CallSettings {
  profile: ModelProfile;
  /** The endpoint, for messages (never holds the key). */
  baseUrl: string;
  maxRetries: number;
  /** Longest silence tolerated, before the first byte (the client's timeout) and mid-stream (the watchdog). */
  timeoutMs: number;
  /** Removed from every error message. */
  secrets: readonly string[];
  /** Where the key comes from, for the hint on a 401: OpenAI's variable unless said otherwise. */
  keySetting?: string;
  /**
   * The client appends only the operation (`/chat/completions`) to the base URL, so the API version must be in
   * it (OpenAI's client; Anthropic's and Google's add their own `/v1…`). A 404 then suggests the missing `/v1`.
   */
  versionInBaseUrl?: boolean;
}

export interface AdapterSettings extends CallSettings {
  client: OpenAI;
}

interface StreamLike<Chunk> extends AsyncIterable<Chunk> {
  controller: AbortController;
}

/**
 * Runs one streamed call. `buildBody` converts the request (and may reject it) before anything is sent;
 * `open` starts the stream; every chunk goes to `consume`; `finish` builds the result.
 */
export async function runStreamedCall<Body, Chunk, Result>(
  settings: CallSettings,
  request: ModelRequest,
  options: CompleteOptions,
  steps: {
    buildBody: () => Body;
    open: (body: Body, signal: AbortSignal | undefined) => Promise<StreamLike<Chunk>>;
    consume: (chunk: Chunk) => void;
    finish: () => Result;
  },
): Promise<Result> {
  const { signal } = options;
  const model = settings.profile.model;
  const failedCall = {
    model,
    baseUrl: settings.baseUrl,
    attempts: settings.maxRetries + 1,
    secrets: settings.secrets,
    signal,
    ...(settings.keySetting === undefined ? {} : { keySetting: settings.keySetting }),
    ...(settings.versionInBaseUrl === true ? { versionInBaseUrl: true } : {}),
  };
  let disposeCallSignal: (() => void) | undefined;
  try {
    assertRequestFitsProfile(request, settings.profile);
    const body = steps.buildBody();
    if (isAborted(signal)) throw new ModelCallCancelledError(model);
    // The client adds an abort listener to the signal it is given and never removes it, so a turn's
    // signal would collect one per model call (and Node warns after ten). It gets a signal of its own,
    // linked to the caller's only for the length of this call.
    const callSignal = linkedSignal(signal);
    disposeCallSignal = callSignal.dispose;
    const stream = await steps.open(body, callSignal.signal);
    const watchdog = new StreamIdleWatchdog(() => stream.controller.abort(), settings.timeoutMs);
    try {
      for await (const chunk of stream) {
        watchdog.reset();
        steps.consume(chunk);
      }
    } finally {
      watchdog.stop();
    }
    // An aborted stream ends quietly in the client, so the reason is checked here.
    if (isAborted(signal)) throw new ModelCallCancelledError(model);
    if (watchdog.fired) {
      throw new ModelCallError(
        `The model endpoint ${settings.baseUrl} (model "${model}") stopped sending mid-answer for ${settings.timeoutMs} ms.`,
        { retryable: true },
      );
    }
    return steps.finish();
  } catch (error) {
    throw translateCallError(error, failedCall);
  } finally {
    disposeCallSignal?.();
  }
}

/** A signal that aborts when `parent` does, until disposed; undefined in, undefined out. */
function linkedSignal(parent: AbortSignal | undefined): { signal: AbortSignal | undefined; dispose: () => void } {
  if (parent === undefined) return { signal: undefined, dispose: () => undefined };
  const controller = new AbortController();
  if (parent.aborted) controller.abort(parent.reason);
  const forward = () => controller.abort(parent.reason);
  parent.addEventListener('abort', forward, { once: true });
  return { signal: controller.signal, dispose: () => parent.removeEventListener('abort', forward) };
}

/** A function, not an inline check: the signal changes while we await, which narrowing cannot see. */
function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}
