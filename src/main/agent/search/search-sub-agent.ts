/**
 * The search sub-agent: a small loop with its own conversation, its own model calls and its own tools
 * (search, extract, report). It iterates, one search per iteration plus reading the promising pages in
 * depth, until it reports an answer with enough confidence or runs out of iterations. Its messages stay
 * here; what leaves is SearchFindings, a short report the main agent receives as a tool result.
 */
import type { Message, ToolCall, ToolMessage } from '../../../shared/messages.js';
import { systemText, userText } from '../../../shared/messages.js';
import type { ModelAdapter } from '../../llm/model-adapter.js';
import { ModelCallCancelledError, ModelError } from '../../llm/model-errors.js';
import {
  TavilyCallCancelledError,
  TavilyError,
  type PageExtractResponse,
  type WebSearchClient,
  type WebSearchResponse,
} from '../../search/index.js';
import { invalidArgumentsMessage, parseToolArguments } from '../malformed-output.js';
import { queryWithDate } from './search-date.js';
import { searchSystemPrompt } from './search-prompt.js';
import {
  SUB_AGENT_MODEL_TOOLS,
  SUB_AGENT_TOOL_SCHEMAS,
  isSubAgentToolName,
  type ExtractArguments,
  type ReportArguments,
  type SearchArguments,
} from './search-sub-agent-tools.js';

export interface SearchSubAgentDependencies {
  model: ModelAdapter;
  client: WebSearchClient;
  /** Today, for the prompt and the queries. */
  now: () => Date;
}

export interface SearchSubAgentSettings {
  maxIterations: number;
  confidenceThreshold: number;
  /** Characters of each extracted page the model reads (default 3,000): the sub-agent's context stays small. */
  pageCharacterBudget?: number;
  /** Characters of each search snippet the model reads (default 600). */
  snippetCharacterBudget?: number;
  /** Results asked for per search (default 5). */
  resultsPerSearch?: number;
}

export interface SourceReference {
  title: string;
  url: string;
}

export type SearchOutcome = 'confident' | 'not-confident' | 'nothing-found';

export interface SearchFindings {
  question: string;
  answer: string;
  /** 0 to 1: the sub-agent's own judgement, 0 when it never reported. */
  confidence: number;
  /** Title and URL of the pages the answer rests on. */
  sources: SourceReference[];
  /** The queries as sent to the search service (with the date). */
  queries: string[];
  /** Searches made. */
  iterations: number;
  outcome: SearchOutcome;
}

/** The research could not go on: Tavily refused or failed, or the model did. The message says which. */
export class SearchFailedError extends Error {
  override name = 'SearchFailedError';
}

const DEFAULT_PAGE_CHARACTER_BUDGET = 3_000;
const DEFAULT_SNIPPET_CHARACTER_BUDGET = 600;
const DEFAULT_RESULTS_PER_SEARCH = 5;
/** Model calls per iteration: a search, an extract and a report, plus slack for a correction. */
const MODEL_CALLS_PER_ITERATION = 4;
/** Tavily failures a reading step can shrug off: the snippets from the search are still there. */
const RECOVERABLE_EXTRACT_FAILURES = new Set(['timeout', 'server', 'bad-response', 'bad-request']);

interface Report {
  answer: string;
  confidence: number;
  sources: SourceReference[];
}

export async function runSearchSubAgent(
  question: string,
  dependencies: SearchSubAgentDependencies,
  settings: SearchSubAgentSettings,
  signal: AbortSignal,
): Promise<SearchFindings> {
  const run = new SearchRun(question, dependencies, settings, signal);
  try {
    return await run.play();
  } catch (error) {
    if (error instanceof TavilyCallCancelledError || error instanceof ModelCallCancelledError || signal.aborted) throw error;
    if (error instanceof TavilyError) throw new SearchFailedError(error.message, { cause: error });
    if (error instanceof ModelError) throw new SearchFailedError(`the research model failed: ${error.message}`, { cause: error });
    throw error;
  }
}

class SearchRun {
  private readonly messages: Message[];
  private readonly queries: string[] = [];
  /** Every page the model was shown, by URL: what a cited source may be. */
  private readonly seen = new Map<string, SourceReference>();
  private readonly extracted: SourceReference[] = [];
  /** The best-scoring results of every search, for an honest report when the model never reported. */
  private readonly topResults: SourceReference[] = [];
  private best: Report | undefined;
  private finished = false;
  private readonly now: Date;

