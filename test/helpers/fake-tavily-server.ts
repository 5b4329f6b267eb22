/**
 * A fake Tavily API for tests: a real HTTP server on 127.0.0.1 that answers POST /search and POST /extract
 * with Tavily's real response bodies (snake_case, as api.tavily.com sends them) and its real error bodies
 * (`{"detail": {"error": "…"}}`), so the real @tavily/core client runs against it unchanged through
 * `apiBaseURL`. Each test scripts the replies per endpoint, in order, and inspects every request.
 *
 *   const tavily = await startFakeTavilyServer();
 *   tavily.scriptSearch([{ type: 'error', status: 429 }, searchResults([page('Node 22', 'https://…')])]);
 *   … new TavilySearchClient({ apiKey, apiBaseUrl: tavily.baseUrl }) …
 *   expect(tavily.requests[0]?.body).toMatchObject({ query: … });
 */
import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeSearchResult {
  title: string;
  url: string;
  content: string;
  score: number;
  raw_content?: string | null;
  published_date?: string;
}

export interface FakeExtractResult {
  url: string;
  raw_content: string;
  title?: string | null;
}

export type FakeSearchReply =
  | { type: 'results'; results: FakeSearchResult[]; answer?: string | null }
  | FakeFailure;

export type FakeExtractReply =
  | { type: 'pages'; results: FakeExtractResult[]; failed?: { url: string; error: string }[] }
  | FakeFailure;

export type FakeFailure =
  /** Tavily's error body; the message defaults to Tavily's documented text for the status. */
  | { type: 'error'; status: number; message?: string; headers?: Record<string, string> }
  /** Any body at all, with status 200 (for responses that are not Tavily's). */
  | { type: 'raw'; status?: number; body: string; contentType?: string }
  /** Never answers (for timeout tests). */
  | { type: 'hang' };

export interface RecordedTavilyRequest {
  endpoint: 'search' | 'extract' | 'other';
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

export interface FakeTavilyServer {
  /** What to pass as `apiBaseURL` (no trailing slash). */
  baseUrl: string;
  requests: RecordedTavilyRequest[];
  /** The `query` of every /search request, in order. */
  queries(): string[];
  scriptSearch(replies: FakeSearchReply[]): void;
  scriptExtract(replies: FakeExtractReply[]): void;
  remainingReplies(): { search: number; extract: number };
  close(): Promise<void>;
}

/** Tavily's documented messages (help.tavily.com, "Errors Code"). */
const TAVILY_ERROR_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized: missing or invalid API key.',
  429: 'Your request has been blocked due to excessive requests. Please reduce rate of requests.',
  432: "This request exceeds your plan's set usage limit. Please upgrade your plan or contact support@tavily.com",
  433: 'This request exceeds the pay-as-you-go limit. You can increase your limit on the Tavily dashboard',
  500: 'Internal Server Error',
};

export async function startFakeTavilyServer(): Promise<FakeTavilyServer> {
  const searchQueue: FakeSearchReply[] = [];
  const extractQueue: FakeExtractReply[] = [];
  const requests: RecordedTavilyRequest[] = [];
  const openResponses = new Set<ServerResponse>();

  const server = createServer((request, response) => {
    openResponses.add(response);
    response.on('close', () => openResponses.delete(response));
    void readBody(request).then((rawBody) => {
      const body = parseObject(rawBody);
      const path = request.url ?? '';
      const endpoint = path === '/search' ? 'search' : path === '/extract' ? 'extract' : 'other';
      requests.push({ endpoint, path, headers: request.headers, body });
      if (request.method !== 'POST' || endpoint === 'other') {
        sendJson(response, 404, { detail: 'Not Found' });
        return;
      }
      if (endpoint === 'search') answerSearch(searchQueue.shift(), body, response);
      else answerExtract(extractQueue.shift(), body, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    queries: () => requests.filter((request) => request.endpoint === 'search').map((request) => String(request.body.query)),
    scriptSearch: (replies) => searchQueue.push(...replies),
    scriptExtract: (replies) => extractQueue.push(...replies),
    remainingReplies: () => ({ search: searchQueue.length, extract: extractQueue.length }),
    close: async () => {
      for (const response of openResponses) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function answerSearch(reply: FakeSearchReply | undefined, body: Record<string, unknown>, response: ServerResponse): void {
  if (reply === undefined) return sendTavilyError(response, 400, 'The fake Tavily server has no scripted search reply left.');
  if (reply.type !== 'results') return sendFailure(reply, response);
  const maxResults = typeof body.max_results === 'number' ? body.max_results : 5;
  sendJson(response, 200, {
    query: body.query,
    follow_up_questions: null,
    answer: reply.answer ?? null,
    images: [],
    results: reply.results.slice(0, maxResults).map((result) => ({ raw_content: null, ...result })),
    response_time: 0.87,
    request_id: randomUUID(),
  });
}

function answerExtract(reply: FakeExtractReply | undefined, body: Record<string, unknown>, response: ServerResponse): void {
  if (reply === undefined) return sendTavilyError(response, 400, 'The fake Tavily server has no scripted extract reply left.');
  if (reply.type !== 'pages') return sendFailure(reply, response);
  const asked = Array.isArray(body.urls) ? body.urls.map(String) : [];
  sendJson(response, 200, {
    // Like Tavily: only pages that were asked for come back.
    results: reply.results.filter((page) => asked.includes(page.url)).map((page) => ({ images: [], ...page })),
    failed_results: reply.failed ?? [],
    response_time: 0.42,
    request_id: randomUUID(),
  });
}

function sendFailure(reply: FakeFailure, response: ServerResponse): void {
  if (reply.type === 'hang') return;
  if (reply.type === 'raw') {
    response.writeHead(reply.status ?? 200, { 'content-type': reply.contentType ?? 'application/json' });
    response.end(reply.body);
    return;
  }
  sendTavilyError(response, reply.status, reply.message ?? TAVILY_ERROR_TEXT[reply.status] ?? `Error ${reply.status}`, reply.headers);
}

function sendTavilyError(response: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  sendJson(response, status, { detail: { error: message } }, headers);
}

function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

function parseObject(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** A search reply with these results. */
export function searchResults(results: FakeSearchResult[]): FakeSearchReply {
  return { type: 'results', results };
}

/** A search result with a plausible snippet and score. */
export function page(title: string, url: string, content = `${title}: a page about it.`, score = 0.8): FakeSearchResult {
  return { title, url, content, score };
}

/** An extract reply for these pages (url → text). */
export function extractedPages(pages: Record<string, string>, failed: { url: string; error: string }[] = []): FakeExtractReply {
  return { type: 'pages', results: Object.entries(pages).map(([url, text]) => ({ url, raw_content: text })), failed };
}
