/**
 * The web_search tool and its sub-agent, with the real model adapter against the fake model server and
 * the real Tavily client against the fake Tavily server: iterations until confident or the limit, extract
 * for depth, the date in the query, the report stored and emitted, and the failures that come back as a
 * clear tool result.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, type Config } from '../../src/shared/config.js';
import type { AgentEvent } from '../../src/shared/events.js';
import { textOfParts } from '../../src/shared/messages.js';
import { createSearchTools } from '../../src/main/agent/search/create-search-tools.js';
import type { ToolCallScope, ToolDefinition, ToolResult } from '../../src/main/agent/tools/tool-definition.js';
import { ShownImages } from '../../src/main/context/index.js';
import { createModelAdapter } from '../../src/main/llm/create-model-adapter.js';
import { FIT_EDGE } from '../../src/main/llm/model-profiles.js';
import type { Storage } from '../../src/main/storage/index.js';
import { chatMessages, contentText, toolCall } from '../helpers/agent-harness.js';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../helpers/fake-openai-server.js';
import { extractedPages, page, searchResults, startFakeTavilyServer, type FakeTavilyServer } from '../helpers/fake-tavily-server.js';
import { createTemporaryStorage, type TemporaryStorage } from '../helpers/temporary-storage.js';

const TAVILY_KEY = 'tvly-test-abcdef0123456789';
/** Saturday 14 June 2025, midday UTC. */
const TODAY = new Date('2025-06-14T12:00:00Z');

const NODE_RELEASES = 'https://nodejs.org/en/about/previous-releases';
const NODE_BLOG = 'https://nodejs.org/en/blog/release/v22.12.0';
const FORUM = 'https://forum.example/t/node-lts';

let model: FakeOpenAiServer;
let tavily: FakeTavilyServer;
let temporary: TemporaryStorage;
let storage: Storage;
let events: AgentEvent[];
let scope: { sessionId: string; turnId: string };

beforeEach(async () => {
  model = await startFakeOpenAiServer();
  tavily = await startFakeTavilyServer();
  temporary = createTemporaryStorage('sightline-search');
  storage = temporary.storage;
  events = [];
  const session = storage.sessions.create({ title: 'Search test' });
  const turn = storage.turns.start({ sessionId: session.id, userRequest: 'update node' });
  scope = { sessionId: session.id, turnId: turn.id };
});

afterEach(async () => {
  await model.close();
  await tavily.close();
  temporary.remove();
});

function config(search: Partial<Config['search']> = {}): Config {
  return {
    ...DEFAULT_CONFIG,
    model: { ...DEFAULT_CONFIG.model, baseUrl: model.baseUrl, apiKey: 'sk-test-model', maxRetries: 0 },
    search: { ...DEFAULT_CONFIG.search, tavilyApiKey: TAVILY_KEY, ...search },
  };
}

function webSearchTool(search: Partial<Config['search']> = {}, options: { tavilyTimeoutMs?: number } = {}): ToolDefinition {
  const settings = config(search);
  const tools = createSearchTools(settings, {
    model: createModelAdapter(settings.model),
    now: () => TODAY,
    tavilyBaseUrl: tavily.baseUrl,
    sleep: async () => {},
    ...options,
  });
  const tool = tools[0];
  if (tool === undefined) throw new Error('createSearchTools offered no tool');
  return tool;
}

async function runWebSearch(tool: ToolDefinition, question: string, signal = new AbortController().signal): Promise<ToolResult> {
  const callScope: ToolCallScope = { ...scope, signal, storage, emit: (event) => events.push(event), shown: undefined, shownImages: ShownImages.of({ maxImageEdge: 1280, imageSizing: FIT_EDGE, coordinateSpace: 'pixels' }) };
  return tool.execute(tool.arguments.parse({ question }), callScope);
}

const search = (query: string) => toolCall('search', { query });
const extract = (...urls: string[]) => toolCall('extract', { urls });
const report = (answer: string, confidence: number, sources: string[]) => toolCall('report', { answer, confidence, sources });

