/**
 * The tools of the configured MCP servers, loaded at the start of a run: every server is started at once
 * (one slow server does not delay the others by more than its own start), its tools listed and wrapped as
 * ToolDefinitions named `<server>__<tool>`, ready to be passed as the agent's `extraTools` (which puts
 * the confirmation gate in front of them, with each server's `confirm`).
 *
 * A server that cannot start is reported once, through `onWarning`, naming it and the reason; its tools are
 * absent and the run goes on with the others. `close()` ends every connection (stdio servers' processes
 * exit); call it when the run ends.
 */
import type { McpConfig } from '../../../shared/config.js';
import type { ToolDefinition } from '../tools/tool-definition.js';
import { connectMcpServer, errorText, type McpConnection } from './mcp-connection.js';
import { createMcpTool } from './mcp-tool.js';
import { ToolNameAllocator } from './tool-names.js';

export interface McpServerFailure {
  server: string;
  reason: string;
}

export interface LoadedMcpTools {
  tools: ToolDefinition[];
  /** The servers that did not start, each reported once through onWarning. */
  failures: McpServerFailure[];
  close(): Promise<void>;
}

export interface LoadMcpToolsOptions {
  /** Told once per server that could not be started: `MCP server "x" did not start: …; its tools are left out.` */
  onWarning?: (message: string) => void;
}

export async function loadMcpTools(config: McpConfig, options: LoadMcpToolsOptions = {}): Promise<LoadedMcpTools> {
  const servers = Object.entries(config.servers);
  const settled = await Promise.allSettled(
    servers.map(([name, server]) => connectMcpServer(name, server, config.startTimeoutMs)),
  );
  const connections: McpConnection[] = [];
  const failures: McpServerFailure[] = [];
  settled.forEach((outcome, index) => {
    const server = servers[index]![0];
    if (outcome.status === 'fulfilled') {
      connections.push(outcome.value);
      return;
    }
    const reason = errorText(outcome.reason);
    failures.push({ server, reason });
    options.onWarning?.(`MCP server "${server}" did not start: ${reason}; its tools are left out of this run.`);
  });
  const tools = connections.flatMap((connection) => toolsOf(connection, config));
  return {
    tools,
    failures,
    close: async () => {
      await Promise.all(connections.map((connection) => connection.close()));
    },
  };
}

function toolsOf(connection: McpConnection, config: McpConfig): ToolDefinition[] {
  const names = new ToolNameAllocator(connection.serverName);
  const { callTimeoutMs } = config;
  const confirm = config.servers[connection.serverName]?.confirm;
  return connection.tools.map(
    (tool) => createMcpTool({ connection, tool, name: names.allocate(tool.name), callTimeoutMs, confirm }) as ToolDefinition,
  );
}
