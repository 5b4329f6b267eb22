/**
 * The Tavily client against a fake Tavily server through @tavily/core's `apiBaseURL`: typed results,
 * extract with its bound, the typed errors, 429 retried with backoff, deadlines and cancellation, and
 * never the key in a message.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TavilyCallCancelledError, TavilyError, TavilySearchClient, type TavilySearchClientOptions } from '../../src/main/search/index.js';
import { extractedPages, page, searchResults, startFakeTavilyServer, type FakeTavilyServer } from '../helpers/fake-tavily-server.js';

const API_KEY = 'tvly-test-0123456789-secret';

let tavily: FakeTavilyServer;
let waits: number[];

beforeEach(async () => {
  tavily = await startFakeTavilyServer();
  waits = [];
});
afterEach(async () => {
  await tavily.close();
});

function client(options: Partial<TavilySearchClientOptions> = {}): TavilySearchClient {
  return new TavilySearchClient({
    apiKey: API_KEY,
    apiBaseUrl: tavily.baseUrl,
    sleep: async (milliseconds) => void waits.push(milliseconds),
    ...options,
  });
}

async function failure(work: Promise<unknown>): Promise<TavilyError> {
  const error = await work.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(TavilyError);
  expect((error as Error).message).not.toContain(API_KEY);
  return error as TavilyError;
}

describe('TavilySearchClient.search', () => {
  it('sends the query with the key and returns typed results', async () => {
    tavily.scriptSearch([
      searchResults([
        { ...page('Node.js 22 release', 'https://nodejs.org/en/blog/release/v22.0.0', 'Node.js 22 is out.', 0.91), published_date: '2024-04-24' },
        page('Node.js releases', 'https://nodejs.org/en/about/previous-releases', 'Release schedule.', 0.7),
      ]),
    ]);
    const response = await client().search({ query: 'node 22 release date', maxResults: 3 });

    expect(response.results).toEqual([
      { title: 'Node.js 22 release', url: 'https://nodejs.org/en/blog/release/v22.0.0', content: 'Node.js 22 is out.', score: 0.91, publishedDate: '2024-04-24' },
      { title: 'Node.js releases', url: 'https://nodejs.org/en/about/previous-releases', content: 'Release schedule.', score: 0.7 },
    ]);
    const request = tavily.requests[0];
    expect(request?.path).toBe('/search');
    expect(request?.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(request?.body).toMatchObject({ query: 'node 22 release date', max_results: 3, search_depth: 'basic' });
  });

  it('returns an empty list when nothing matched', async () => {
    tavily.scriptSearch([searchResults([])]);
    expect((await client().search({ query: 'zzzz qqqq' })).results).toEqual([]);
  });

  it('refuses an empty or overlong query before any request', async () => {
    expect((await failure(client().search({ query: '  ' }))).kind).toBe('bad-request');
    expect((await failure(client().search({ query: 'x'.repeat(401) }))).kind).toBe('bad-request');
    expect(tavily.requests).toHaveLength(0);
  });
});

describe('TavilySearchClient.extract', () => {
  it('reads pages, reports the ones it could not, and cuts long pages to its bound', async () => {
    tavily.scriptExtract([
      extractedPages(
        { 'https://a.example/one': 'short text', 'https://b.example/two': 'y'.repeat(500) },
        [{ url: 'https://c.example/gone', error: 'Failed to fetch url' }],
      ),
    ]);
    const response = await client({ maxPageCharacters: 100 }).extract({
      urls: ['https://a.example/one', 'https://b.example/two', 'https://c.example/gone'],
    });

    expect(response.pages).toEqual([
      { url: 'https://a.example/one', rawContent: 'short text', truncated: false },
      { url: 'https://b.example/two', rawContent: 'y'.repeat(100), truncated: true },
    ]);
    expect(response.failed).toEqual([{ url: 'https://c.example/gone', error: 'Failed to fetch url' }]);
    expect(tavily.requests[0]?.body).toMatchObject({ urls: ['https://a.example/one', 'https://b.example/two', 'https://c.example/gone'] });
  });
});

describe('rate limits', () => {
  it('retries a 429 with exponential backoff, then succeeds', async () => {
    tavily.scriptSearch([{ type: 'error', status: 429 }, { type: 'error', status: 429 }, searchResults([page('A', 'https://a.example')])]);
    const response = await client().search({ query: 'anything' });

    expect(response.results.map((result) => result.url)).toEqual(['https://a.example']);
    expect(tavily.requests).toHaveLength(3);
    expect(waits).toEqual([1000, 2000]);
  });

  it('gives up after the retries with a rate-limit error that says so', async () => {
    tavily.scriptSearch([429, 429, 429, 429].map((status) => ({ type: 'error' as const, status })));
    const error = await failure(client().search({ query: 'anything' }));

    expect(error.kind).toBe('rate-limit');
    expect(error.message).toMatch(/^Tavily rate limit, retried 3 times/);
    expect(tavily.requests).toHaveLength(4);
    expect(waits).toEqual([1000, 2000, 4000]);
  });

  it('honours the wait Tavily gives in its newer error envelope, within the ceiling', async () => {
    tavily.scriptSearch([
      { type: 'raw', status: 429, body: JSON.stringify({ error: { code: 'rate_limited', message: 'Slow down', retry_after_seconds: 7 } }) },
      searchResults([page('A', 'https://a.example')]),
    ]);
    await client().search({ query: 'anything' });
    expect(waits).toEqual([7000]);
  });

  it('does not retry other failures', async () => {
    tavily.scriptSearch([{ type: 'error', status: 500 }]);
    expect((await failure(client().search({ query: 'anything' }))).kind).toBe('server');
    expect(tavily.requests).toHaveLength(1);
    expect(waits).toEqual([]);
  });
});

describe('errors', () => {
  it('tells a refused key apart, and says where the key is set', async () => {
    tavily.scriptSearch([{ type: 'error', status: 401 }]);
    const error = await failure(client().search({ query: 'anything' }));
    expect(error.kind).toBe('auth');
    expect(error.message).toContain('TAVILY_API_KEY');
  });

  it('tells a used-up plan apart from a rate limit', async () => {
    tavily.scriptSearch([{ type: 'error', status: 432 }]);
    expect((await failure(client().search({ query: 'anything' }))).kind).toBe('usage-limit');
  });

  it('keeps the status when Tavily sends no detail text', async () => {
    tavily.scriptSearch([{ type: 'raw', status: 503, body: '{"message":"unavailable"}' }]);
    const error = await failure(client().search({ query: 'anything' }));
    expect(error).toMatchObject({ kind: 'server', status: 503 });
  });

  it('reports a body that is not a Tavily response', async () => {
    tavily.scriptSearch([{ type: 'raw', body: JSON.stringify({ unexpected: true }) }]);
    tavily.scriptExtract([{ type: 'raw', body: JSON.stringify({ results: [{ url: 5 }], failed_results: [] }) }]);
    expect((await failure(client().search({ query: 'anything' }))).kind).toBe('bad-response');
    expect((await failure(client().extract({ urls: ['https://a.example'] }))).kind).toBe('bad-response');
  });

  it('times out a call that never answers', async () => {
    tavily.scriptSearch([{ type: 'hang' }]);
    const error = await failure(client({ timeoutMs: 200 }).search({ query: 'anything' }));
    expect(error.kind).toBe('timeout');
    expect(error.message).toBe('Tavily search timed out after 0.2 s');
  });

  it('reports a server it cannot reach', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const error = await failure(client({ apiBaseUrl: `http://127.0.0.1:${port}` }).search({ query: 'anything' }));
    expect(error.kind).toBe('network');
  });

  it('never repeats the key, even when the server echoes it', async () => {
    tavily.scriptSearch([{ type: 'error', status: 500, message: `bad key ${API_KEY} here` }]);
    const error = await failure(client().search({ query: 'anything' }));
    expect(error.message).toContain('(redacted)');
  });

  it('stops waiting when the signal aborts', async () => {
    tavily.scriptSearch([{ type: 'hang' }]);
    const controller = new AbortController();
    const search = client().search({ query: 'anything', signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    await expect(search).rejects.toBeInstanceOf(TavilyCallCancelledError);
  });
});