describe('createSearchTools', () => {
  it('offers web_search only when a Tavily key is configured', () => {
    const adapter = createModelAdapter(config().model);
    expect(createSearchTools({ ...config(), search: DEFAULT_CONFIG.search }, { model: adapter })).toEqual([]);
    expect(createSearchTools(config(), { model: adapter }).map((tool) => tool.name)).toEqual(['web_search']);
  });
});

describe('web_search', () => {
  it('reaches confidence in two iterations, reading the promising page in depth', async () => {
    model.script([
      search('current Node.js LTS version'),
      report('Probably Node 22.', 0.5, [FORUM]),
      search('Node.js LTS release schedule 2025'),
      extract(NODE_RELEASES),
      report('Node.js 22 ("Jod") is the active LTS line; 22.12.0 is the latest release.', 0.9, [NODE_RELEASES, NODE_BLOG]),
    ]);
    tavily.scriptSearch([
      searchResults([page('Which Node LTS?', FORUM, 'Someone says 22, someone says 20.', 0.6)]),
      searchResults([
        page('Node.js — Node.js Releases', NODE_RELEASES, 'Production applications should only use Active LTS or Maintenance LTS releases.', 0.93),
        page('Node.js v22.12.0 (LTS)', NODE_BLOG, 'Node.js 22.12.0 released.', 0.88),
      ]),
    ]);
    tavily.scriptExtract([extractedPages({ [NODE_RELEASES]: 'v22 Jod Active LTS, v20 Iron Maintenance LTS. PAGE-BODY-MARKER' })]);

    const result = await runWebSearch(webSearchTool(), 'What is the current Node.js LTS version?');

    expect(result.isError).toBeUndefined();
    const text = textOfParts(result.parts);
    expect(text).toContain('Answer (confidence 0.90): Node.js 22 ("Jod") is the active LTS line');
    expect(text).toContain(`- Node.js — Node.js Releases — ${NODE_RELEASES}`);
    expect(text).toContain(`- Node.js v22.12.0 (LTS) — ${NODE_BLOG}`);
    expect(text).not.toContain(FORUM);
    expect(model.remainingReplies()).toBe(0);
    expect(tavily.queries()).toHaveLength(2);

    // Extract read the page the model chose, and the model saw its text.
    const extractRequest = tavily.requests.find((request) => request.endpoint === 'extract');
    expect(extractRequest?.body.urls).toEqual([NODE_RELEASES]);
    const lastRequest = chatMessages(model, 4);
    expect(lastRequest.map(contentText).join('\n')).toContain('PAGE-BODY-MARKER');
  });

  it('puts the current month and year into queries that lack them, and today into the prompt', async () => {
    model.script([search('node lts version'), search('node lts version 2025'), report('22', 0.95, [NODE_RELEASES])]);
    tavily.scriptSearch([searchResults([]), searchResults([page('Releases', NODE_RELEASES)])]);

    await runWebSearch(webSearchTool(), 'Which Node version is LTS?');

    expect(tavily.queries()).toEqual(['node lts version June 2025', 'node lts version 2025']);
    const system = chatMessages(model, 0)[0];
    expect(system?.role).toBe('system');
    expect(contentText(system ?? {})).toContain('Today is 2025-06-14.');
  });

  it('stops at the iteration limit with the best report so far, and says it is not confident', async () => {
    model.script([
      search('obscure setting'),
      report('Maybe under Advanced.', 0.3, [FORUM]),
      search('obscure setting location'),
      report('Under Settings > Advanced > Network.', 0.6, [NODE_RELEASES]),
    ]);
    tavily.scriptSearch([searchResults([page('Forum', FORUM)]), searchResults([page('Docs', NODE_RELEASES)])]);

    const result = await runWebSearch(webSearchTool({ maxIterations: 2 }), 'Where is the obscure setting?');

    const text = textOfParts(result.parts);
    expect(result.isError).toBeUndefined();
    expect(text).toContain('did not reach a confident answer after 2 searches (confidence 0.60, wanted 0.8)');
    expect(text).toContain('Under Settings > Advanced > Network.');
    expect(text).toContain(`- Docs — ${NODE_RELEASES}`);
    expect(model.remainingReplies()).toBe(0);
    expect(storage.searchReports.listByTurn(scope.turnId)[0]).toMatchObject({ iterations: 2, confidence: 0.6 });
  });

  it('ends honestly when the model keeps searching past the limit without reporting', async () => {
    model.script([search('first try'), search('second try'), search('third try')]);
    tavily.scriptSearch([searchResults([page('Forum', FORUM, 'x', 0.4)]), searchResults([page('Docs', NODE_RELEASES, 'y', 0.7)])]);

    const result = await runWebSearch(webSearchTool({ maxIterations: 2 }), 'Where is the obscure setting?');

    expect(tavily.queries()).toHaveLength(2);
    const text = textOfParts(result.parts);
    expect(text).toContain('Could not find a confident answer');
    expect(text).toContain(NODE_RELEASES);
    expect(model.remainingReplies()).toBe(0);
  });

  it('stores the report with the turn and emits it for the timeline', async () => {
    model.script([search('node lts'), report('Node 22.', 0.85, [NODE_RELEASES])]);
    tavily.scriptSearch([searchResults([page('Node.js Releases', NODE_RELEASES)])]);

    const result = await runWebSearch(webSearchTool(), 'Which Node version is LTS?');

    const stored = storage.searchReports.listByTurn(scope.turnId);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      sessionId: scope.sessionId,
      question: 'Which Node version is LTS?',
      queries: ['node lts June 2025'],
      sources: [{ title: 'Node.js Releases', url: NODE_RELEASES }],
      answer: 'Node 22.',
      confidence: 0.85,
      iterations: 1,
    });
    expect(stored[0]?.durationMs).toBeGreaterThanOrEqual(0);
    expect(events).toEqual([
      {
        type: 'search-report',
        ...scope,
        at: expect.any(Number) as number,
        reportId: stored[0]?.id,
        question: 'Which Node version is LTS?',
        answer: 'Node 22.',
        confidence: 0.85,
        sources: [{ title: 'Node.js Releases', url: NODE_RELEASES }],
      },
    ]);
    expect(result.record?.result).toMatchObject({ searchReportId: stored[0]?.id });
  });

  it('keeps the sub-agent conversation out of its result', async () => {
    model.script([
      toolCall('search', { query: 'gear icon meaning' }, 'SUB-AGENT-THOUGHT'),
      extract(NODE_RELEASES),
      report('It opens the settings.', 0.9, [NODE_RELEASES]),
    ]);
    tavily.scriptSearch([searchResults([page('Icons', NODE_RELEASES, 'SNIPPET-MARKER')])]);
    tavily.scriptExtract([extractedPages({ [NODE_RELEASES]: 'PAGE-BODY-MARKER' })]);

    const result = await runWebSearch(webSearchTool(), 'What does the gear icon do?');

    const text = textOfParts(result.parts);
    expect(text).toContain('It opens the settings.');
    for (const inner of ['SUB-AGENT-THOUGHT', 'SNIPPET-MARKER', 'PAGE-BODY-MARKER', 'gear icon meaning', 'web research helper']) {
      expect(text).not.toContain(inner);
    }
  });

  it('drops cited URLs the model never saw', async () => {
    model.script([search('q'), report('A.', 0.9, ['https://invented.example/page', NODE_RELEASES])]);
    tavily.scriptSearch([searchResults([page('Releases', NODE_RELEASES)])]);
    await runWebSearch(webSearchTool(), 'Q?');
    expect(storage.searchReports.listByTurn(scope.turnId)[0]?.sources).toEqual([{ title: 'Releases', url: NODE_RELEASES }]);
  });
});