  constructor(
    private readonly question: string,
    private readonly dependencies: SearchSubAgentDependencies,
    private readonly settings: SearchSubAgentSettings,
    private readonly signal: AbortSignal,
  ) {
    this.now = dependencies.now();
    this.messages = [systemText(searchSystemPrompt(this.now, settings)), userText(`Question: ${question}`)];
  }

  async play(): Promise<SearchFindings> {
    const maxModelCalls = this.settings.maxIterations * MODEL_CALLS_PER_ITERATION;
    for (let calls = 0; calls < maxModelCalls && !this.finished; calls += 1) {
      const reply = await this.dependencies.model.complete(
        { messages: this.messages, tools: SUB_AGENT_MODEL_TOOLS, toolChoice: 'required' },
        { signal: this.signal },
      );
      this.messages.push({ role: 'assistant', parts: reply.parts, toolCalls: reply.toolCalls });
      if (reply.toolCalls.length === 0) {
        this.messages.push(userText('Call one of the tools: search, extract or report.'));
        continue;
      }
      for (const call of reply.toolCalls) {
        if (this.finished) break;
        this.messages.push(await this.answer(call));
      }
    }
    return this.findings();
  }

  private async answer(call: ToolCall): Promise<ToolMessage> {
    const reply = (text: string, isError = false): ToolMessage => ({
      role: 'tool',
      toolCallId: call.id,
      name: call.name,
      parts: [{ type: 'text', text }],
      ...(isError ? { isError: true } : {}),
    });
    if (!isSubAgentToolName(call.name)) {
      return reply(`There is no tool named "${call.name}". The tools are: search, extract, report.`, true);
    }
    const parsed = parseToolArguments(call.name, call.argumentsText);
    if (!parsed.ok) return reply(parsed.error, true);
    const schema = SUB_AGENT_TOOL_SCHEMAS[call.name];
    const validation = schema.safeParse(parsed.value);
    if (!validation.success) {
      const expected = SUB_AGENT_MODEL_TOOLS.find((tool) => tool.name === call.name)?.parameters;
      return reply(invalidArgumentsMessage(call.name, validation.error, parsed.value, expected), true);
    }
    switch (call.name) {
      case 'search':
        return this.search(validation.data as SearchArguments, reply);
      case 'extract':
        return this.extract(validation.data as ExtractArguments, reply);
      case 'report':
        return reply(this.report(validation.data as ReportArguments));
    }
  }

  private async search(
    argumentsValue: SearchArguments,
    reply: (text: string, isError?: boolean) => ToolMessage,
  ): Promise<ToolMessage> {
    if (this.queries.length >= this.settings.maxIterations) {
      // Out of iterations: the research ends with the best report so far.
      this.finished = true;
      return reply('No searches left.', true);
    }
    const query = queryWithDate(argumentsValue.query, this.now);
    this.queries.push(query);
    let response: WebSearchResponse;
    try {
      response = await this.dependencies.client.search({
        query,
        maxResults: this.settings.resultsPerSearch ?? DEFAULT_RESULTS_PER_SEARCH,
        signal: this.signal,
      });
    } catch (error) {
      if (error instanceof TavilyError && error.kind === 'bad-request') {
        return reply(`The search service rejected this query (${error.message}). Try a shorter, plainer query.`, true);
      }
      throw error;
    }
    return reply(this.describeResults(query, response));
  }

  private describeResults(query: string, response: WebSearchResponse): string {
    const left = this.searchesLeft();
    if (response.results.length === 0) {
      return `No results for "${query}". Try other words (${left}).`;
    }
    const budget = this.settings.snippetCharacterBudget ?? DEFAULT_SNIPPET_CHARACTER_BUDGET;
    const ranked = [...response.results].sort((first, second) => second.score - first.score);
    const lines = [`Results for "${query}":`];
    ranked.forEach((result, index) => {
      this.seen.set(normalizeUrl(result.url), { title: result.title, url: result.url });
      lines.push(
        `[${index + 1}] ${result.title}`,
        `    ${result.url}`,
        `    relevance ${result.score.toFixed(2)}${result.publishedDate === undefined ? '' : `, published ${result.publishedDate}`}`,
        `    ${cut(oneLine(result.content), budget)}`,
      );
    });
    for (const result of ranked.slice(0, 2)) this.topResults.push({ title: result.title, url: result.url });
    lines.push('', `(${left})`);
    return lines.join('\n');
  }

