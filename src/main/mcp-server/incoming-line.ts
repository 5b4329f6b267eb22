/**
 * What one line from an MCP client over stdio is, and what JSON-RPC 2.0 answers when it is not a message the
 * server can take. The SDK's stdio transport hands a malformed line to `onerror` and answers nothing, so a
 * client that sent it waits forever; here every request that cannot be taken gets its error:
 * - not JSON: -32700 Parse error, `"id": null` (no id could be read);
 * - JSON that is not one request object (a number, a string, a batch array, which MCP dropped in 2025-06-18),
 *   or an object off the JSON-RPC shape (wrong `jsonrpc`, an id that is not a string or an integer, no method,
 *   a member JSON-RPC does not have): -32600 Invalid Request, with its id when one could be read, else null;
 * - a request whose params are not an object, or do not fit its method's schema: -32602 Invalid params;
 * - a message nested more than MAX_NESTING_DEPTH levels deep: -32600, before anything walks it recursively.
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

/** Far past any tool's arguments, and far short of what overflows a recursive walk. */
export const MAX_NESTING_DEPTH = 256;

export function readIncomingLine(line: string, checkRequest: RequestCheck): IncomingLine {
  if (line.trim() === '') return { kind: 'ignored' };
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return answer(null, ErrorCode.ParseError, `Parse error: the line is not JSON (${detail}). Send one JSON-RPC message per line.`);
  }
  if (nestedDeeperThan(value, MAX_NESTING_DEPTH)) {
    const message = `Invalid Request: the message nests objects and arrays more than ${MAX_NESTING_DEPTH} levels deep.`;
    return unanswerable(value, line) ?? answer(readableId(value), ErrorCode.InvalidRequest, message);
  }
  const parsed = JSONRPCMessageSchema.safeParse(value);
  if (parsed.success) {
    const message = parsed.data;
    if (!isJSONRPCRequest(message)) return { kind: 'message', message };
    const problem = checkRequest(message);
    return problem === undefined ? { kind: 'message', message } : answer(message.id, ErrorCode.InvalidParams, problem);
  }
  return malformed(value, line);
}

/** Valid JSON that the SDK's message schema refused: say why, to whom it can be said. */
function malformed(value: unknown, line: string): IncomingLine {
  if (Array.isArray(value)) {
    return answer(null, ErrorCode.InvalidRequest, 'Invalid Request: batches (JSON arrays) are not supported; send each request as one JSON object on its own line.');
  }
  if (typeof value !== 'object' || value === null) {
    return answer(null, ErrorCode.InvalidRequest, `Invalid Request: expected a JSON-RPC request object, got ${kindOf(value)}.`);
  }
  const unanswered = unanswerable(value, line);
  if (unanswered !== undefined) return unanswered;
  const message = value as Record<string, unknown>;
  const hasId = 'id' in message;
  const id = readableId(message);
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

/** A response or a notification, which JSON-RPC never answers, however malformed: reported instead. */
function unanswerable(value: unknown, line: string): IncomingLine | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const message = value as Record<string, unknown>;
  if (!('method' in message) && ('result' in message || 'error' in message)) {
    return { kind: 'ignored', problem: `a malformed response was dropped: ${abbreviated(line)}` };
  }
  if (!('id' in message) && typeof message.method === 'string') {
    return { kind: 'ignored', problem: `a malformed notification was dropped: ${abbreviated(line)}` };
  }
  return undefined;
}

function readableId(value: unknown): RequestId | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const { id } = value as Record<string, unknown>;
  return typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id)) ? id : null;
}

/**
 * Walked with a stack of its own, since the point is a value deep enough to overflow the call stack: the
 * SDK's handlers and the session's recording stringify arguments recursively, and would fail with
 * "Maximum call stack size exceeded" as an internal error.
 */
function nestedDeeperThan(value: unknown, limit: number): boolean {
  const pending: Array<{ value: unknown; depth: number }> = [{ value, depth: 1 }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (typeof next.value !== 'object' || next.value === null) continue;
    if (next.depth > limit) return true;
    for (const child of Object.values(next.value)) pending.push({ value: child, depth: next.depth + 1 });
  }
  return false;
}

/** The answer to a line too long to read: its id is somewhere in what was thrown away. */
export function tooLongReply(maxLineBytes: number): JsonRpcErrorReply {
  const size = maxLineBytes % (1024 * 1024) === 0 ? `${maxLineBytes / 1024 / 1024} MiB` : `${maxLineBytes} bytes`;
  return errorReply(null, ErrorCode.InvalidRequest, `Invalid Request: a message longer than ${size} was discarded unread.`);
}

/** The answer to a line whose reading failed for a reason of ours, not the client's. */
export function internalErrorReply(message: string): JsonRpcErrorReply {
  return errorReply(null, ErrorCode.InternalError, message);
}

function answer(id: RequestId | null, code: ErrorCode, message: string): IncomingLine {
  return { kind: 'answer', reply: errorReply(id, code, message) };
}

function errorReply(id: RequestId | null, code: ErrorCode, message: string): JsonRpcErrorReply {
  return { jsonrpc: JSONRPC_VERSION, id, error: { code, message } };
}

/** The line as sent, not the value stringified again: a value nested deep enough overflows JSON.stringify. */
function abbreviated(line: string): string {
  return line.length <= 200 ? line : `${line.slice(0, 200)}…`;
}
