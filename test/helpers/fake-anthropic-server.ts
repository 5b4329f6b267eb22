/**
 * A fake Anthropic Messages API server for tests: a real HTTP server on 127.0.0.1 that speaks
 * POST /v1/messages, streamed and not, in the API's published shapes, so the real `@anthropic-ai/sdk`
 * client runs against it unchanged. Each test scripts the replies, in order, and inspects every request
 * (body and headers) the server received.
 *
 * Shapes, from Anthropic's documentation:
 * - the Message object of a plain reply (id, type "message", role, model, content blocks `text` and
 *   `tool_use`, stop_reason, stop_sequence, usage with input_tokens, output_tokens,
 *   cache_creation_input_tokens, cache_read_input_tokens): Messages API reference,
 *   https://docs.anthropic.com/en/api/messages;
 * - the streamed events, in the documented order: `message_start` (the Message with empty content and the
 *   input usage), per block `content_block_start` / `content_block_delta` (`text_delta` with `text`,
 *   `input_json_delta` with `partial_json`, the tool's input as pieces of JSON text) / `content_block_stop`,
 *   `ping`, then `message_delta` (stop_reason and the cumulative usage) and `message_stop`: "Streaming
 *   Messages", https://docs.anthropic.com/en/docs/build-with-claude/streaming (its "Basic streaming
 *   request" and "Streaming request with tool use" examples);
 * - errors: `{"type": "error", "error": {"type": …, "message": …}}` with 401 authentication_error,
 *   429 rate_limit_error (with a retry-after header), 529 overloaded_error: "Errors",
 *   https://docs.anthropic.com/en/api/errors, and "Rate limits", https://docs.anthropic.com/en/api/rate-limits.
 *
 * - Claude's computer toolset and thinking: member `tool_use` blocks carry `toolset_name`; a reply's `thinking`
 *   blocks are streamed first (`thinking_delta`, then `signature_delta`), signed so the server can tell a block
 *   sent back altered, and what the real API refuses of both (a tool type the model does not take, a member result
 *   without its toolset_name, a thinking block missing or altered, forced tool use on Opus 5.5) is refused as
 *   fake-anthropic-contract.ts says, each rule with its page;
 * - prompt caching, when asked for (`startFakeAnthropicServer({ promptCache: {} })`): the usage of each reply
 *   reports the cache reads and writes its breakpoints would get, simulated in fake-anthropic-prompt-cache.ts
 *   from Anthropic's "Prompt caching" guide, and a request with more than four breakpoints is refused as the
 *   API refuses it.
 *
 *   const server = await startFakeAnthropicServer();
 *   server.script([{ type: 'error', status: 529 }, { type: 'answer', text: 'Hello' }]);
 *   … point an adapter at server.baseUrl …
 *   expect(server.requests).toHaveLength(2);
 *   await server.close();
 */
import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkContract, prefixOf, thinkingSignature, type ContractOptions, type IssuedThinking } from './fake-anthropic-contract.js';
import { FakePromptCache, type CacheUsage, type PromptCacheOptions } from './fake-anthropic-prompt-cache.js';

export interface FakeToolUse {
  id?: string;
  name: string;
  /** The input as JSON text, exactly as streamed (need not be valid: models get it wrong sometimes). */
  inputText: string;
  /** How many `input_json_delta` pieces the input is split into (default 3). */
  pieces?: number;
  /** A toolset member call's family (`computer` for Claude's computer toolset). */
  toolsetName?: string;
}

/** A thinking block of a reply: readable (`thinking`, possibly empty as when display is omitted) or redacted. */
export type FakeThinking = { thinking: string } | { redacted: string };

export interface FakeAnthropicUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadInputTokens?: number;
  cacheCreationInputTokens?: number;
}

