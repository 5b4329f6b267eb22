/**
 * A fake OpenAI-compatible model server for tests: a real HTTP server on 127.0.0.1 that speaks
 * /v1/chat/completions and /v1/responses (streaming and not) in the real wire shapes, so the real
 * `openai` client runs against it unchanged. Each test scripts the replies, in order, and inspects every
 * request the server received.
 *
 *   const server = await startFakeOpenAiServer();
 *   server.script([{ type: 'error', status: 429 }, { type: 'answer', text: 'Hello' }]);
 *   … point an adapter at server.baseUrl …
 *   expect(server.requests).toHaveLength(2);
 *   await server.close();
 */
import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeToolCall {
  /** The call id the model gives; generated when absent. */
  id?: string;
  name: string;
  /** The complete arguments text (need not be valid JSON: models get it wrong sometimes). */
  arguments: string;
  /** How many pieces the streamed arguments are split into (default 3). */
  argumentPieces?: number;
  /**
   * Chat Completions, streamed: the whole call in one chunk (id, name and arguments together), the way
   * Ollama streams a tool call (github.com/ollama/ollama/issues/11633), instead of OpenAI's name-then-pieces.
   */
  wholeInOneChunk?: boolean;
  /** Chat Completions, streamed: no `index` on the call's chunks, as Ollama sent them before github.com/ollama/ollama/issues/7881. */
  withoutIndex?: boolean;
}

/**
 * A Responses output item other than text and function calls, replayed in the API's real shapes: a
 * reasoning item, or a computer call of OpenAI's computer tool. `raw` sends an item exactly as given (for
 * hostile shapes). Shapes: the Responses API reference (ResponseReasoningItem, ResponseComputerToolCall and
 * their streaming events, https://platform.openai.com/docs/api-reference/responses-streaming) as the
 * `openai` package types them, and the computer use guide's example output
 * (https://platform.openai.com/docs/guides/tools-computer-use).
 */
export type FakeResponsesItem =
  | {
      type: 'reasoning';
      id?: string;
      /** The reasoning summary's texts (streamed as summary parts). */
      summary?: string[];
      /** Sent when given, as with `include: ['reasoning.encrypted_content']`. */
      encryptedContent?: string;
    }
  | {
      type: 'computer_call';
      id?: string;
      callId?: string;
      /** One action (computer-use-preview), or the batched list (the GA computer tool). */
      action?: Record<string, unknown>;
      actions?: Array<Record<string, unknown>>;
      pendingSafetyChecks?: Array<{ id: string; code?: string; message?: string }>;
    }
  | { type: 'raw'; item: Record<string, unknown> };

export interface FakeUsage {
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens?: number;
}

export type FakeReply =
  | {
      type: 'answer';
      text?: string;
      /** The streamed text pieces; by default the text is split into words. */
      textPieces?: string[];
      toolCalls?: FakeToolCall[];
      /** Chat Completions only: send the tool calls' pieces interleaved (call 0, call 1, call 0, …). */
      interleaveToolCalls?: boolean;
      /**
       * Generated images (base64 PNG), in each API's real shape: Chat Completions as OpenRouter streams them
       * (`delta.images: [{type: 'image_url', image_url: {url: 'data:image/png;base64,…'}}]`, OpenRouter's
       * "Image Generation" guide), Responses as OpenAI's `image_generation_call` output item (OpenAI OpenAPI
       * spec, ImageGenToolCall: `{id, type: 'image_generation_call', status, result}` with `result` the base64).
       */
      images?: string[];
      /**
       * Chat Completions only: generated audio as OpenAI streams it with `modalities: ['text', 'audio']` and
       * `audio.format: 'pcm16'` (OpenAI OpenAPI spec, ChatCompletionStreamResponseDeltaAudio): chunks whose
       * `delta.audio` carries the id, base64 pieces of `data` and pieces of the `transcript`, then a last
       * update that holds only `expires_at`.
       */
      audio?: { data: string; transcript: string };
      /** Responses only: reasoning and computer call items, in order, before the message and function calls. */
      responsesItems?: FakeResponsesItem[];
      usage?: FakeUsage;
      /** Ends as if cut by max output tokens. */
      truncated?: boolean;
      /** Override the model name the server reports. */
      model?: string;
      /**
       * Chat Completions only: answer in the shape of another OpenAI-compatible server. `vllm` is vLLM's
       * (vllm/entrypoints/openai/protocol.py: ChatCompletionResponse and ChatCompletionStreamResponse): no
       * system_fingerprint or refusal, a `stop_reason` on each choice, `tool_calls: []` on a plain message,
       * usage without details — how vLLM serves UI-TARS and Qwen-VL.
       */
      server?: 'vllm';
    }
  | {
      type: 'error';
      status: number;
      message?: string;
      /** Extra response headers, e.g. `{ 'retry-after': '1' }`. */
      headers?: Record<string, string>;
    }
  /** Never answers: no headers, no body (for timeout tests). */
  | { type: 'hang' }
  /** Starts streaming text, then goes silent without ending (for cancellation and stall tests). */
  | { type: 'stall'; textPieces: string[] };