  private async extract(
    argumentsValue: ExtractArguments,
    reply: (text: string, isError?: boolean) => ToolMessage,
  ): Promise<ToolMessage> {
    let response: PageExtractResponse;
    try {
      response = await this.dependencies.client.extract({ urls: argumentsValue.urls, signal: this.signal });
    } catch (error) {
      if (error instanceof TavilyError && RECOVERABLE_EXTRACT_FAILURES.has(error.kind)) {
        return reply(`The pages could not be read (${error.message}). Rely on the snippets, or search again.`, true);
      }
      throw error;
    }
    const budget = this.settings.pageCharacterBudget ?? DEFAULT_PAGE_CHARACTER_BUDGET;
    const sections: string[] = [];
    for (const page of response.pages) {
      const known = this.seen.get(normalizeUrl(page.url));
      const source = { title: page.title ?? known?.title ?? page.url, url: page.url };
      this.seen.set(normalizeUrl(page.url), source);
      if (!this.extracted.some((entry) => entry.url === page.url)) this.extracted.push(source);
      const text = page.rawContent.trim();
      const more = text.length > budget || page.truncated ? ' […the page continues]' : '';
      sections.push(`Page: ${source.title}\n${page.url}\n\n${text.slice(0, budget)}${more}`);
    }
    for (const failure of response.failed) sections.push(`Could not read ${failure.url}: ${failure.error}`);
    if (sections.length === 0) return reply('None of those pages could be read.', true);
    return reply(sections.join('\n\n---\n\n'));
  }

  private report(argumentsValue: ReportArguments): string {
    const report: Report = {
      answer: argumentsValue.answer,
      confidence: argumentsValue.confidence,
      sources: this.resolveSources(argumentsValue.sources),
    };
    if (this.best === undefined || report.confidence >= this.best.confidence) this.best = report;
    const { confidenceThreshold, maxIterations } = this.settings;
    if (report.confidence >= confidenceThreshold || this.queries.length >= maxIterations) {
      this.finished = true;
      return 'Report received.';
    }
    return (
      `Confidence ${report.confidence.toFixed(2)} is below ${confidenceThreshold}. Search again with a different or ` +
      `more specific query, or read a promising page in full (${this.searchesLeft()}).`
    );
  }

  /** The cited URLs the model actually saw; when it cites none of those, the pages it read in full. */
  private resolveSources(urls: readonly string[]): SourceReference[] {
    const cited: SourceReference[] = [];
    for (const url of urls) {
      const source = this.seen.get(normalizeUrl(url));
      if (source !== undefined && !cited.some((entry) => entry.url === source.url)) cited.push(source);
    }
    return cited.length > 0 ? cited : [...this.extracted];
  }

  private findings(): SearchFindings {
    const common = { question: this.question, queries: [...this.queries], iterations: this.queries.length };
    const best = this.best;
    if (best !== undefined) {
      const outcome = best.confidence >= this.settings.confidenceThreshold ? 'confident' : 'not-confident';
      return { ...common, answer: best.answer, confidence: best.confidence, sources: best.sources, outcome };
    }
    if (this.seen.size === 0) {
      return { ...common, answer: 'The web search found nothing about this.', confidence: 0, sources: [], outcome: 'nothing-found' };
    }
    const sources = this.extracted.length > 0 ? [...this.extracted] : uniqueByUrl(this.topResults).slice(0, 3);
    return {
      ...common,
      answer: 'Could not find a confident answer; the most relevant pages found are listed as sources.',
      confidence: 0,
      sources,
      outcome: 'not-confident',
    };
  }

  private searchesLeft(): string {
    const left = Math.max(0, this.settings.maxIterations - this.queries.length);
    return left === 0 ? 'no searches left: report now' : `${left} ${left === 1 ? 'search' : 'searches'} left`;
  }
}

/** So that `https://a.org/x/` cited as `https://a.org/x` still counts as seen. */
function normalizeUrl(url: string): string {
  return url.trim().replace(/\/+$/, '');
}

function uniqueByUrl(sources: readonly SourceReference[]): SourceReference[] {
  const byUrl = new Map<string, SourceReference>();
  for (const source of sources) if (!byUrl.has(source.url)) byUrl.set(source.url, source);
  return [...byUrl.values()];
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function cut(text: string, budget: number): string {
  return text.length > budget ? `${text.slice(0, budget - 1)}…` : text;
}
