/**
 * The Gemini API adapter (https://ai.google.dev/api/generate-content), through the official `@google/genai`
 * client: `models.generateContentStream` (`:streamGenerateContent?alt=sse`) by default, or the plain
 * `models.generateContent`, sharing the other adapters' call (capability check, cancellation, idle watchdog,
 * error translation: model-call.ts).
 *
 * Retries are the client's (`httpOptions.retryOptions`: 408, 429 and 5xx, with exponential backoff), plus two
 * things its retry leaves out, done in the fetch it is given: a connection that fails (Node's fetch throws a
 * TypeError, which the client's retry gives up on) and a server silent past model.timeoutMs before its first
 * byte are retried too, as the other providers' clients do. Once the answer streams, the idle watchdog bounds
 * each silence; the client's own timeout is not used, since it would bound the whole streamed answer.
 *
 * A reply the API ends with MALFORMED_FUNCTION_CALL is asked for once more; a second one comes back as a call
 * marked invalid (MALFORMED_FUNCTION_CALL_NAME), which the agent answers and counts as malformed. Any other
 * reply that holds neither a call nor text, or that the API ended for SAFETY, RECITATION, OTHER and the like
 * before a call, is a model error (gemini-reply.ts, unreadableReplyReason): the turn fails, never finishes.
 */
import type { GenerateContentConfig, GenerateContentParameters, GenerateContentResponse, GoogleGenAI } from '@google/genai';
import { FunctionCallingConfigMode } from '@google/genai';
import { MALFORMED_FUNCTION_CALL_NAME, toGeminiConversation } from './gemini-contents.js';
import { GeminiReplyAssembler, unreadableReplyReason, type AssembledGeminiReply } from './gemini-reply.js';
import { toGeminiTools } from './gemini-tools.js';
import type { CompleteOptions, CompletedAssistantMessage, ModelAdapter, ModelRequest } from './model-adapter.js';
import type { CallSettings } from './model-call.js';
import { runStreamedCall } from './model-call.js';
import { ModelCallError } from './model-errors.js';
import type { ModelProfile } from './model-profiles.js';

export interface GeminiAdapterSettings extends CallSettings {
  client: GoogleGenAI;
  /** Streamed (the default) or one plain generateContent call per request. */
  stream?: boolean;
}

export class GeminiAdapter implements ModelAdapter {
  constructor(private readonly settings: GeminiAdapterSettings) {}

  get profile(): ModelProfile {
    return this.settings.profile;
  }

  async complete(request: ModelRequest, options: CompleteOptions = {}): Promise<CompletedAssistantMessage> {
    const first = await this.call(request, options);
    if (!isMalformedCall(first)) return this.readable(first);
    const second = await this.call(request, options);
    if (!isMalformedCall(second)) return this.readable(second);
    const why = second.finishMessage ?? 'the API could not read the function call the model wrote';
    return {
      ...second.message,
      toolCalls: [{ id: `gemini_malformed_${Date.now().toString(16)}`, name: MALFORMED_FUNCTION_CALL_NAME, argumentsText: '{}', invalid: `MALFORMED_FUNCTION_CALL: ${why}` }],
    };
  }

  /**
   * The reply's message, when it is one: a reply with neither a call nor text (or ended for SAFETY and the
   * like) would end the turn as finished with nothing done, so it is a model error that names what was wrong.
   */
  private readable(reply: AssembledGeminiReply): CompletedAssistantMessage {
    const why = unreadableReplyReason(reply);
    if (why === undefined) return reply.message;
    throw new ModelCallError(`The Gemini API's reply for model "${this.profile.model}" cannot be read: ${why}.`, { retryable: false });
  }

  private async call(request: ModelRequest, options: CompleteOptions): Promise<AssembledGeminiReply> {
    const assembler = new GeminiReplyAssembler(this.profile.model, options.onEvent);
    const { client } = this.settings;
    const reply = await runStreamedCall(this.settings, request, options, {
      buildBody: () => geminiRequestBody(request, this.profile),
      open: async (body, signal) => {
        const controller = new AbortController();
        if (signal !== undefined) {
          if (signal.aborted) controller.abort(signal.reason);
          else signal.addEventListener('abort', () => controller.abort(signal.reason), { once: true });
        }
        const params = { ...body, config: { ...body.config, abortSignal: controller.signal } };
        const chunks: AsyncIterable<GenerateContentResponse> =
          this.settings.stream === false ? oneChunk(await client.models.generateContent(params)) : await client.models.generateContentStream(params);
        return { controller, [Symbol.asyncIterator]: () => chunks[Symbol.asyncIterator]() };
      },
      consume: (chunk: GenerateContentResponse) => assembler.add(chunk),
      finish: () => assembler.finish(),
    });
    if (reply.blockReason !== undefined && reply.message.toolCalls.length === 0 && reply.message.parts.length === 0) {
      throw new ModelCallError(
        `The Gemini API refused the request for model "${this.profile.model}" (blockReason ${reply.blockReason}).`,
        { retryable: false },
      );
    }
    return reply;
  }
}

function isMalformedCall(reply: AssembledGeminiReply): boolean {
  return reply.geminiFinishReason === 'MALFORMED_FUNCTION_CALL' && reply.message.toolCalls.length === 0;
}

async function* oneChunk(response: GenerateContentResponse): AsyncGenerator<GenerateContentResponse> {
  yield response;
}

/** Models that read media inside a function response: Gemini 3 and the computer-use models. */
export function takesMediaInFunctionResponses(model: string): boolean {
  return /gemini-([3-9]|\d{2,})|computer-use/i.test(model);
}

/** The request, built (and refused, for what the API cannot carry) before anything is sent. */
export function geminiRequestBody(request: ModelRequest, profile: Pick<ModelProfile, 'model'>): GenerateContentParameters & { config: GenerateContentConfig } {
  const conversation = toGeminiConversation(request.messages, { mediaInFunctionResponses: takesMediaInFunctionResponses(profile.model) });
  const tools = toGeminiTools(request.tools ?? []);
  const config: GenerateContentConfig = {
    // Sightline runs every call itself, and asks for one answer per request.
    automaticFunctionCalling: { disable: true },
    automaticContinuation: false,
    candidateCount: 1,
  };
  if (conversation.systemInstruction !== undefined) config.systemInstruction = conversation.systemInstruction;
  if (tools.length > 0) {
    config.tools = tools;
    const hasFunctions = tools.some((tool) => tool.functionDeclarations !== undefined);
    if (hasFunctions && request.toolChoice !== undefined && request.toolChoice !== 'auto') {
      config.toolConfig = { functionCallingConfig: { mode: request.toolChoice === 'required' ? FunctionCallingConfigMode.ANY : FunctionCallingConfigMode.NONE } };
    }
  }
  if (request.maxOutputTokens !== undefined) config.maxOutputTokens = request.maxOutputTokens;
  if (request.temperature !== undefined) config.temperature = request.temperature;
  return { model: profile.model, contents: conversation.contents, config };
}
