/**
 * A fake Gemini API server for tests: a real HTTP server on 127.0.0.1 that speaks
 * POST /v1beta/models/{model}:generateContent and :streamGenerateContent?alt=sse in the API's published shapes,
 * so the real `@google/genai` client runs against it unchanged. Each test scripts the replies, in order, and
 * inspects every request (body and headers) the server received.
 *
 * Shapes, from Google's documentation and reference agent:
 * - GenerateContentResponse: `candidates[0].content` (role "model", `parts` of `text`, `functionCall {name, args,
 *   id}`, each part optionally with a `thoughtSignature`), `finishReason` (STOP, MAX_TOKENS,
 *   MALFORMED_FUNCTION_CALL, …), `usageMetadata` (promptTokenCount, candidatesTokenCount, thoughtsTokenCount,
 *   cachedContentTokenCount, totalTokenCount), `modelVersion`: https://ai.google.dev/api/generate-content;
 * - streaming: Server-Sent Events, one `data: <GenerateContentResponse JSON>` per chunk, text arriving in pieces,
 *   usage on the last: https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent;
 * - computer use: the model's functionCall parts name Google's predefined functions with their args (click_at
 *   {x, y} on the 0–999 grid, type_text_at {x, y, text, press_enter}, key_combination {keys}, a
 *   `safety_decision {decision: "require_confirmation", explanation}` among the args), and the client answers each
 *   with a `functionResponse {name, response: {url, …, safety_acknowledgement}, parts: [{inlineData}]}`:
 *   https://ai.google.dev/gemini-api/docs/computer-use and google-gemini/computer-use-preview (agent.py);
 * - the safety decision: the guide's "Safety decision" section classes an action as "Regular / allowed" (which
 *   may also be shown by no `safety_decision` at all) or "Requires confirmation" (`require_confirmation`), and the
 *   reference agent's `_get_safety_confirmation` raises on any other decision rather than running the action
 *   (https://ai.google.dev/gemini-api/docs/computer-use). Tests script the other spellings on purpose;
 * - a reply may carry no candidates (a blocked prompt: `promptFeedback.blockReason`), a candidate without
 *   content, or a finishReason of SAFETY, RECITATION, MALFORMED_FUNCTION_CALL or OTHER with no parts
 *   (https://ai.google.dev/api/generate-content#FinishReason): `{type: 'chunks'}` scripts such replies as written;
 * - thought signatures must come back on the function-call parts they were given on, else the API answers 400:
 *   https://ai.google.dev/gemini-api/docs/thought-signatures;
 * - Gemini 3.5 Flash's streamlined functions (click, type, press_key, hotkey, …) each carry an `intent`: "actions
 *   include an intent field that explains the model's reasoning behind each step", and its computerUse takes
 *   ENVIRONMENT_BROWSER (or mobile, desktop): https://ai.google.dev/gemini-api/docs/generate-content/computer-use,
 *   read 2026-11-28. That page, as far as it could be read, does not say the API refuses a 2.5 function name
 *   from a 3.5 model (the model names its calls itself), so the fake refuses none either: tests script calls;
 * - a computer-use model (its name says so) asked without the computerUse tool answers 400, as the API does;
 * - errors: `{"error": {"code", "message", "status"}}` with the HTTP status (429 RESOURCE_EXHAUSTED,
 *   503 UNAVAILABLE, 400 INVALID_ARGUMENT): https://ai.google.dev/gemini-api/docs/troubleshooting.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeGeminiCall {
  name: string;
  args: Record<string, unknown>;
  /** Gemini 3 names its calls; Gemini 2.5 does not. */
  id?: string;
  thoughtSignature?: string;
}

export interface FakeGeminiUsage {
  promptTokenCount: number;
  candidatesTokenCount: number;
  thoughtsTokenCount?: number;
  cachedContentTokenCount?: number;
}

export type FakeGeminiReply =
  | {
      type: 'answer';
      text?: string;
      calls?: FakeGeminiCall[];
      /** Default STOP. */
      finishReason?: string;
      finishMessage?: string;
      usage?: FakeGeminiUsage;
      /** A thought signature on the text part. */
      textSignature?: string;
    }
  | { type: 'error'; status: number; message?: string }
  /** Streamed only: these chunks exactly (hostile shapes), then the connection ends. */
  | { type: 'chunks'; chunks: unknown[] };

