/**
 * The MCP protocol side of `sightline mcp`: the SDK's Server answering tools/list and tools/call from the
 * tool host. The low-level Server rather than McpServer, because our tools bring their own JSON schemas
 * (the computer tool's is one flat object, checked per action by its zod schema) and McpServer would
 * derive the listed schema from zod and list the computer tool's union as an empty object.
 *
 * Arguments are checked by each tool's own zod schema, as for the agent's model. A call that does not fit
 * is answered as a tool result with isError, naming the field and the reason, so that the calling model
 * sees it and can correct itself (MCP 2025-11-25); only a call naming no tool is the protocol's
 * invalid-params error (-32602), as is a request off the protocol's own shape (`arguments` that are not an
 * object, a `name` that is not a string), which the stdio transport answers before it gets here
 * (request-params.ts). Each tool is listed with its exact schema (computer: one `oneOf` branch
 * per action), so a client that validates before calling is never refused for shape.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { McpToolHost } from './mcp-tool-host.js';

const SERVER_INFO = { name: 'sightline', version: '0.1.0' };

const INSTRUCTIONS =
  'Sightline sees and acts on a screen (a desktop or a browser page) and remembers every screenshot by id. ' +
  'Call screenshot first; computer acts with the mouse and keyboard in the coordinates of the latest ' +
  'screenshot and returns the screen after the action; get_history_image and crop_image bring back or zoom ' +
  'into any earlier image by its id (crop boxes are in the image as it was sent to you, scaled down or not). Risky actions are refused unless the server was started with --yes.';

/**
 * The protocol answers a thrown error with its `code` and `message`. Not the SDK's McpError: its message
 * already starts "MCP error -32602:", and the client adds the same prefix again when it rebuilds the error.
 */
class InvalidParamsError extends Error {
  override name = 'InvalidParamsError';
  readonly code = ErrorCode.InvalidParams;
}

export function createSightlineMcpServer(host: McpToolHost): Server {
  // The SDK marks Server for advanced use; serving tools with their own schemas is such a use.
  const server = new Server(SERVER_INFO, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  server.oninitialized = () => host.setClientName(server.getClientVersion()?.name);
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: host.listTools() }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const outcome = await host.call(request.params.name, request.params.arguments ?? {}, extra.signal);
    if (outcome.kind === 'unknown-tool') throw new InvalidParamsError(outcome.message);
    return { content: outcome.content, ...(outcome.isError ? { isError: true } : {}) };
  });
  return server;
}