export interface RecordedRequest {
  method: string;
  /** e.g. `/v1/chat/completions`. */
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body (undefined when the body was not JSON). */
  body: unknown;
  rawBody: string;
  /** Resolves once the connection has ended: `finished` when the server ended it, `aborted` when the client went away. */
  closed: Promise<'finished' | 'aborted'>;
}

/** A reply decided from the request it answers. */
export type ScriptedReply = (request: RecordedRequest) => FakeReply | Promise<FakeReply>;

export interface FakeOpenAiServer {
  /** The base URL to configure, ending in `/v1`. */
  baseUrl: string;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /**
   * Adds replies to the queue; each request takes the next one. A function entry decides from the
   * request it answers (for replies that depend on what the agent sent), at once or after some work of
   * its own (a model that reads the screenshot it was sent decodes it first).
   */
  script(replies: Array<FakeReply | ScriptedReply>): void;
  /** Replies not yet used. */
  remainingReplies(): number;
  /**
   * Whether the server refuses what api.openai.com refuses today (openAiRefusal), before taking a scripted
   * reply: on, it stands for OpenAI's own API; off (the default), for a deployment elsewhere that still serves
   * computer-use-preview (an Azure OpenAI resource), which the older tests drive.
   */
  refuseAsOpenAi: boolean;
  close(): Promise<void>;
}

/**
 * By default 429 and 5xx replies say "retry after 10 ms", so retry tests stay fast; the `openai` client
 * reads this header before its own exponential backoff.
 */
const FAST_RETRY_HEADERS = { 'retry-after-ms': '10' };

