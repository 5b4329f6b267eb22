/**
 * The ways a Tavily call can fail, as one error class whose `kind` callers branch on, and the translation
 * from what @tavily/core throws into it.
 *
 * @tavily/core (0.7) throws plain `Error`s and drops the HTTP status whenever the body carries Tavily's
 * usual `{"detail": {"error": "…"}}`, so the only evidence left is the message text. The translation below
 * reads the three shapes the library produces ("Request timed out after …", "<status> Error: <body>",
 * Tavily's own detail text, "An unexpected error occurred …") and matches Tavily's documented error texts
 * (401 "Unauthorized: missing or invalid API key", 429 "…excessive requests…", 432/433 "…usage limit…").
 * Messages never contain the API key: every text taken from the library is scrubbed of it first.
 */
import { TavilyKeylessLimitError } from '@tavily/core';

export const TAVILY_ERROR_KINDS = [
  'auth',
  'rate-limit',
  'usage-limit',
  'timeout',
  'network',
  'bad-request',
  'server',
  'bad-response',
] as const;
export type TavilyErrorKind = (typeof TAVILY_ERROR_KINDS)[number];

export class TavilyError extends Error {
  override name = 'TavilyError';
  readonly kind: TavilyErrorKind;
  /** HTTP status, when the library let it through. */
  readonly status: number | undefined;
  /** How long Tavily asked us to wait before trying again, when it said. */
  readonly retryAfterMs: number | undefined;

  constructor(kind: TavilyErrorKind, message: string, details: { status?: number; retryAfterMs?: number } = {}) {
    super(message);
    this.kind = kind;
    this.status = details.status;
    this.retryAfterMs = details.retryAfterMs;
  }
}

/** The caller's AbortSignal fired: not a failure of Tavily. */
export class TavilyCallCancelledError extends Error {
  override name = 'TavilyCallCancelledError';
  constructor(operation: TavilyOperation) {
    super(`The Tavily ${operation} was cancelled.`);
  }
}

export type TavilyOperation = 'search' | 'extract';

const LIBRARY_TIMEOUT = /^Request timed out after/;
const LIBRARY_STATUS = /^(\d{3}) Error: ([\s\S]*)$/;
const LIBRARY_UNEXPECTED = /^An unexpected error occurred while making the request\. Error: ([\s\S]*)$/;
const NETWORK_FAILURE = /ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|socket hang up|Network Error/i;

const AUTH_TEXT = /unauthori[sz]ed|invalid api key|missing api key|api key is invalid|forbidden/i;
const RATE_LIMIT_TEXT = /excessive requests|rate limit|too many requests/i;
const USAGE_LIMIT_TEXT = /usage limit|pay-as-you-go|plan limit|exceeds your plan|out of credits/i;

/** What @tavily/core threw, as a TavilyError with a message a person can act on. */
export function translateTavilyError(
  error: unknown,
  call: { operation: TavilyOperation; timeoutMs: number; secrets: readonly string[] },
): TavilyError {
  if (error instanceof TavilyError) return error;
  const translated = classify(error, call);
  // Read the library's text as it is, and scrub only what is shown.
  const scrubbed = scrubSecrets(translated.message, call.secrets);
  if (scrubbed === translated.message) return translated;
  return new TavilyError(translated.kind, scrubbed, {
    ...(translated.status === undefined ? {} : { status: translated.status }),
    ...(translated.retryAfterMs === undefined ? {} : { retryAfterMs: translated.retryAfterMs }),
  });
}

