/**
 * `web_search({question})`: the main agent's way to knowledge that is not on the screen. It runs the
 * search sub-agent, stores its report with the turn (search_reports), announces it to the timeline
 * ('search-report' event) and answers with a short text: answer, confidence, sources. Failures come back
 * as an error result the model can read ("web search failed: Tavily rate limit, retried 3 times"), never
 * as a throw; only a stop of the turn is passed on.
 */
import { z } from 'zod';
import type { ModelAdapter } from '../../llm/model-adapter.js';
import type { WebSearchClient } from '../../search/index.js';
import type { ToolDefinition, ToolResult } from '../tools/tool-definition.js';
import { searchFindingsText } from './search-findings-text.js';
import { runSearchSubAgent, SearchFailedError, type SearchSubAgentSettings } from './search-sub-agent.js';

export const WEB_SEARCH_TOOL_NAME = 'web_search';

const WebSearchArgumentsSchema = z
  .object({
    question: z
      .string()
      .trim()
      .min(1)
      .max(1000)
      .describe('One self-contained question, with the context needed to answer it (names, versions, places).'),
  })
  .strict();
export type WebSearchArguments = z.infer<typeof WebSearchArgumentsSchema>;

export interface WebSearchToolDependencies {
  model: ModelAdapter;
  client: WebSearchClient;
  settings: SearchSubAgentSettings;
  now?: () => Date;
}

export function createWebSearchTool(dependencies: WebSearchToolDependencies): ToolDefinition<WebSearchArguments> {
  const now = dependencies.now ?? (() => new Date());
  return {
    name: WEB_SEARCH_TOOL_NAME,
    description:
      'Look something up on the web when the task needs knowledge that is not on the screen (a fact, current ' +
      'information, how a product works). A research helper searches and reads pages, then returns a short ' +
      'answer with its confidence and sources. Takes a while: ask only what you need.',
    arguments: WebSearchArgumentsSchema,
    execute: async ({ question }, scope): Promise<ToolResult> => {
      const started = performance.now();
      let findings;
      try {
        findings = await runSearchSubAgent(
          question,
          { model: dependencies.model, client: dependencies.client, now },
          dependencies.settings,
          scope.signal,
        );
      } catch (error) {
        // A stop of the turn is not a search failure: the loop ends the turn as stopped.
        if (scope.signal.aborted) throw error;
        const reason = error instanceof SearchFailedError ? error.message : `unexpected error: ${errorMessage(error)}`;
        return { parts: [{ type: 'text', text: `web search failed: ${reason}` }], isError: true, record: { result: { error: reason } } };
      }
      const durationMs = Math.round(performance.now() - started);
      const report = scope.storage.searchReports.add({
        sessionId: scope.sessionId,
        turnId: scope.turnId,
        question,
        queries: findings.queries,
        sources: findings.sources,
        answer: findings.answer,
        confidence: findings.confidence,
        iterations: findings.iterations,
        durationMs,
      });
      scope.emit({
        type: 'search-report',
        sessionId: scope.sessionId,
        turnId: scope.turnId,
        at: Date.now(),
        reportId: report.id,
        question,
        answer: findings.answer,
        confidence: findings.confidence,
        sources: findings.sources,
      });
      return {
        parts: [{ type: 'text', text: searchFindingsText(findings, dependencies.settings.confidenceThreshold) }],
        record: {
          result: { searchReportId: report.id, outcome: findings.outcome, confidence: findings.confidence, iterations: findings.iterations },
        },
      };
    },
  };
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
