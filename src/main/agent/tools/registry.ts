/**
 * The tools the model may call, by name: the built-in ones and those added from outside (web_search, MCP
 * servers' tools). Names are unique; a collision is a configuration mistake found when the agent is built,
 * not a surprise in the middle of a turn.
 */
import type { ModelToolDeclaration } from '../../llm/model-adapter.js';
import { toModelTool } from './model-tool-schema.js';
import type { ToolDefinition } from './tool-definition.js';

/** What OpenAI-style APIs accept as a function name. */
const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

export class ToolRegistryError extends Error {
  override name = 'ToolRegistryError';
}

export class ToolRegistry {
  private readonly tools = new Map<string, ToolDefinition>();
  private readonly modelTools: ModelToolDeclaration[];

  constructor(tools: readonly ToolDefinition[]) {
    for (const tool of tools) {
      if (!TOOL_NAME_PATTERN.test(tool.name)) {
        throw new ToolRegistryError(
          `Tool name "${tool.name}" is not usable: names are 1–64 letters, digits, "_" or "-".`,
        );
      }
      if (this.tools.has(tool.name)) {
        throw new ToolRegistryError(`Two tools are named "${tool.name}"; tool names must be unique.`);
      }
      this.tools.set(tool.name, tool);
    }
    // Converted once: the tools sent are the same bytes in every request (prompt caches hold).
    this.modelTools = tools.map(toModelTool);
  }

  get(name: string): ToolDefinition | undefined {
    return this.tools.get(name);
  }

  names(): string[] {
    return [...this.tools.keys()];
  }

  list(): ToolDefinition[] {
    return [...this.tools.values()];
  }

  /** The tools as the model is shown them. */
  forModel(): readonly ModelToolDeclaration[] {
    return this.modelTools;
  }
}

/** Built-in tools first, then the extra ones; a name used twice is an error. */
export function createToolRegistry(builtIns: readonly ToolDefinition[], extraTools: readonly ToolDefinition[] = []): ToolRegistry {
  return new ToolRegistry([...builtIns, ...extraTools]);
}
