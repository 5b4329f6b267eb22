/**
 * The tools a run has beyond the built-in ones, as the agent's `extraTools`: web_search when a Tavily key
 * is configured, and the tools of the MCP servers in config.json (namespaced `<server>__<tool>`). A server
 * that does not start is reported once on stderr and left out; the run goes on. `close()` ends the MCP
 * servers when the run ends.
 */
import type { Config } from '../../../shared/config.js';
import { loadMcpTools, type ToolDefinition } from '../../agent/index.js';
import { createSearchTools } from '../../agent/search/create-search-tools.js';
import type { ModelAdapter } from '../../llm/model-adapter.js';

export interface RunTools {
  tools: ToolDefinition[];
  close(): Promise<void>;
}

export async function openRunTools(config: Config, model: ModelAdapter, stderr: (text: string) => void): Promise<RunTools> {
  const mcp = await loadMcpTools(config.mcp, { onWarning: (message) => stderr(`sightline: ${message}\n`) });
  return { tools: [...createSearchTools(config, { model }), ...mcp.tools], close: mcp.close };
}
