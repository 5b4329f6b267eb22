/**
 * The three tools the search sub-agent's model may call: `search`, `extract` and `report`. They live only
 * in the sub-agent's own conversation; the main agent never sees them.
 */
import { z } from 'zod';
import type { ModelToolDeclaration } from '../../llm/model-adapter.js';

/** Pages read in depth per extract call: enough to compare sources, few enough to keep the context small. */
export const MAX_PAGES_PER_EXTRACT = 3;

export const SearchArgumentsSchema = z
  .object({
    query: z.string().trim().min(1).max(400).describe('A web search query: specific keywords, with the current month and year when recency matters.'),
  })
  .strict();

export const ExtractArgumentsSchema = z
  .object({
    urls: z
      .array(z.url())
      .min(1)
      .max(MAX_PAGES_PER_EXTRACT)
      .describe(`1 to ${MAX_PAGES_PER_EXTRACT} URLs from the search results to read in full.`),
  })
  .strict();

export const ReportArgumentsSchema = z
  .object({
    answer: z.string().trim().min(1).max(4000).describe('A short, direct answer to the question (a few sentences at most).'),
    confidence: z
      .number()
      .min(0)
      .max(1)
      .describe('How sure you are that the answer is right and current, from 0 (a guess) to 1 (stated plainly by reliable sources).'),
    sources: z
      .array(z.string())
      .max(10)
      .describe('The URLs of the pages the answer rests on, from the results you saw.'),
  })
  .strict();

export type SearchArguments = z.infer<typeof SearchArgumentsSchema>;
export type ExtractArguments = z.infer<typeof ExtractArgumentsSchema>;
export type ReportArguments = z.infer<typeof ReportArgumentsSchema>;

export const SUB_AGENT_TOOL_SCHEMAS = {
  search: SearchArgumentsSchema,
  extract: ExtractArgumentsSchema,
  report: ReportArgumentsSchema,
} as const;
export type SubAgentToolName = keyof typeof SUB_AGENT_TOOL_SCHEMAS;

const DESCRIPTIONS: Record<SubAgentToolName, string> = {
  search: 'Search the web. Returns the most relevant pages with a snippet of each. Each search is one iteration.',
  extract: 'Read the full text of the most promising pages from the search results, when the snippets are not enough.',
  report:
    'Give your answer with your confidence and the URLs it rests on. If the confidence is too low you may be asked to search again.',
};

/** The tools as the model is shown them, converted once so every request carries the same bytes. */
export const SUB_AGENT_MODEL_TOOLS: readonly ModelToolDeclaration[] = (Object.keys(SUB_AGENT_TOOL_SCHEMAS) as SubAgentToolName[]).map(
  (name) => {
    const { $schema: _schema, ...parameters } = z.toJSONSchema(SUB_AGENT_TOOL_SCHEMAS[name], { io: 'input' });
    return { name, description: DESCRIPTIONS[name], parameters };
  },
);

export function isSubAgentToolName(name: string): name is SubAgentToolName {
  return Object.hasOwn(SUB_AGENT_TOOL_SCHEMAS, name);
}
