/**
 * What one line from an MCP client over stdio is, and what JSON-RPC 2.0 answers when it is not a message the
 * server can take. The SDK's stdio transport hands a malformed line to `onerror` and answers nothing, so a
 * client that sent it waits forever; here every request that cannot be taken gets its error:
 * - not JSON: -32700 Parse error, `"id": null` (no id could be read);
 * - JSON that is not one request object (a number, a string, a batch array, which MCP dropped in 2025-06-18),
 *   or an object off the JSON-RPC shape (wrong `jsonrpc`, an id that is not a string or an integer, no method,
 *   a member JSON-RPC does not have): -32600 Invalid Request, with its id when one could be read, else null;
 * - a request whose params are not an object, or do not fit its method's schema: -32602 Invalid params.
 * A malformed notification or response is never answered (JSON-RPC answers neither, and two peers answering
 * each other's errors would never stop); it is reported to `onerror` instead.
 */
import {
  ErrorCode,
  isJSONRPCRequest,
  JSONRPCMessageSchema,
  JSONRPC_VERSION,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { kindOf } from './request-params.js';

/** The SDK's error response, with the null id JSON-RPC requires when the request's id could not be read. */
export interface JsonRpcErrorReply {
  jsonrpc: typeof JSONRPC_VERSION;
  id: RequestId | null;
  error: { code: number; message: string };
}

export type IncomingLine =
  | { kind: 'message'; message: JSONRPCMessage }
  | { kind: 'answer'; reply: JsonRpcErrorReply }
  /** Nothing to answer: a blank line, or a malformed notification or response (`problem` says what). */
  | { kind: 'ignored'; problem?: string };

/** Why a request cannot be served as sent, or undefined (request-params.ts for the served methods). */
export type RequestCheck = (request: JSONRPCRequest) => string | undefined;

const REQUEST_MEMBERS = new Set(['jsonrpc', 'id', 'method', 'params']);

export function readIncomingLine(line: string, checkRequest: RequestCheck): IncomingLine {
  if (line.trim() === '') return { kind: 'ignored' };
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return answer(null, ErrorCode.ParseError, `Parse error: the line is not JSON (${detail}). Send one JSON-RPC message per line.`);
  }
  const parsed = JSONRPCMessageSchema.safeParse(value);
  if (parsed.success) {
    const message = parsed.data;
    if (!isJSONRPCRequest(message)) return { kind: 'message', message };
    const problem = checkRequest(message);
    return problem === undefined ? { kind: 'message', message } : answer(message.id, ErrorCode.InvalidParams, problem);
  }
  return malformed(value);
}

/** Valid JSON that the SDK's message schema refused: say why, to whom it can be said. */
function malformed(value: unknown): IncomingLine {
  if (Array.isArray(value)) {
    return answer(null, ErrorCode.InvalidRequest, 'Invalid Request: batches (JSON arrays) are not supported; send each request as one JSON object on its own line.');
  }
  if (typeof value !== 'object' || value === null) {
    return answer(null, ErrorCode.InvalidRequest, `Invalid Request: expected a JSON-RPC request object, got ${kindOf(value)}.`);
  }
  const message = value as Record<string, unknown>;
  const hasId = 'id' in message;
  if (!('method' in message) && ('result' in message || 'error' in message)) {
    return { kind: 'ignored', problem: `a malformed response was dropped: ${abbreviated(message)}` };
  }
  if (!hasId && typeof message.method === 'string') {
    return { kind: 'ignored', problem: `a malformed notification was dropped: ${abbreviated(message)}` };
  }
  const id = isRequestId(message.id) ? message.id : null;
  if (message.jsonrpc !== JSONRPC_VERSION) {
    return answer(id, ErrorCode.InvalidRequest, `Invalid Request: "jsonrpc" must be "2.0", got ${kindOf(message.jsonrpc)}.`);
  }
  if (hasId && id === null) {
    return answer(null, ErrorCode.InvalidRequest, `Invalid Request: "id" must be a string or an integer, got ${kindOf(message.id)}.`);
  }
  if (typeof message.method !== 'string') {
    return answer(id, ErrorCode.InvalidRequest, `Invalid Request: "method" must be a string, got ${kindOf(message.method)}.`);
  }
  const unexpected = Object.keys(message).filter((key) => !REQUEST_MEMBERS.has(key));
  if (unexpected.length > 0) {
    const names = unexpected.map((key) => JSON.stringify(key)).join(', ');
    return answer(id, ErrorCode.InvalidRequest, `Invalid Request: unexpected member ${names}; a request has only "jsonrpc", "id", "method" and "params".`);
  }
  if (message.params !== undefined && (typeof message.params !== 'object' || message.params === null || Array.isArray(message.params))) {
    return answer(id, ErrorCode.InvalidParams, `Invalid params for ${message.method}: params must be an object of named parameters, got ${kindOf(message.params)}.`);
  }
  return answer(id, ErrorCode.InvalidRequest, `Invalid Request: not a JSON-RPC 2.0 request.`);
}

/** The answer to a line too long to read: its id is somewhere in what was thrown away. */
export function tooLongReply(maxLineBytes: number): JsonRpcErrorReply {
  const size = maxLineBytes % (1024 * 1024) === 0 ? `${maxLineBytes / 1024 / 1024} MiB` : `${maxLineBytes} bytes`;
  return errorReply(null, ErrorCode.InvalidRequest, `Invalid Request: a message longer than ${size} was discarded unread.`);
}

function answer(id: RequestId | null, code: ErrorCode, message: string): IncomingLine {
  return { kind: 'answer', reply: errorReply(id, code, message) };
}

function errorReply(id: RequestId | null, code: ErrorCode, message: string): JsonRpcErrorReply {
  return { jsonrpc: JSONRPC_VERSION, id, error: { code, message } };
}

function isRequestId(value: unknown): value is RequestId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isSafeInteger(value));
}

function abbreviated(message: Record<string, unknown>): string {
  const text = JSON.stringify(message);
  return text.length <= 200 ? text : `${text.slice(0, 200)}…`;
}