describe('web_search failures come back as clear tool results', () => {
  it('retries a 429 and goes on', async () => {
    model.script([search('q'), report('A.', 0.9, [NODE_RELEASES])]);
    tavily.scriptSearch([{ type: 'error', status: 429 }, searchResults([page('Releases', NODE_RELEASES)])]);
    const result = await runWebSearch(webSearchTool(), 'Q?');
    expect(result.isError).toBeUndefined();
    expect(tavily.requests).toHaveLength(2);
  });

  it('reports a rate limit that outlasts the retries', async () => {
    model.script([search('q')]);
    tavily.scriptSearch([429, 429, 429, 429].map((status) => ({ type: 'error' as const, status })));
    const result = await runWebSearch(webSearchTool(), 'Q?');
    expect(result.isError).toBe(true);
    expect(textOfParts(result.parts)).toMatch(/^web search failed: Tavily rate limit, retried 3 times/);
    expect(storage.searchReports.listByTurn(scope.turnId)).toEqual([]);
    expect(events).toEqual([]);
  });

  it('reports a refused key without repeating it', async () => {
    model.script([search('q')]);
    tavily.scriptSearch([{ type: 'error', status: 401 }]);
    const result = await runWebSearch(webSearchTool(), 'Q?');
    const text = textOfParts(result.parts);
    expect(result.isError).toBe(true);
    expect(text).toMatch(/^web search failed: Tavily refused the API key/);
    expect(text).not.toContain(TAVILY_KEY);
  });

  it('reports a search that times out', async () => {
    model.script([search('q')]);
    tavily.scriptSearch([{ type: 'hang' }]);
    const result = await runWebSearch(webSearchTool({}, { tavilyTimeoutMs: 200 }), 'Q?');
    expect(result.isError).toBe(true);
    expect(textOfParts(result.parts)).toBe('web search failed: Tavily search timed out after 0.2 s');
  });

  it('reports a server error', async () => {
    model.script([search('q')]);
    tavily.scriptSearch([{ type: 'error', status: 500 }]);
    const result = await runWebSearch(webSearchTool(), 'Q?');
    expect(result.isError).toBe(true);
    expect(textOfParts(result.parts)).toBe('web search failed: Tavily search failed: Internal Server Error');
  });

  it('says plainly when the web had nothing', async () => {
    model.script([search('zzqx'), search('zzqx qqq'), search('zzqx again')]);
    tavily.scriptSearch([searchResults([]), searchResults([])]);
    const result = await runWebSearch(webSearchTool({ maxIterations: 2 }), 'What is zzqx?');
    expect(result.isError).toBeUndefined();
    expect(textOfParts(result.parts)).toMatch(/^Web search found nothing for "What is zzqx\?" \(2 searches\)/);
    expect(storage.searchReports.listByTurn(scope.turnId)[0]).toMatchObject({ confidence: 0, sources: [], iterations: 2 });
  });

  it('lets the research go on when a page cannot be read', async () => {
    model.script([search('q'), extract(NODE_RELEASES), report('From the snippet: 22.', 0.8, [NODE_RELEASES])]);
    tavily.scriptSearch([searchResults([page('Releases', NODE_RELEASES, 'v22 is Active LTS')])]);
    tavily.scriptExtract([{ type: 'error', status: 500 }]);
    const result = await runWebSearch(webSearchTool(), 'Q?');
    expect(result.isError).toBeUndefined();
    expect(textOfParts(result.parts)).toContain('From the snippet: 22.');
    const extractAnswer = chatMessages(model, 2).at(-1);
    expect(contentText(extractAnswer ?? {})).toContain('The pages could not be read (Tavily extract failed: Internal Server Error)');
  });

  it('reports a failing research model', async () => {
    model.script([{ type: 'error', status: 500, message: 'model exploded' }]);
    const result = await runWebSearch(webSearchTool(), 'Q?');
    expect(result.isError).toBe(true);
    expect(textOfParts(result.parts)).toMatch(/^web search failed: the research model failed: /);
  });

  it('passes a stop of the turn on instead of reporting it as a failure', async () => {
    model.script([search('q')]);
    tavily.scriptSearch([{ type: 'hang' }]);
    const controller = new AbortController();
    const running = runWebSearch(webSearchTool(), 'Q?', controller.signal);
    setTimeout(() => controller.abort(), 50);
    await expect(running).rejects.toThrow(/cancelled/);
    expect(storage.searchReports.listByTurn(scope.turnId)).toEqual([]);
  });
});