export interface RecordedGeminiRequest {
  path: string;
  /** The model named in the path. */
  model: string;
  stream: boolean;
  headers: IncomingHttpHeaders;
  body: GeminiRequestBody;
  rawBody: string;
}

export interface GeminiPart {
  text?: string;
  thoughtSignature?: string;
  inlineData?: { mimeType: string; data: string };
  functionCall?: { name: string; args?: Record<string, unknown>; id?: string };
  functionResponse?: { name: string; id?: string; response?: Record<string, unknown>; parts?: Array<{ inlineData?: { mimeType: string; data: string } }> };
}

export interface GeminiRequestBody {
  contents: Array<{ role?: string; parts: GeminiPart[] }>;
  systemInstruction?: { parts: GeminiPart[] };
  tools?: Array<Record<string, unknown>>;
  toolConfig?: unknown;
  generationConfig?: Record<string, unknown>;
}

/** Every part of every content a request sent, in order. */
export const partsOf = (request: RecordedGeminiRequest): GeminiPart[] => request.body.contents.flatMap((content) => content.parts);

/**
 * A point of a 1280x800 page on Gemini's 0–999 grid: the grid value whose pixel (floor) is the point's, so a
 * scripted call lands exactly where the test's layout says.
 */
export function grid(point: { x: number; y: number }): { x: number; y: number } {
  return { x: Math.ceil((point.x * 1000) / 1280), y: Math.ceil((point.y * 1000) / 800) };
}

export type FakeGeminiScript = Array<FakeGeminiReply | ((request: RecordedGeminiRequest) => FakeGeminiReply)>;

export interface FakeGeminiServer {
  /** Pass as model.baseUrl: the client adds /v1beta/models/… itself. */
  baseUrl: string;
  requests: RecordedGeminiRequest[];
  script(replies: FakeGeminiScript): void;
  close(): Promise<void>;
}

const STATUS_NAMES: Record<number, string> = { 400: 'INVALID_ARGUMENT', 401: 'UNAUTHENTICATED', 403: 'PERMISSION_DENIED', 404: 'NOT_FOUND', 429: 'RESOURCE_EXHAUSTED', 500: 'INTERNAL', 503: 'UNAVAILABLE' };

export async function startFakeGeminiServer(options: { apiKey?: string } = {}): Promise<FakeGeminiServer> {
  const requests: RecordedGeminiRequest[] = [];
  let queue: FakeGeminiScript = [];
  /** Signatures given on calls, by the call's id: they must come back on the same call. */
  const signatures = new Map<string, string>();

  const server = createServer((request, response) => {
    void handle(request, response).catch((error: unknown) => {
      response.statusCode = 500;
      response.end(JSON.stringify({ error: { code: 500, message: String(error), status: 'INTERNAL' } }));
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const match = /^\/v1beta\/models\/([^:]+):(generateContent|streamGenerateContent)$/.exec(url.pathname);
    const rawBody = await readBody(request);
    if (request.method !== 'POST' || match === null) return sendError(response, 404, `No route ${request.method} ${url.pathname}`);
    const stream = match[2] === 'streamGenerateContent';
    if (stream && url.searchParams.get('alt') !== 'sse') return sendError(response, 400, 'streamGenerateContent is served as alt=sse here');
    const body = JSON.parse(rawBody) as GeminiRequestBody;
    const recorded: RecordedGeminiRequest = { path: url.pathname, model: decodeURIComponent(match[1]!), stream, headers: request.headers, body, rawBody };
    requests.push(recorded);
    if (options.apiKey !== undefined && request.headers['x-goog-api-key'] !== options.apiKey) {
      return sendError(response, 400, 'API key not valid. Please pass a valid API key.');
    }
    // The computer-use models refuse any request without the tool (seen answered by the API: "400 This model
    // requires the use of the Computer Use tool.", langchain-ai/langchain-google#1243, browseros-ai/BrowserOS#148).
    if (/computer-use/.test(recorded.model) && !(body.tools ?? []).some((tool) => tool.computerUse !== undefined)) {
      return sendError(response, 400, 'This model requires the use of the Computer Use tool.');
    }
    const missing = missingSignature(body, signatures);
    if (missing !== undefined) return sendError(response, 400, `Function call is missing a thought_signature in functionCall parts: ${missing}`);
    const next = queue.shift();
    if (next === undefined) return sendError(response, 500, `The fake Gemini server has no scripted reply for request ${requests.length}.`);
    const reply = typeof next === 'function' ? next(recorded) : next;
    if (reply.type === 'error') return sendError(response, reply.status, reply.message ?? STATUS_NAMES[reply.status] ?? 'error');
    if (reply.type === 'chunks') {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const chunk of reply.chunks) response.write(`data: ${JSON.stringify(chunk)}\r\n\r\n`);
      response.end();
      return;
    }
    for (const call of reply.calls ?? []) if (call.id !== undefined && call.thoughtSignature !== undefined) signatures.set(call.id, call.thoughtSignature);
    const chunks = replyChunks(reply, recorded.model, stream);
    if (!stream) {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(chunks[0]));
      return;
    }
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    for (const chunk of chunks) response.write(`data: ${JSON.stringify(chunk)}\r\n\r\n`);
    response.end();
  }

  await new Promise<void>((resolveListen) => server.listen(0, '127.0.0.1', resolveListen));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    script: (replies) => {
      queue = [...replies];
    },
    close: () =>
      new Promise<void>((resolveClose) => {
        server.closeAllConnections();
        server.close(() => resolveClose());
      }),
  };
}

