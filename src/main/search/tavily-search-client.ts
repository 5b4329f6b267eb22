/**
 * The Tavily client: the only importer of @tavily/core. It adds what the library lacks: our own typed
 * results (checked with zod, since the library maps the body without looking), typed errors, retries of
 * rate-limited calls with exponential backoff, a deadline per call and cancellation.
 *
 * The library takes no AbortSignal, so a cancelled or overdue call is abandoned here and its HTTP request
 * runs on in the background until the library's own timeout (set to the same deadline) closes it.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { tavily, type TavilyClient } from '@tavily/core';
import { z } from 'zod';
import {
  TavilyCallCancelledError,
  TavilyError,
  timeoutError,
  translateTavilyError,
  type TavilyOperation,
} from './tavily-errors.js';
import type {
  ExtractedPage,
  PageExtractRequest,
  PageExtractResponse,
  WebSearchClient,
  WebSearchRequest,
  WebSearchResponse,
} from './web-search-client.js';

/** Tavily refuses longer queries with a 400. */
export const TAVILY_MAX_QUERY_CHARACTERS = 400;
/** Tavily extracts at most this many URLs per call. */
export const TAVILY_MAX_EXTRACT_URLS = 20;

export type Sleep = (milliseconds: number, signal?: AbortSignal) => Promise<void>;

export interface TavilySearchClientOptions {
  apiKey: string;
  /** Tavily's API root; tests point it at a local fake. Default https://api.tavily.com. */
  apiBaseUrl?: string;
  /** Deadline of one HTTP call, retries not included (default 30 s). */
  timeoutMs?: number;
  /** Retries of a rate-limited (429) call before giving up (default 3). */
  maxRateLimitRetries?: number;
  /** The first wait after a 429; each further wait doubles, up to maxBackoffMs (defaults 1 s and 16 s). */
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  /** Extracted page text is cut to this many characters (default 20,000). */
  maxPageCharacters?: number;
  /** How to wait between retries; tests pass one that does not. */
  sleep?: Sleep;
}

const DEFAULTS = {
  timeoutMs: 30_000,
  maxRateLimitRetries: 3,
  initialBackoffMs: 1_000,
  maxBackoffMs: 16_000,
  maxPageCharacters: 20_000,
};

const SearchResponseSchema = z.object({
  query: z.string(),
  results: z.array(
    z.object({
      title: z.string().nullish(),
      url: z.string().min(1),
      content: z.string().nullish(),
      score: z.number().nullish(),
      publishedDate: z.string().nullish(),
    }),
  ),
});

const ExtractResponseSchema = z.object({
  results: z.array(z.object({ url: z.string().min(1), title: z.string().nullish(), rawContent: z.string().nullish() })),
  failedResults: z.array(z.object({ url: z.string(), error: z.string().nullish() })),
});

export class TavilySearchClient implements WebSearchClient {
  private readonly client: TavilyClient;
  private readonly settings: typeof DEFAULTS;
  private readonly sleep: Sleep;
  private readonly secrets: readonly string[];

  constructor(options: TavilySearchClientOptions) {
    this.client = tavily({
      apiKey: options.apiKey,
      ...(options.apiBaseUrl === undefined ? {} : { apiBaseURL: options.apiBaseUrl.replace(/\/+$/, '') }),
      clientSource: 'sightline',
    });
    this.settings = {
      timeoutMs: options.timeoutMs ?? DEFAULTS.timeoutMs,
      maxRateLimitRetries: options.maxRateLimitRetries ?? DEFAULTS.maxRateLimitRetries,
      initialBackoffMs: options.initialBackoffMs ?? DEFAULTS.initialBackoffMs,
      maxBackoffMs: options.maxBackoffMs ?? DEFAULTS.maxBackoffMs,
      maxPageCharacters: options.maxPageCharacters ?? DEFAULTS.maxPageCharacters,
    };
    this.sleep = options.sleep ?? abortableSleep;
    this.secrets = [options.apiKey];
  }

  async search(request: WebSearchRequest): Promise<WebSearchResponse> {
    const query = request.query.trim();
    if (query === '') throw new TavilyError('bad-request', 'Tavily search needs a query');
    if (query.length > TAVILY_MAX_QUERY_CHARACTERS) {
      throw new TavilyError('bad-request', `Tavily takes queries of at most ${TAVILY_MAX_QUERY_CHARACTERS} characters`);
    }
    const response = await this.call('search', request.signal, () =>
      this.client.search(query, {
        maxResults: request.maxResults ?? 5,
        searchDepth: request.searchDepth ?? 'basic',
        timeout: this.libraryTimeoutSeconds(),
      }),
    );
    const parsed = SearchResponseSchema.safeParse(response);
    if (!parsed.success) throw badResponse('search');
    return {
      query: parsed.data.query,
      results: parsed.data.results.map((result) => ({
        title: result.title?.trim() || result.url,
        url: result.url,
        content: result.content ?? '',
        score: result.score ?? 0,
        ...(result.publishedDate ? { publishedDate: result.publishedDate } : {}),
      })),
    };
  }

