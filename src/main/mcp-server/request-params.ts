/**
 * The params of the requests this server answers, checked before the SDK sees them. The SDK parses a
 * request's params inside its handler and answers a mismatch as an internal error (-32603) whose message is
 * zod's issue list as JSON; a client that sent `"arguments": [1, 2]` deserves the protocol's invalid-params
 * error (-32602) saying which field was wrong and what was expected. The check uses the SDK's own request
 * schemas, so a request that passes it passes the SDK's parse too.
 */
import type { z } from 'zod';
import {
  CallToolRequestSchema,
  InitializeRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  type JSONRPCRequest,
} from '@modelcontextprotocol/sdk/types.js';

type RequestSchema = typeof CallToolRequestSchema | typeof InitializeRequestSchema | typeof ListToolsRequestSchema | typeof PingRequestSchema;

/** What the server answers: the SDK's initialize and ping, and our tools/list and tools/call (mcp-server.ts). */
const SERVED_REQUESTS: ReadonlyMap<string, RequestSchema> = new Map<string, RequestSchema>([
  ['initialize', InitializeRequestSchema],
  ['ping', PingRequestSchema],
  ['tools/list', ListToolsRequestSchema],
  ['tools/call', CallToolRequestSchema],
]);

/**
 * Why a request's params do not fit its method's schema, one clause per field, or undefined when they do
 * (or when the method is not one this server answers: that is the SDK's method-not-found).
 */
export function servedRequestParamsProblem(request: JSONRPCRequest): string | undefined {
  const schema = SERVED_REQUESTS.get(request.method);
  if (schema === undefined) return undefined;
  // reportInput puts the offending value on each issue, for "got an array".
  const parsed = schema.safeParse({ method: request.method, params: request.params }, { reportInput: true });
  if (parsed.success) return undefined;
  return `Invalid params for ${request.method}: ${parsed.error.issues.map(describeIssue).join('; ')}.`;
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const path = issue.path.map(String).join('.');
  const expected = expectedKinds(issue);
  if (expected !== undefined) return `${path}: expected ${expected}, got ${kindOf(issue.input)}`;
  if (issue.code === 'unrecognized_keys') return `${path}: unexpected ${issue.keys.map((key) => JSON.stringify(key)).join(', ')}`;
  if (issue.code === 'invalid_value') return `${path}: expected ${issue.values.map((value) => JSON.stringify(value)).join(' or ')}, got ${kindOf(issue.input)}`;
  return `${path}: ${issue.message}`;
}

/** "an object", or "a string or an integer" for a union of plain types (a progress token). */
function expectedKinds(issue: z.core.$ZodIssue): string | undefined {
  if (issue.code === 'invalid_type') return kindName(issue.expected);
  if (issue.code !== 'invalid_union') return undefined;
  const branches = issue.errors.map((errors) => (errors.length === 1 && errors[0]?.code === 'invalid_type' && errors[0].path.length === 0 ? errors[0].expected : undefined));
  if (branches.length === 0 || branches.some((expected) => expected === undefined)) return undefined;
  return branches.map((expected) => kindName(expected!)).join(' or ');
}

function kindName(expected: string): string {
  if (expected === 'record' || expected === 'object') return 'an object';
  if (expected === 'int') return 'an integer';
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}

/** The given value in a few words: its kind, and the value itself when it is short. */
export function kindOf(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return value.length <= 40 ? `the string ${JSON.stringify(value)}` : 'a string';
  if (typeof value === 'number') return `the number ${String(value)}`;
  if (typeof value === 'boolean') return `the boolean ${String(value)}`;
  return `a ${typeof value}`;
}