/** The reply as one GenerateContentResponse (plain) or as chunks: the text in two pieces, calls and usage last. */
function replyChunks(reply: Extract<FakeGeminiReply, { type: 'answer' }>, model: string, stream: boolean): unknown[] {
  const usage = reply.usage ?? { promptTokenCount: 1200, candidatesTokenCount: 30 };
  const usageMetadata = { ...usage, totalTokenCount: usage.promptTokenCount + usage.candidatesTokenCount + (usage.thoughtsTokenCount ?? 0) };
  const callParts = (reply.calls ?? []).map((call) => ({
    functionCall: { name: call.name, args: call.args, ...(call.id === undefined ? {} : { id: call.id }) },
    ...(call.thoughtSignature === undefined ? {} : { thoughtSignature: call.thoughtSignature }),
  }));
  const text = reply.text ?? '';
  const signed = reply.textSignature === undefined ? {} : { thoughtSignature: reply.textSignature };
  const finish = { finishReason: reply.finishReason ?? 'STOP', ...(reply.finishMessage === undefined ? {} : { finishMessage: reply.finishMessage }) };
  const candidate = (parts: unknown[], last: boolean) => ({ content: { role: 'model', parts }, index: 0, ...(last ? finish : {}) });
  if (!stream) {
    const parts = [...(text === '' ? [] : [{ text, ...signed }]), ...callParts];
    return [{ candidates: [candidate(parts, true)], usageMetadata, modelVersion: model }];
  }
  const half = Math.ceil(text.length / 2);
  const chunks: unknown[] = [];
  if (text !== '') {
    chunks.push({ candidates: [candidate([{ text: text.slice(0, half) }], false)], modelVersion: model });
    chunks.push({ candidates: [candidate([{ text: text.slice(half), ...signed }], false)], modelVersion: model });
  }
  chunks.push({ candidates: [candidate(callParts, true)], usageMetadata, modelVersion: model });
  return chunks;
}

/** The id of a call whose signature did not come back with it, if any. */
function missingSignature(body: GeminiRequestBody, signatures: ReadonlyMap<string, string>): string | undefined {
  for (const content of body.contents ?? []) {
    if (content.role !== 'model') continue;
    for (const part of content.parts ?? []) {
      const id = part.functionCall?.id;
      if (id === undefined) continue;
      const expected = signatures.get(id);
      if (expected !== undefined && part.thoughtSignature !== expected) return id;
    }
  }
  return undefined;
}

function sendError(response: ServerResponse, status: number, message: string): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ error: { code: status, message, status: STATUS_NAMES[status] ?? 'UNKNOWN' } }));
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
