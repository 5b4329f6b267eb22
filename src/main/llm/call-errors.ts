/**
 * Translating what the `openai`, `@anthropic-ai/sdk` and `@google/genai` clients throw into Sightline's model errors. The
 * client has already retried what is worth retrying (429, 529 and other 5xx, timeouts, dropped connections)
 * by the time an error reaches here, so this only names what happened, for a person, without the API key.
 * The two clients come from the same generator: their error classes differ only in where they are exported.
 */
import {
  APIConnectionError as AnthropicConnectionError,
  APIConnectionTimeoutError as AnthropicConnectionTimeoutError,
  APIError as AnthropicError,
  APIUserAbortError as AnthropicUserAbortError,
} from '@anthropic-ai/sdk';
import { ApiError as GeminiApiError } from '@google/genai';
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { GeminiConnectionError, GeminiFirstByteTimeoutError } from './gemini-fetch.js';
import { ModelCallCancelledError, ModelCallError, ModelError } from './model-errors.js';

export interface FailedCallFacts {
  model: string;
  baseUrl: string;
  /** Attempts the client made in all (1 + its retries), for the message. */
  attempts: number;
  /** Secrets that must never appear in a message (the API key). */
  secrets: readonly string[];
  signal: AbortSignal | undefined;
  /** Where the key is set, for the hint on 401 and 403; OpenAI's when absent. */
  keySetting?: string;
  /** The base URL must carry the API version (OpenAI's client): a 404 there suggests `/v1`. */
  versionInBaseUrl?: boolean;
}

const OPENAI_KEY_SETTING = 'OPENAI_API_KEY or model.apiKey in config.json';

export function translateCallError(error: unknown, call: FailedCallFacts): ModelError {
  if (call.signal?.aborted === true || error instanceof APIUserAbortError || error instanceof AnthropicUserAbortError) {
    return new ModelCallCancelledError(call.model);
  }
  if (error instanceof ModelError) return redactError(error, call.secrets);
  const endpoint = `${call.baseUrl} (model "${call.model}")`;
  if (error instanceof APIConnectionTimeoutError || error instanceof AnthropicConnectionTimeoutError || error instanceof GeminiFirstByteTimeoutError) {
    return new ModelCallError(
      `The model endpoint ${endpoint} did not answer in time (${describeAttempts(call.attempts)}).`,
      { retryable: true },
    );
  }
  if (error instanceof APIConnectionError || error instanceof AnthropicConnectionError) {
    return new ModelCallError(
      `Could not reach the model endpoint ${endpoint} (${describeAttempts(call.attempts)}): ${redact(causeText(error), call.secrets)}`,
      { retryable: true, setup: nothingListens(error) ? 'base-url' : undefined },
    );
  }
  if (error instanceof GeminiConnectionError) {
    return new ModelCallError(
      `Could not reach the model endpoint ${endpoint} (${describeAttempts(call.attempts)}): ${redact(error.message, call.secrets)}`,
      { retryable: true, setup: nothingListens(error) ? 'base-url' : undefined },
    );
  }
  if (error instanceof GeminiApiError) return statusError(error.status, geminiErrorMessage(error), call, endpoint);
  if ((error instanceof APIError || error instanceof AnthropicError) && error.status !== undefined) {
    return statusError(error.status, providerErrorMessage(error), call, endpoint);
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ModelCallError(`The call to ${endpoint} failed: ${redact(message, call.secrets)}`, {
    retryable: false,
  });
}

function statusError(status: number, message: string, call: FailedCallFacts, endpoint: string): ModelCallError {
  const retryable = status === 408 || status === 409 || status === 429 || status >= 500;
  const providerMessage = redact(message, call.secrets);
  const attempts = retryable ? ` after ${describeAttempts(call.attempts)}` : '';
  const setup = status === 401 || status === 403 ? 'key' : status === 404 ? 'model' : undefined;
  return new ModelCallError(
    `The model endpoint ${endpoint} answered HTTP ${status}${attempts}: ${providerMessage}${hintFor(status, call)}`,
    { status, retryable, setup },
  );
}

// Refused, or a name that resolves to nothing: the base URL names no server. A timeout or a dropped connection
// may be the network's passing fault, and stays a failed call.
const NOTHING_LISTENS = new Set(['ECONNREFUSED', 'ENOTFOUND']);

function nothingListens(error: unknown): boolean {
  for (let cause: unknown = error, depth = 0; cause !== undefined && cause !== null && depth < 5; depth += 1) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string' && NOTHING_LISTENS.has(code)) return true;
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
}

/** @google/genai puts the error body, as JSON text, in its message: Google's `{"error": {"message": …}}`. */
function geminiErrorMessage(error: GeminiApiError): string {
  const text = error.message.replace(/^got status: [A-Z_]*\. /, '');
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } };
    if (typeof body.error?.message === 'string' && body.error.message.trim() !== '') return body.error.message;
  } catch {
    // Not JSON: the message as it is.
  }
  return text.trim() === '' ? 'no details given' : text;
}

/** Removes the given secrets, and anything shaped like an OpenAI or Google API key, from a text. */
export function redact(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) {
    if (secret.length > 0) result = result.split(secret).join('[redacted]');
  }
  // OpenAI-style keys, and Google API keys (AIza…).
  return result.replace(/\bsk-[A-Za-z0-9_*-]{6,}/g, '[redacted]').replace(/\bAIza[0-9A-Za-z_-]{20,}/g, '[redacted]');
}

function redactError(error: ModelError, secrets: readonly string[]): ModelError {
  error.message = redact(error.message, secrets);
  return error;
}

function providerErrorMessage(error: APIError | AnthropicError): string {
  // OpenAI's client keeps the body's `error` object; Anthropic's keeps the whole body, `{type: 'error', error: {…}}`.
  const body = error.error as { message?: unknown; error?: { message?: unknown } } | undefined;
  const message = body?.message ?? body?.error?.message;
  if (typeof message === 'string' && message.trim() !== '') return message;
  // The client's own message starts with the status, which we already state.
  return error.message.replace(/^\d{3}\s*/, '') || 'no details given';
}

function hintFor(status: number, call: FailedCallFacts): string {
  if (status === 401 || status === 403) return ` (check the API key: ${call.keySetting ?? OPENAI_KEY_SETTING})`;
  if (status !== 404) return '';
  const withVersion = call.versionInBaseUrl === true ? baseUrlWithVersion(call.baseUrl) : undefined;
  // vLLM, Ollama and LM Studio serve the OpenAI API under /v1; a base URL without it 404s on every path.
  if (withVersion !== undefined) return ` (check the model name, and the base URL: OpenAI-compatible servers answer under /v1, so try --base-url ${withVersion})`;
  return ' (check the model name and the base URL)';
}

/** The base URL with `/v1` appended, when its path names no API version (`/v1`, `/v1beta`, `/openai/v1`…); else undefined. */
function baseUrlWithVersion(baseUrl: string): string | undefined {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return undefined;
  }
  if (/\/v\d+[a-z0-9]*(\/|$)/i.test(url.pathname)) return undefined;
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/v1`;
  url.username = '';
  url.password = '';
  url.search = '';
  return url.href;
}

function causeText(error: APIConnectionError | AnthropicConnectionError): string {
  const cause = (error as { cause?: unknown }).cause;
  const causeMessage = cause instanceof Error ? (cause.cause instanceof Error ? cause.cause.message : cause.message) : '';
  return causeMessage || error.message;
}

function describeAttempts(attempts: number): string {
  return attempts === 1 ? '1 attempt' : `${attempts} attempts`;
}
