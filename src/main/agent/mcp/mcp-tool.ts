/**
 * One tool of an MCP server as a ToolDefinition the registry can hold. The model is shown the server's
 * own input schema; the server validates the arguments. Whatever goes wrong on the server's side (an
 * error result, a thrown error, a timeout, a server that died) comes back as an error result the model
 * can read, never as a throw, so the turn goes on. Only a stop of the turn itself is passed up.
 *
 * Its side effects are what the server's annotations say, read the careful way: risky unless it says it
 * only reads (readOnlyHint: true), and risky whenever it says it may destroy (destructiveHint: true). The
 * MCP spec calls annotations hints a client must not trust from a server it does not know, so they only
 * ever spare a person a question under `risky`; `always` asks for every call (tool-confirmation.ts).
 */
import { z } from 'zod';
import { ErrorCode, McpError, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ConfirmationPolicy } from '../../../shared/config.js';
import type { ToolCallScope, ToolDefinition, ToolResult, ToolSideEffects } from '../tools/tool-definition.js';
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
  /** The server's own confirmation policy (its `confirm` in config.json), when it has one. */
  confirm?: ConfirmationPolicy | undefined;
}

export function createMcpTool(options: McpToolOptions): ToolDefinition<McpArguments> {
  const { connection, tool, name } = options;
  const description = tool.description?.trim() || tool.title || tool.name;
  return {
    name,
    description: `${description} (tool "${tool.name}" of the MCP server "${connection.serverName}")`,
    arguments: McpArgumentsSchema,
    parametersJsonSchema: modelSchema(tool.inputSchema),
    sideEffects: sideEffectsOf(tool, connection.serverName, options.confirm),
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

/** What the gate needs to know of the tool: its risk by its annotations, and its server's policy. */
export function sideEffectsOf(tool: Pick<Tool, 'name' | 'annotations'>, serverName: string, policy: ConfirmationPolicy | undefined): ToolSideEffects {
  return { risk: riskOf(tool, serverName), policy };
}

function riskOf(tool: Pick<Tool, 'name' | 'annotations'>, serverName: string): string | undefined {
  const which = `the tool "${tool.name}" of the MCP server "${serverName}"`;
  if (tool.annotations?.destructiveHint === true) return `${which} may delete or overwrite something (its annotations say destructiveHint)`;
  if (tool.annotations?.readOnlyHint !== true) return `${which} may change something (its annotations do not say readOnlyHint)`;
  return undefined;
}

/** The server's schema as the model is shown it: an object schema, without the `$schema` marker. */
function modelSchema(inputSchema: Tool['inputSchema']): Record<string, unknown> {
  const { $schema: _schema, ...schema } = inputSchema as Record<string, unknown>;
  return { ...schema, type: 'object', properties: schema.properties ?? {} };
}