function classify(error: unknown, call: { operation: TavilyOperation; timeoutMs: number }): TavilyError {
  if (error instanceof TavilyKeylessLimitError) {
    // Tavily's newer error envelope ({"error": {"code", "retry_after_seconds"}}): the one place the library
    // passes on how long to wait.
    return new TavilyError('rate-limit', `Tavily rate limit: ${error.message}`, {
      ...(error.retryAfter === null ? {} : { retryAfterMs: Math.max(0, error.retryAfter * 1000) }),
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  if (LIBRARY_TIMEOUT.test(message)) return timeoutError(call.operation, call.timeoutMs);

  const withStatus = LIBRARY_STATUS.exec(message);
  if (withStatus !== null) {
    const status = Number(withStatus[1]);
    return errorForStatus(status, tavilyDetail(withStatus[2] ?? ''));
  }

  const unexpected = LIBRARY_UNEXPECTED.exec(message);
  if (unexpected !== null) {
    const cause = unexpected[1] ?? '';
    if (NETWORK_FAILURE.test(cause)) {
      return new TavilyError('network', `could not reach Tavily (${firstLine(cause)})`);
    }
    // Anything else thrown inside the library's try block is its response mapping failing on a body that
    // is not a Tavily response (missing `results`, an HTML error page…).
    return new TavilyError('bad-response', `Tavily sent a ${call.operation} response that could not be read`);
  }

  // What remains is Tavily's own `detail.error` text, the status lost on the way.
  if (AUTH_TEXT.test(message)) return errorForStatus(401, message);
  if (RATE_LIMIT_TEXT.test(message)) return errorForStatus(429, message);
  if (USAGE_LIMIT_TEXT.test(message)) return errorForStatus(432, message);
  return new TavilyError('server', `Tavily ${call.operation} failed: ${firstLine(message)}`);
}

export function timeoutError(operation: TavilyOperation, timeoutMs: number): TavilyError {
  return new TavilyError('timeout', `Tavily ${operation} timed out after ${formatSeconds(timeoutMs)}`);
}

function errorForStatus(status: number, detail: string): TavilyError {
  const text = firstLine(detail).replace(/\.+$/, '');
  const said = text === '' ? '' : `: ${text}`;
  if (status === 401 || status === 403) {
    return new TavilyError(
      'auth',
      `Tavily refused the API key${said}. Check TAVILY_API_KEY (or search.tavilyApiKey in config.json)`,
      { status },
    );
  }
  if (status === 429) return new TavilyError('rate-limit', `Tavily rate limit${said}`, { status });
  if (status === 432 || status === 433) return new TavilyError('usage-limit', `Tavily usage limit reached${said}`, { status });
  if (status === 400 || status === 422) return new TavilyError('bad-request', `Tavily rejected the request${said}`, { status });
  return new TavilyError('server', `Tavily server error (${status})${said}`, { status });
}

/** The library puts the raw JSON body after "<status> Error: "; Tavily's text is in detail.error or detail. */
function tavilyDetail(body: string): string {
  try {
    const parsed = JSON.parse(body) as unknown;
    // A proxy's HTML error page says nothing worth showing.
    if (typeof parsed === 'string') return parsed.trimStart().startsWith('<') ? '' : parsed;
    if (typeof parsed === 'object' && parsed !== null) {
      const detail = (parsed as { detail?: unknown }).detail;
      if (typeof detail === 'string') return detail;
      if (typeof detail === 'object' && detail !== null) {
        const inner = (detail as { error?: unknown }).error;
        if (typeof inner === 'string') return inner;
      }
      const error = (parsed as { error?: unknown }).error;
      if (typeof error === 'string') return error;
    }
  } catch {
    // Not JSON: nothing to show but the status.
  }
  return '';
}

/** Shorter "secrets" are not real keys (Tavily's are 30+ characters) and would mangle ordinary words. */
const MIN_SECRET_LENGTH = 8;

export function scrubSecrets(text: string, secrets: readonly string[]): string {
  let scrubbed = text;
  for (const secret of secrets) {
    if (secret.length >= MIN_SECRET_LENGTH) scrubbed = scrubbed.split(secret).join('(redacted)');
  }
  return scrubbed;
}

function firstLine(text: string): string {
  const line = text.split('\n')[0]?.trim() ?? '';
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

function formatSeconds(milliseconds: number): string {
  const seconds = milliseconds / 1000;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}
