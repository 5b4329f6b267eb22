/**
 * The search tools a configuration allows: `web_search` when a Tavily key is configured (config.json or
 * TAVILY_API_KEY), none otherwise, so the model is never offered a tool that cannot work (`sightline
 * doctor` says how to enable it). The CLI and the app pass the result as `extraTools`.
 */
import type { Config } from '../../../shared/config.js';
import type { ModelAdapter } from '../../llm/model-adapter.js';
import { TavilySearchClient, type Sleep } from '../../search/index.js';
import type { ToolDefinition } from '../tools/tool-definition.js';
import { createWebSearchTool } from './web-search-tool.js';

export interface SearchToolsDependencies {
  /** The model the sub-agent thinks with (the main agent's adapter does; its requests are text only). */
  model: ModelAdapter;
  /** Today, for the sub-agent's prompt and queries (tests fix it). */
  now?: () => Date;
  /** Tavily's API root (tests point it at a fake server). */
  tavilyBaseUrl?: string;
  /** Deadline of one Tavily call (default 30 s). */
  tavilyTimeoutMs?: number;
  /** Waits between rate-limit retries (tests pass one that does not wait). */
  sleep?: Sleep;
}

export function createSearchTools(config: Config, dependencies: SearchToolsDependencies): ToolDefinition[] {
  const apiKey = config.search.tavilyApiKey;
  if (apiKey === undefined || apiKey.trim() === '') return [];
  const client = new TavilySearchClient({
    apiKey,
    ...(dependencies.tavilyBaseUrl === undefined ? {} : { apiBaseUrl: dependencies.tavilyBaseUrl }),
    ...(dependencies.tavilyTimeoutMs === undefined ? {} : { timeoutMs: dependencies.tavilyTimeoutMs }),
    ...(dependencies.sleep === undefined ? {} : { sleep: dependencies.sleep }),
  });
  const tool: ToolDefinition = createWebSearchTool({
    model: dependencies.model,
    client,
    settings: { maxIterations: config.search.maxIterations, confidenceThreshold: config.search.confidenceThreshold },
    ...(dependencies.now === undefined ? {} : { now: dependencies.now }),
  });
  return [tool];
}
