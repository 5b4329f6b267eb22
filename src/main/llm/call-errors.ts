/**
 * Translating what the `openai` and `@anthropic-ai/sdk` clients throw into Sightline's model errors. The
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
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
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
}

const OPENAI_KEY_SETTING = 'OPENAI_API_KEY or model.apiKey in config.json';

export function translateCallError(error: unknown, call: FailedCallFacts): ModelError {
  if (call.signal?.aborted === true || error instanceof APIUserAbortError || error instanceof AnthropicUserAbortError) {
    return new ModelCallCancelledError(call.model);
  }
  if (error instanceof ModelError) return redactError(error, call.secrets);
  const endpoint = `${call.baseUrl} (model "${call.model}")`;
  if (error instanceof APIConnectionTimeoutError || error instanceof AnthropicConnectionTimeoutError) {
    return new ModelCallError(
      `The model endpoint ${endpoint} did not answer in time (${describeAttempts(call.attempts)}).`,
      { retryable: true },
    );
  }
  if (error instanceof APIConnectionError || error instanceof AnthropicConnectionError) {
    return new ModelCallError(
      `Could not reach the model endpoint ${endpoint} (${describeAttempts(call.attempts)}): ${redact(causeText(error), call.secrets)}`,
      { retryable: true },
    );
  }
  if ((error instanceof APIError || error instanceof AnthropicError) && error.status !== undefined) {
    const status = error.status;
    const retryable = status === 408 || status === 409 || status === 429 || status >= 500;
    const providerMessage = redact(providerErrorMessage(error), call.secrets);
    const attempts = retryable ? ` after ${describeAttempts(call.attempts)}` : '';
    return new ModelCallError(
      `The model endpoint ${endpoint} answered HTTP ${status}${attempts}: ${providerMessage}${hintFor(status, call.keySetting ?? OPENAI_KEY_SETTING)}`,
      { status, retryable },
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ModelCallError(`The call to ${endpoint} failed: ${redact(message, call.secrets)}`, {
    retryable: false,
  });
}

/** Removes the given secrets, and anything shaped like an OpenAI-style key, from a text. */
export function redact(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) {
    if (secret.length > 0) result = result.split(secret).join('[redacted]');
  }
  return result.replace(/\bsk-[A-Za-z0-9_*-]{6,}/g, '[redacted]');
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

function hintFor(status: number, keySetting: string): string {
  if (status === 401 || status === 403) return ` (check the API key: ${keySetting})`;
  if (status === 404) return ' (check the model name and the base URL)';
  return '';
}

function causeText(error: APIConnectionError | AnthropicConnectionError): string {
  const cause = (error as { cause?: unknown }).cause;
  const causeMessage = cause instanceof Error ? (cause.cause instanceof Error ? cause.cause.message : cause.message) : '';
  return causeMessage || error.message;
}

function describeAttempts(attempts: number): string {
  return attempts === 1 ? '1 attempt' : `${attempts} attempts`;
}