export type FakeAnthropicReply =
  | {
      type: 'answer';
      /** Thinking blocks, streamed before the text and the tool uses. */
      thinking?: FakeThinking[];
      text?: string;
      toolUses?: FakeToolUse[];
      /** Default: `tool_use` when there are tool uses, else `end_turn`. */
      stopReason?: string;
      usage?: FakeAnthropicUsage;
      model?: string;
    }
  /** An error in Anthropic's shape; `retryAfter` (seconds) is sent as the retry-after header. */
  | { type: 'error'; status: number; errorType?: string; message?: string; retryAfter?: number }
  /** Streamed only: message_start, then silence until the client gives up (the stream-idle watchdog). */
  | { type: 'stall' }
  /** Streamed only: these events exactly (hostile shapes), then the connection ends. */
  | { type: 'events'; events: Array<Record<string, unknown>> };

export interface RecordedAnthropicRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
  /** The body as it arrived. */
  rawBody: string;
  /** With the prompt-cache simulation: the input usage the reply reported for this request. */
  cacheUsage?: CacheUsage;
}

/** A reply, or what decides it once the request is in (to answer with what the request holds). */
export type FakeAnthropicScriptEntry = FakeAnthropicReply | ((request: RecordedAnthropicRequest) => FakeAnthropicReply);

export interface FakeAnthropicServerOptions extends ContractOptions {
  /** Simulate Anthropic's prompt caching: each reply's usage reports the reads and writes its breakpoints get. */
  promptCache?: PromptCacheOptions;
}

export interface FakeAnthropicServer {
  /** Give to the client as its base URL (the client adds `/v1/messages`). */
  baseUrl: string;
  requests: RecordedAnthropicRequest[];
  script(replies: FakeAnthropicScriptEntry[]): void;
  /** Replies scripted but not yet used. */
  remaining(): number;
  /** The requests the contract refused (fake-anthropic-contract.ts), with the message each got. */
  refused: Array<{ request: RecordedAnthropicRequest; message: string }>;
  /** Thinking blocks a bound model's request carried but which the server dropped (prefix changed, drop_block set). */
  droppedThinking(): number;
  close(): Promise<void>;
}

const ERROR_TYPES: Readonly<Record<number, string>> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

