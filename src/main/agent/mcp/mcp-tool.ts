/**
 * One tool of an MCP server as a ToolDefinition the registry can hold. The model is shown the server's
 * own input schema; the server validates the arguments. Whatever goes wrong on the server's side (an
 * error result, a thrown error, a timeout, a server that died) comes back as an error result the model
 * can read, never as a throw, so the turn goes on. Only a stop of the turn itself is passed up.
 */
import { z } from 'zod';
import { ErrorCode, McpError, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ToolCallScope, ToolDefinition, ToolResult } from '../tools/tool-definition.js';
import { errorText, type McpConnection } from './mcp-connection.js';
import { partsFromMcpResult, type McpToolOutput } from './mcp-content.js';

/** MCP arguments are a JSON object; the server checks them against its schema. */
const McpArgumentsSchema = z.record(z.string(), z.unknown());
type McpArguments = z.infer<typeof McpArgumentsSchema>;

export interface McpToolOptions {
  connection: McpConnection;
  tool: Tool;
  /** The name in our registry (`<server>__<tool>`). */
  name: string;
  callTimeoutMs: number;
}

export function createMcpTool(options: McpToolOptions): ToolDefinition<McpArguments> {
  const { connection, tool, name } = options;
  const description = tool.description?.trim() || tool.title || tool.name;
  return {
    name,
    description: `${description} (tool "${tool.name}" of the MCP server "${connection.serverName}")`,
    arguments: McpArgumentsSchema,
    parametersJsonSchema: modelSchema(tool.inputSchema),
    execute: (argumentsValue, scope) => callMcpTool(options, argumentsValue, scope),
  };
}

async function callMcpTool(options: McpToolOptions, argumentsValue: McpArguments, scope: ToolCallScope): Promise<ToolResult> {
  const { connection, tool, name, callTimeoutMs } = options;
  const failed = (text: string): ToolResult => ({ parts: [{ type: 'text', text }], isError: true });
  if (connection.closed) return failed(serverGoneMessage(connection));
  let output: McpToolOutput & { isError?: boolean };
  try {
    output = (await connection.client.callTool({ name: tool.name, arguments: argumentsValue }, undefined, {
      timeout: callTimeoutMs,
      signal: scope.signal,
    })) as McpToolOutput & { isError?: boolean };
  } catch (error) {
    // A stop of the turn is the loop's to handle (the turn ends as stopped), not a tool failure.
    if (scope.signal.aborted) throw error;
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      return failed(`${name} timed out after ${callTimeoutMs} ms (mcp.callTimeoutMs); it may still be running on the server.`);
    }
    if (connection.closed || (error instanceof McpError && error.code === ErrorCode.ConnectionClosed)) {
      return failed(serverGoneMessage(connection));
    }
    return failed(`${name} failed: ${errorText(error)}`);
  }
  const parts = await partsFromMcpResult(output, name, scope);
  return output.isError === true ? { parts, isError: true } : { parts };
}

function serverGoneMessage(connection: McpConnection): string {
  const lastWords = connection.stderrTail();
  return (
    `The MCP server "${connection.serverName}" is not running any more, so its tools cannot be used in this run` +
    `${lastWords === '' ? '' : ` (it said: ${lastWords})`}.`
  );
}

/** The server's schema as the model is shown it: an object schema, without the `$schema` marker. */
function modelSchema(inputSchema: Tool['inputSchema']): Record<string, unknown> {
  const { $schema: _schema, ...schema } = inputSchema as Record<string, unknown>;
  return { ...schema, type: 'object', properties: schema.properties ?? {} };
}