export async function startFakeOpenAiServer(): Promise<FakeOpenAiServer> {
  const queue: Array<FakeReply | ScriptedReply> = [];
  const requests: RecordedRequest[] = [];
  const openResponses = new Set<ServerResponse>();
  const state = { refuseAsOpenAi: false };

  const server = createServer((request, response) => {
    openResponses.add(response);
    let markClosed: (how: 'finished' | 'aborted') => void = () => {};
    const closed = new Promise<'finished' | 'aborted'>((resolve) => (markClosed = resolve));
    response.on('close', () => {
      openResponses.delete(response);
      markClosed(response.writableFinished ? 'finished' : 'aborted');
    });
    void readBody(request).then(async (rawBody) => {
      const body = parseJson(rawBody);
      const recorded: RecordedRequest = { method: request.method ?? '', path: request.url ?? '', headers: request.headers, body, rawBody, closed };
      requests.push(recorded);
      const refusal = state.refuseAsOpenAi ? openAiRefusal(request.url ?? '', body) : undefined;
      if (refusal !== undefined) {
        sendJson(response, refusal.status, { error: refusal.error }, { 'x-should-retry': 'false' });
        return;
      }
      const next = queue.shift();
      let reply: FakeReply | undefined;
      try {
        reply = typeof next === 'function' ? await next(recorded) : next;
      } catch (error) {
        // A reply function that throws is the script's own fault: say so to the client, not as an unhandled rejection.
        sendError(response, 500, `The fake model server's scripted reply failed: ${error instanceof Error ? error.message : String(error)}`, { 'x-should-retry': 'false' });
        return;
      }
      if (reply === undefined) {
        sendError(response, 400, `The fake model server has no scripted reply left for request ${requests.length}.`, {
          'x-should-retry': 'false',
        });
        return;
      }
      route(request.url ?? '', body, reply, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    script: (replies) => queue.push(...replies),
    remainingReplies: () => queue.length,
    get refuseAsOpenAi() {
      return state.refuseAsOpenAi;
    },
    set refuseAsOpenAi(value: boolean) {
      state.refuseAsOpenAi = value;
    },
    close: async () => {
      for (const response of openResponses) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * What api.openai.com refuses of a Responses request today, in its error shape (`{error: {message, type,
 * param, code}}`, the API reference's "Error codes"):
 * - computer-use-preview: shut down on 2026-07-23 (OpenAI's deprecations page,
 *   https://developers.openai.com/api/docs/deprecations, which names gpt-5.4-mini as its substitute); a model
 *   the API no longer serves is answered 404 `model_not_found`.
 * - the preview tool (`computer_use_preview`) for a model trained for the GA tool: OpenAI's computer use guide
 *   (https://developers.openai.com/api/docs/guides/tools-computer-use, "Migration") has gpt-5.4 and later
 *   declare `{"type": "computer"}` instead; the exact wording of the API's 400 is not documented, so this one
 *   says what is wrong in the API's error shape, with `param: "tools"`.
 */
export function openAiRefusal(path: string, body: unknown): { status: number; error: Record<string, unknown> } | undefined {
  if (!path.startsWith('/v1/responses')) return undefined;
  const request = (body ?? {}) as { model?: unknown; tools?: unknown };
  const model = typeof request.model === 'string' ? request.model : '';
  if (/^computer-use-preview/.test(model)) {
    return {
      status: 404,
      error: { message: `The model \`${model}\` does not exist or you do not have access to it.`, type: 'invalid_request_error', param: null, code: 'model_not_found' },
    };
  }
  const tools = Array.isArray(request.tools) ? (request.tools as Array<{ type?: unknown }>) : [];
  if (tools.some((tool) => tool.type === 'computer_use_preview')) {
    return {
      status: 400,
      error: {
        message: `The tool 'computer_use_preview' is not supported with model '${model}'; use the 'computer' tool.`,
        type: 'invalid_request_error',
        param: 'tools',
        code: 'unsupported_value',
      },
    };
  }
  return undefined;
}

function route(path: string, body: unknown, reply: FakeReply, response: ServerResponse): void {
  if (reply.type === 'hang') return;
  if (reply.type === 'error') {
    const retryHeaders = reply.status === 429 || reply.status >= 500 ? FAST_RETRY_HEADERS : {};
    sendError(response, reply.status, reply.message ?? `Scripted error ${reply.status}`, {
      ...retryHeaders,
      ...reply.headers,
    });
    return;
  }
  const requestBody = (body ?? {}) as { model?: string; stream?: boolean; stream_options?: { include_usage?: boolean } };
  const model = (reply.type === 'answer' ? reply.model : undefined) ?? requestBody.model ?? 'fake-model';
  const answer: Extract<FakeReply, { type: 'answer' }> =
    reply.type === 'stall' ? { type: 'answer', textPieces: reply.textPieces } : reply;
  const stall = reply.type === 'stall';
  if (path.startsWith('/v1/chat/completions')) {
    const shaped = answer.server === 'vllm' ? asVllmChat : (body: object) => body;
    if (requestBody.stream === true) {
      const events = chatCompletionChunks(answer, model, requestBody.stream_options?.include_usage === true, stall);
      sendEvents(response, events.map((data) => ({ data: shaped(data) })), { doneMarker: '[DONE]', keepOpen: stall });
    } else {
      sendJson(response, 200, shaped(chatCompletion(answer, model)));
    }
    return;
  }
  if (path.startsWith('/v1/responses')) {
    if (requestBody.stream === true) {
      const events = responseStreamEvents(answer, model, stall);
      sendEvents(response, events.map((data) => ({ event: data.type as string, data })), { keepOpen: stall });
    } else {
      sendJson(response, 200, responseObject(answer, model, 'completed'));
    }
    return;
  }
  sendError(response, 404, `The fake model server does not serve ${path}.`, {});
}

// ---------------------------------------------------------------------------------------------------------
// Chat Completions

function chatCompletionChunks(
  answer: Extract<FakeReply, { type: 'answer' }>,
  model: string,
  includeUsage: boolean,
  stall: boolean,
): object[] {
  const id = `chatcmpl-${randomId()}`;
  const created = Math.floor(Date.now() / 1000);
  const chunk = (delta: object, finishReason: string | null = null) => ({
    id,
    object: 'chat.completion.chunk',
    created,
    model,
    system_fingerprint: 'fp_fake',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  });
  const chunks: object[] = [chunk({ role: 'assistant', content: '', refusal: null })];
  for (const piece of textPieces(answer)) chunks.push(chunk({ content: piece }));
  if (stall) return chunks;

  const calls = (answer.toolCalls ?? []).map((call, index) => ({ ...call, index, id: call.id ?? `call_${randomId()}` }));
  const pieceLists = calls.map((call) => {
    const index = call.withoutIndex === true ? {} : { index: call.index };
    if (call.wholeInOneChunk === true) {
      return [{ ...index, id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } }];
    }
    const first = { ...index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } };
    const rest = splitInto(call.arguments, call.argumentPieces ?? 3).map((piece) => ({
      ...index,
      function: { arguments: piece },
    }));
    return [first, ...rest];
  });
  const ordered = answer.interleaveToolCalls === true ? interleave(pieceLists) : pieceLists.flat();
  for (const piece of ordered) chunks.push(chunk({ tool_calls: [piece] }));
  for (const image of answer.images ?? []) {
    chunks.push(chunk({ images: [{ type: 'image_url', image_url: { url: `data:image/png;base64,${image}` } }] }));
  }
  if (answer.audio !== undefined) chunks.push(...audioDeltas(answer.audio).map((audio) => chunk({ audio })));
  chunks.push(chunk({}, chatFinishReason(answer)));
  if (includeUsage) chunks.push({ ...chunk({}), choices: [], usage: chatUsage(answer) });
  return chunks;
}

/** The `delta.audio` updates of a streamed audio answer: two pieces of data and transcript, then the expiry. */
function audioDeltas(audio: { data: string; transcript: string }): object[] {
  const id = `audio_${randomId()}`;
  // Each piece is whole base64 (a multiple of 4 characters), as OpenAI sends it.
  const split = Math.floor(audio.data.length / 8) * 4;
  const middle = Math.floor(audio.transcript.length / 2);
  return [
    { id, data: audio.data.slice(0, split), transcript: audio.transcript.slice(0, middle) },
    { id, data: audio.data.slice(split), transcript: audio.transcript.slice(middle) },
    { id, expires_at: Math.floor(Date.now() / 1000) + 3600 },
  ];
}

function chatCompletion(answer: Extract<FakeReply, { type: 'answer' }>, model: string): object {
  const toolCalls = (answer.toolCalls ?? []).map((call) => ({
    id: call.id ?? `call_${randomId()}`,
    type: 'function',
    function: { name: call.name, arguments: call.arguments },
  }));
  return {
    id: `chatcmpl-${randomId()}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    system_fingerprint: 'fp_fake',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: answer.text ?? null,
          refusal: null,
          annotations: [],
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
        },
        logprobs: null,
        finish_reason: chatFinishReason(answer),
      },
    ],
    usage: chatUsage(answer),
  };
}

function chatFinishReason(answer: Extract<FakeReply, { type: 'answer' }>): string {
  if (answer.truncated === true) return 'length';
  return (answer.toolCalls ?? []).length > 0 ? 'tool_calls' : 'stop';
}

function chatUsage(answer: Extract<FakeReply, { type: 'answer' }>): object {
  const usage = answer.usage ?? { inputTokens: 10, outputTokens: 5 };
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
    prompt_tokens_details: { cached_tokens: usage.cachedInputTokens ?? 0, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  };
}

/** A Chat Completions body (a completion or a chunk) as vLLM's OpenAI-compatible server writes it. */
function asVllmChat(body: object): object {
  const { system_fingerprint: _fingerprint, choices, usage, ...rest } = body as {
    system_fingerprint?: string;
    choices: Array<Record<string, unknown>>;
    usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
  };
  const vllmChoices = choices.map((choice) => {
    const { delta, message, ...choiceRest } = choice as { delta?: Record<string, unknown>; message?: Record<string, unknown> };
    const withoutRefusal = (part: Record<string, unknown>) => {
      const { refusal: _refusal, annotations: _annotations, ...kept } = part;
      return kept;
    };
    return {
      ...choiceRest,
      ...(delta !== undefined ? { delta: withoutRefusal(delta) } : {}),
      ...(message !== undefined ? { message: { tool_calls: [], ...withoutRefusal(message), reasoning_content: null } } : {}),
      stop_reason: null,
    };
  });
  const vllmUsage =
    usage === undefined
      ? {}
      : { usage: { prompt_tokens: usage.prompt_tokens, total_tokens: usage.total_tokens, completion_tokens: usage.completion_tokens, prompt_tokens_details: null } };
  return { ...rest, choices: vllmChoices, ...vllmUsage };
}

// ---------------------------------------------------------------------------------------------------------
// Responses

function responseStreamEvents(answer: Extract<FakeReply, { type: 'answer' }>, model: string, stall: boolean): Array<Record<string, unknown>> {
  const events: Array<Record<string, unknown>> = [];
  const response = responseObject(answer, model, 'in_progress');
  events.push({ type: 'response.created', response: { ...response, output: [], usage: null } });
  events.push({ type: 'response.in_progress', response: { ...response, output: [], usage: null } });
  const finished = responseObject(answer, model, answer.truncated === true ? 'incomplete' : 'completed');
  const items = finished.output as Array<Record<string, unknown>>;

  items.forEach((item, outputIndex) => {
    const itemId = item.id as string;
    if (item.type === 'message') {
      events.push({
        type: 'response.output_item.added',
        output_index: outputIndex,
        item: { ...item, status: 'in_progress', content: [] },
      });
      const emptyPart = { type: 'output_text', text: '', annotations: [], logprobs: [] };
      events.push({ type: 'response.content_part.added', item_id: itemId, output_index: outputIndex, content_index: 0, part: emptyPart });
      for (const delta of textPieces(answer)) {
        events.push({ type: 'response.output_text.delta', item_id: itemId, output_index: outputIndex, content_index: 0, delta, logprobs: [] });
      }
      if (stall) return;
      const text = answer.text ?? textPieces(answer).join('');
      events.push({ type: 'response.output_text.done', item_id: itemId, output_index: outputIndex, content_index: 0, text, logprobs: [] });
      events.push({
        type: 'response.content_part.done',
        item_id: itemId,
        output_index: outputIndex,
        content_index: 0,
        part: { ...emptyPart, text },
      });
      events.push({ type: 'response.output_item.done', output_index: outputIndex, item });
    } else if (item.type === 'function_call') {
      if (stall) return;
      events.push({ type: 'response.output_item.added', output_index: outputIndex, item: { ...item, status: 'in_progress', arguments: '' } });
      const call = (answer.toolCalls ?? []).find((candidate) => candidate.name === item.name && candidate.arguments === item.arguments);
      for (const delta of splitInto(item.arguments as string, call?.argumentPieces ?? 3)) {
        events.push({ type: 'response.function_call_arguments.delta', item_id: itemId, output_index: outputIndex, delta });
      }
      events.push({
        type: 'response.function_call_arguments.done',
        item_id: itemId,
        output_index: outputIndex,
        name: item.name,
        arguments: item.arguments,
      });
      events.push({ type: 'response.output_item.done', output_index: outputIndex, item });
    } else if (item.type === 'reasoning') {
      if (stall) return;
      events.push(...reasoningEvents(item, outputIndex));
    } else if (item.type === 'image_generation_call') {
      if (stall) return;
      events.push({ type: 'response.output_item.added', output_index: outputIndex, item: { ...item, status: 'in_progress', result: null } });
      events.push({ type: 'response.output_item.done', output_index: outputIndex, item });
    } else {
      // A computer call (or a raw item) arrives whole: added while in progress, then done.
      if (stall) return;
      events.push({ type: 'response.output_item.added', output_index: outputIndex, item: { ...item, status: 'in_progress' } });
      events.push({ type: 'response.output_item.done', output_index: outputIndex, item });
    }
  });
  if (stall) return numbered(events);
  events.push({ type: answer.truncated === true ? 'response.incomplete' : 'response.completed', response: finished });
  return numbered(events);
}

function responseObject(
  answer: Extract<FakeReply, { type: 'answer' }>,
  model: string,
  status: 'in_progress' | 'completed' | 'incomplete',
): Record<string, unknown> {
  const output: Array<Record<string, unknown>> = (answer.responsesItems ?? []).map(responsesItem);
  const text = answer.text ?? (answer.textPieces ?? []).join('');
  if (text !== '') {
    output.push({
      id: `msg_${randomId()}`,
      type: 'message',
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text, annotations: [], logprobs: [] }],
    });
  }
  for (const call of answer.toolCalls ?? []) {
    output.push({
      id: `fc_${randomId()}`,
      type: 'function_call',
      status: 'completed',
      call_id: call.id ?? `call_${randomId()}`,
      name: call.name,
      arguments: call.arguments,
    });
  }
  for (const image of answer.images ?? []) {
    output.push({ id: `ig_${randomId()}`, type: 'image_generation_call', status: 'completed', result: image });
  }
  const usage = answer.usage ?? { inputTokens: 10, outputTokens: 5 };
  return {
    id: `resp_${randomId()}`,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status,
    error: null,
    incomplete_details: status === 'incomplete' ? { reason: 'max_output_tokens' } : null,
    instructions: null,
    max_output_tokens: null,
    model,
    output,
    parallel_tool_calls: true,
    previous_response_id: null,
    store: false,
    temperature: 1,
    text: { format: { type: 'text' } },
    tool_choice: 'auto',
    tools: [],
    top_p: 1,
    truncation: 'disabled',
    metadata: {},
    usage:
      status === 'in_progress'
        ? null
        : {
            input_tokens: usage.inputTokens,
            input_tokens_details: { cached_tokens: usage.cachedInputTokens ?? 0 },
            output_tokens: usage.outputTokens,
            output_tokens_details: { reasoning_tokens: 0 },
            total_tokens: usage.inputTokens + usage.outputTokens,
          },
  };
}

/** A reasoning or computer call item in the API's output shape. */
function responsesItem(item: FakeResponsesItem): Record<string, unknown> {
  switch (item.type) {
    case 'raw':
      return item.item;
    case 'reasoning':
      return {
        id: item.id ?? `rs_${randomId()}`,
        type: 'reasoning',
        summary: (item.summary ?? []).map((text) => ({ type: 'summary_text', text })),
        ...(item.encryptedContent === undefined ? {} : { encrypted_content: item.encryptedContent }),
      };
    case 'computer_call':
      return {
        id: item.id ?? `cu_${randomId()}`,
        type: 'computer_call',
        call_id: item.callId ?? `call_${randomId()}`,
        ...(item.action === undefined ? {} : { action: item.action }),
        ...(item.actions === undefined ? {} : { actions: item.actions }),
        pending_safety_checks: item.pendingSafetyChecks ?? [],
        status: 'completed',
      };
  }
}

/** A reasoning item streamed as the API does: added empty, each summary part added, its text streamed, done. */
function reasoningEvents(item: Record<string, unknown>, outputIndex: number): Array<Record<string, unknown>> {
  const itemId = item.id as string;
  const summary = (item.summary ?? []) as Array<{ type: string; text: string }>;
  const events: Array<Record<string, unknown>> = [
    { type: 'response.output_item.added', output_index: outputIndex, item: { ...item, summary: [] } },
  ];
  summary.forEach((part, summaryIndex) => {
    const at = { item_id: itemId, output_index: outputIndex, summary_index: summaryIndex };
    events.push({ type: 'response.reasoning_summary_part.added', ...at, part: { type: 'summary_text', text: '' } });
    events.push({ type: 'response.reasoning_summary_text.delta', ...at, delta: part.text });
    events.push({ type: 'response.reasoning_summary_text.done', ...at, text: part.text });
    events.push({ type: 'response.reasoning_summary_part.done', ...at, part });
  });
  events.push({ type: 'response.output_item.done', output_index: outputIndex, item });
  return events;
}

function numbered(events: Array<Record<string, unknown>>): Array<Record<string, unknown>> {
  return events.map((event, index) => ({ ...event, sequence_number: index }));
}

// ---------------------------------------------------------------------------------------------------------
// HTTP plumbing

/** Writes server-sent events; a stalled stream (`keepOpen`) stays open until the client gives up or the server closes. */
function sendEvents(
  response: ServerResponse,
  events: Array<{ event?: string; data: object }>,
  ending: { doneMarker?: string; keepOpen: boolean },
): void {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  for (const { event, data } of events) {
    response.write(`${event !== undefined ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`);
  }
  if (ending.keepOpen) return;
  if (ending.doneMarker !== undefined) response.write(`data: ${ending.doneMarker}\n\n`);
  response.end();
}

function sendJson(response: ServerResponse, status: number, body: object, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

function sendError(response: ServerResponse, status: number, message: string, headers: Record<string, string>): void {
  const type = status === 429 ? 'rate_limit_exceeded' : status >= 500 ? 'server_error' : 'invalid_request_error';
  sendJson(response, status, { error: { message, type, param: null, code: type } }, headers);
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function textPieces(answer: Extract<FakeReply, { type: 'answer' }>): string[] {
  if (answer.textPieces !== undefined) return answer.textPieces;
  if (answer.text === undefined || answer.text === '') return [];
  return answer.text.match(/\S+\s*|\s+/g) ?? [answer.text];
}

function splitInto(text: string, pieces: number): string[] {
  if (text === '') return [];
  const size = Math.max(1, Math.ceil(text.length / Math.max(1, pieces)));
  const result: string[] = [];
  for (let start = 0; start < text.length; start += size) result.push(text.slice(start, start + size));
  return result;
}

function interleave<T>(lists: T[][]): T[] {
  const result: T[] = [];
  const longest = Math.max(0, ...lists.map((list) => list.length));
  for (let position = 0; position < longest; position += 1) {
    for (const list of lists) {
      const item = list[position];
      if (item !== undefined) result.push(item);
    }
  }
  return result;
}

function randomId(): string {
  return randomBytes(8).toString('hex');
}