export async function startFakeAnthropicServer(options: FakeAnthropicServerOptions = {}): Promise<FakeAnthropicServer> {
  const queue: FakeAnthropicScriptEntry[] = [];
  const requests: RecordedAnthropicRequest[] = [];
  const refused: Array<{ request: RecordedAnthropicRequest; message: string }> = [];
  const issuedThinking = new Map<string, IssuedThinking[]>();
  let droppedThinking = 0;
  const promptCache = options.promptCache === undefined ? undefined : new FakePromptCache(options.promptCache);
  const openResponses = new Set<ServerResponse>();
  const server = createServer((request, response) => {
    void handle(request, response);
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const text = await readBody(request);
    const body = (text === '' ? {} : JSON.parse(text)) as Record<string, unknown>;
    const recorded: RecordedAnthropicRequest = { path: request.url ?? '', headers: request.headers, body, rawBody: text };
    requests.push(recorded);
    if (request.method !== 'POST' || !(request.url ?? '').startsWith('/v1/messages')) {
      sendError(response, { type: 'error', status: 404, message: `No route ${request.method} ${request.url}` });
      return;
    }
    const verdict = checkContract(body, request.headers, issuedThinking, options);
    if (!verdict.ok) {
      refused.push({ request: recorded, message: verdict.message });
      sendError(response, { type: 'error', status: 400, message: verdict.message });
      return;
    }
    droppedThinking += verdict.droppedThinking;
    const cached = await promptCache?.use(body);
    if (cached !== undefined && !cached.ok) {
      sendError(response, { type: 'error', status: 400, message: cached.message });
      return;
    }
    if (cached !== undefined) recorded.cacheUsage = cached.usage;
    const entry = queue.shift() ?? { type: 'error', status: 500, message: 'The fake server has no scripted reply left.' };
    const scripted = typeof entry === 'function' ? entry(recorded) : entry;
    if (scripted.type === 'error') {
      sendError(response, scripted);
      return;
    }
    const usageReply = scripted.type === 'answer' && cached !== undefined ? withCacheUsage(scripted, cached.usage) : scripted;
    const reply = usageReply.type === 'answer' ? issued(usageReply, body, issuedThinking) : usageReply;
    const model = typeof body.model === 'string' ? body.model : 'claude-fake';
    if (body.stream !== true) {
      if (reply.type !== 'answer') throw new Error(`A ${reply.type} reply needs a streamed request.`);
      sendJson(response, 200, messageObject(reply, model, true));
      return;
    }
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': requestId() });
    openResponses.add(response);
    response.on('close', () => openResponses.delete(response));
    if (reply.type === 'stall') {
      writeEvent(response, { type: 'message_start', message: messageObject({ type: 'answer' }, model, false) });
      return;
    }
    const events = reply.type === 'events' ? reply.events : streamedEvents(reply, model);
    for (const event of events) writeEvent(response, event);
    response.end();
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    script: (replies) => queue.push(...replies),
    remaining: () => queue.length,
    refused,
    droppedThinking: () => droppedThinking,
    close: async () => {
      for (const response of openResponses) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A reply as the server gives it: every tool use with its id, and its thinking signed and kept against the first tool use's id. */
type IssuedReply = Extract<FakeAnthropicReply, { type: 'answer' }> & { signedThinking: IssuedThinking[] };

function issued(reply: Extract<FakeAnthropicReply, { type: 'answer' }>, body: Record<string, unknown>, issuedThinking: Map<string, IssuedThinking[]>): IssuedReply {
  const toolUses = (reply.toolUses ?? []).map((toolUse) => ({ ...toolUse, id: toolUseId(toolUse) }));
  // The block is bound to everything before the reply: the request's system, tools and messages.
  const prefix = prefixOf(body, ((body.messages as unknown[] | undefined) ?? []).length);
  const signedThinking: IssuedThinking[] = (reply.thinking ?? []).map((block) =>
    'redacted' in block
      ? { type: 'redacted_thinking', data: block.redacted }
      : { type: 'thinking', thinking: block.thinking, signature: thinkingSignature(block.thinking, prefix) },
  );
  const first = toolUses[0];
  if (first !== undefined && signedThinking.length > 0) issuedThinking.set(first.id, signedThinking);
  return { ...reply, toolUses, signedThinking };
}

/** The simulated input usage in place of the scripted one; the output count stays the reply's. */
function withCacheUsage(reply: Extract<FakeAnthropicReply, { type: 'answer' }>, usage: CacheUsage): Extract<FakeAnthropicReply, { type: 'answer' }> {
  return { ...reply, usage: { ...usage, outputTokens: reply.usage?.outputTokens ?? 12 } };
}

function requestId(): string {
  return `req_${randomBytes(12).toString('hex')}`;
}

function usageObject(usage: FakeAnthropicUsage | undefined, withOutput: boolean): Record<string, number> {
  const value = usage ?? { inputTokens: 120, outputTokens: 12 };
  return {
    input_tokens: value.inputTokens,
    cache_creation_input_tokens: value.cacheCreationInputTokens ?? 0,
    cache_read_input_tokens: value.cacheReadInputTokens ?? 0,
    output_tokens: withOutput ? value.outputTokens : 1,
  };
}

function stopReasonOf(reply: Extract<FakeAnthropicReply, { type: 'answer' }>): string {
  return reply.stopReason ?? ((reply.toolUses ?? []).length > 0 ? 'tool_use' : 'end_turn');
}

function toolUseId(toolUse: FakeToolUse): string {
  return toolUse.id ?? `toolu_${randomBytes(12).toString('hex')}`;
}

/** The Message object: whole for a plain reply, empty (content [], no stop reason yet) in message_start. */
function messageObject(reply: Extract<FakeAnthropicReply, { type: 'answer' }>, model: string, whole: boolean): Record<string, unknown> {
  const content: Array<Record<string, unknown>> = [];
  if (whole) {
    for (const block of signedOf(reply)) content.push({ ...block });
    if (reply.text !== undefined) content.push({ type: 'text', text: reply.text });
    for (const toolUse of reply.toolUses ?? []) {
      content.push({ type: 'tool_use', id: toolUseId(toolUse), name: toolUse.name, input: JSON.parse(toolUse.inputText) as unknown, ...toolsetField(toolUse) });
    }
  }
  return {
    id: `msg_${randomBytes(12).toString('hex')}`,
    type: 'message',
    role: 'assistant',
    model: reply.model ?? model,
    content,
    stop_reason: whole ? stopReasonOf(reply) : null,
    stop_sequence: null,
    usage: usageObject(reply.usage, whole),
  };
}

function streamedEvents(reply: Extract<FakeAnthropicReply, { type: 'answer' }>, model: string): Array<Record<string, unknown>> {
  const events: Array<Record<string, unknown>> = [{ type: 'message_start', message: messageObject(reply, model, false) }];
  let index = 0;
  for (const block of signedOf(reply)) {
    if (block.type === 'redacted_thinking') {
      events.push({ type: 'content_block_start', index, content_block: { type: 'redacted_thinking', data: block.data } });
    } else {
      events.push({ type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } });
      for (const piece of pieces(block.thinking ?? '', 2)) events.push({ type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: piece } });
      events.push({ type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: block.signature } });
    }
    events.push({ type: 'content_block_stop', index });
    index += 1;
  }
  if (reply.text !== undefined) {
    events.push({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
    events.push({ type: 'ping' });
    for (const piece of reply.text.split(/(?<= )/)) events.push({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } });
    events.push({ type: 'content_block_stop', index });
    index += 1;
  }
  for (const toolUse of reply.toolUses ?? []) {
    events.push({ type: 'content_block_start', index, content_block: { type: 'tool_use', id: toolUseId(toolUse), name: toolUse.name, input: {}, ...toolsetField(toolUse) } });
    for (const piece of pieces(toolUse.inputText, toolUse.pieces ?? 3)) {
      events.push({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: piece } });
    }
    events.push({ type: 'content_block_stop', index });
    index += 1;
  }
  const usage = usageObject(reply.usage, true);
  events.push({ type: 'message_delta', delta: { stop_reason: stopReasonOf(reply), stop_sequence: null }, usage: { output_tokens: usage.output_tokens } });
  events.push({ type: 'message_stop' });
  return events;
}

function signedOf(reply: Extract<FakeAnthropicReply, { type: 'answer' }>): IssuedThinking[] {
  return 'signedThinking' in reply ? (reply as IssuedReply).signedThinking : [];
}

function toolsetField(toolUse: FakeToolUse): Record<string, string> {
  return toolUse.toolsetName === undefined ? {} : { toolset_name: toolUse.toolsetName };
}

function pieces(text: string, count: number): string[] {
  if (text === '') return [];
  const size = Math.max(1, Math.ceil(text.length / count));
  const result: string[] = [];
  for (let start = 0; start < text.length; start += size) result.push(text.slice(start, start + size));
  return result;
}

function writeEvent(response: ServerResponse, event: Record<string, unknown>): void {
  const name = typeof event.type === 'string' ? event.type : 'message';
  response.write(`event: ${name}\ndata: ${JSON.stringify(event)}\n\n`);
}

function sendError(response: ServerResponse, reply: Extract<FakeAnthropicReply, { type: 'error' }>): void {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'request-id': requestId() };
  if (reply.retryAfter !== undefined) headers['retry-after'] = String(reply.retryAfter);
  // The client retries 529 and 429 itself; it honours retry-after, so tests keep it at 0.
  if (reply.status === 529 || reply.status === 429) headers['retry-after'] ??= '0';
  response.writeHead(reply.status, headers);
  response.end(
    JSON.stringify({
      type: 'error',
      error: { type: reply.errorType ?? ERROR_TYPES[reply.status] ?? 'api_error', message: reply.message ?? `Fake error ${reply.status}` },
    }),
  );
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json', 'request-id': requestId() });
  response.end(JSON.stringify(body));
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}