  async extract(request: PageExtractRequest): Promise<PageExtractResponse> {
    const urls = [...new Set(request.urls)];
    if (urls.length === 0) return { pages: [], failed: [] };
    if (urls.length > TAVILY_MAX_EXTRACT_URLS) {
      throw new TavilyError('bad-request', `Tavily extracts at most ${TAVILY_MAX_EXTRACT_URLS} pages at a time`);
    }
    const response = await this.call('extract', request.signal, () =>
      this.client.extract(urls, { format: 'text', timeout: this.libraryTimeoutSeconds() }),
    );
    const parsed = ExtractResponseSchema.safeParse(response);
    if (!parsed.success) throw badResponse('extract');
    return {
      pages: parsed.data.results.map((result) => this.page(result)),
      failed: parsed.data.failedResults.map((failure) => ({ url: failure.url, error: failure.error ?? 'unknown error' })),
    };
  }

  private page(result: { url: string; title?: string | null | undefined; rawContent?: string | null | undefined }): ExtractedPage {
    const text = result.rawContent ?? '';
    const truncated = text.length > this.settings.maxPageCharacters;
    return {
      url: result.url,
      ...(result.title ? { title: result.title } : {}),
      rawContent: truncated ? text.slice(0, this.settings.maxPageCharacters) : text,
      truncated,
    };
  }

  /** One operation: retried while Tavily says 429, each attempt under the deadline and the signal. */
  private async call<T>(operation: TavilyOperation, signal: AbortSignal | undefined, attempt: () => Promise<T>): Promise<T> {
    for (let retries = 0; ; retries += 1) {
      try {
        return await this.attempt(operation, signal, attempt);
      } catch (error) {
        if (!(error instanceof TavilyError) || error.kind !== 'rate-limit') throw error;
        if (retries >= this.settings.maxRateLimitRetries) {
          const detail = error.message.replace(/^Tavily rate limit:?\s*/, '');
          const said = detail === '' ? '' : ` (${detail})`;
          throw new TavilyError('rate-limit', `Tavily rate limit, retried ${retries} ${retries === 1 ? 'time' : 'times'}${said}`, {
            ...(error.status === undefined ? {} : { status: error.status }),
          });
        }
        const backoff = Math.min(this.settings.maxBackoffMs, this.settings.initialBackoffMs * 2 ** retries);
        // Tavily's own wait wins when it gave one, within the same ceiling so a call cannot hang for an hour.
        const wait = Math.min(this.settings.maxBackoffMs, error.retryAfterMs ?? backoff);
        try {
          await this.sleep(wait, signal);
        } catch {
          throw new TavilyCallCancelledError(operation);
        }
        if (signal?.aborted === true) throw new TavilyCallCancelledError(operation);
      }
    }
  }

  private attempt<T>(operation: TavilyOperation, signal: AbortSignal | undefined, run: () => Promise<T>): Promise<T> {
    if (signal?.aborted === true) return Promise.reject(new TavilyCallCancelledError(operation));
    const { timeoutMs } = this.settings;
    const call = { operation, timeoutMs, secrets: this.secrets };
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      const settle = (action: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        signal?.removeEventListener('abort', onAbort);
        action();
      };
      const deadline = setTimeout(() => settle(() => reject(timeoutError(operation, timeoutMs))), timeoutMs);
      const onAbort = () => settle(() => reject(new TavilyCallCancelledError(operation)));
      signal?.addEventListener('abort', onAbort, { once: true });
      let work: Promise<T>;
      try {
        work = run();
      } catch (error) {
        settle(() => reject(translateTavilyError(error, call)));
        return;
      }
      work.then(
        (value) => settle(() => resolve(value)),
        (error: unknown) => settle(() => reject(translateTavilyError(error, call))),
      );
    });
  }

  /** The library's own timeout, in its unit (seconds), a little past ours so that ours decides. */
  private libraryTimeoutSeconds(): number {
    return (this.settings.timeoutMs + 1_000) / 1000;
  }
}

function badResponse(operation: TavilyOperation): TavilyError {
  return new TavilyError('bad-response', `Tavily sent a ${operation} response that could not be read`);
}

async function abortableSleep(milliseconds: number, signal?: AbortSignal): Promise<void> {
  await delay(milliseconds, undefined, signal === undefined ? {} : { signal });
}
