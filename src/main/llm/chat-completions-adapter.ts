/**
 * The Chat Completions adapter: the API every OpenAI-compatible server speaks (OpenAI, OpenRouter,
 * Ollama, vLLM, LM Studio). Always streams, so text reaches the live timeline as it is written.
 */
import { randomUUID } from 'node:crypto';
import type {
  ChatCompletionChunk,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import type { AudioPart, ImagePart, MessagePart, ToolCall } from '../../shared/messages.js';
import type { FinishReason, TokenUsage } from '../../shared/token-usage.js';
import { toChatCompletionsMessages } from './chat-completions-messages.js';
import type {
  CompleteOptions,
  CompletedAssistantMessage,
  ModelAdapter,
  ModelRequest,
  ModelStreamEvent,
} from './model-adapter.js';
import type { AdapterSettings } from './model-call.js';
import { runStreamedCall } from './model-call.js';
import { unsendableNativeTool } from './model-errors.js';
import type { ModelProfile } from './model-profiles.js';

export class ChatCompletionsAdapter implements ModelAdapter {
  constructor(private readonly settings: AdapterSettings) {}

  get profile(): ModelProfile {
    return this.settings.profile;
  }

  complete(request: ModelRequest, options: CompleteOptions = {}): Promise<CompletedAssistantMessage> {
    const assembler = new ChatCompletionsStreamAssembler(this.profile.model, options.onEvent);
    return runStreamedCall(this.settings, request, options, {
      buildBody: () => chatCompletionsBody(request, this.settings),
      open: (body, signal) => this.settings.client.chat.completions.create(body, { signal }),
      consume: (chunk: ChatCompletionChunk) => assembler.add(chunk),
      finish: () => assembler.finish(),
    });
  }
}

export function chatCompletionsBody(
  request: ModelRequest,
  settings: Pick<AdapterSettings, 'profile' | 'baseUrl'>,
): ChatCompletionCreateParamsStreaming {
  const { profile } = settings;
  const body: ChatCompletionCreateParamsStreaming = {
    model: profile.model,
    messages: toChatCompletionsMessages(request.messages),
    stream: true,
    stream_options: { include_usage: true },
  };
  if (request.tools !== undefined && request.tools.length > 0) {
    body.tools = request.tools.map((tool): ChatCompletionTool => {
      // A provider's own tool has no function form: sending it as one would give the model a tool it was not trained on.
      if (tool.native !== undefined) throw unsendableNativeTool(tool.name, tool.native, 'Chat Completions');
      return { type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.parameters } };
    });
    if (request.toolChoice !== undefined) body.tool_choice = request.toolChoice;
  }
  if (request.maxOutputTokens !== undefined) {
    // OpenAI's reasoning models refuse max_tokens; many compatible servers know only max_tokens.
    if (isOpenAiEndpoint(settings.baseUrl)) body.max_completion_tokens = request.maxOutputTokens;
    else body.max_tokens = request.maxOutputTokens;
  }
  if (request.temperature !== undefined) body.temperature = request.temperature;
  const outputs = profile.modalities.output;
  if (outputs.includes('audio')) {
    body.modalities = ['text', 'audio'];
    // Streamed audio must be raw 16-bit PCM.
    body.audio = { voice: 'alloy', format: 'pcm16' };
  } else if (outputs.includes('image')) {
    // OpenRouter's form for image output; its images arrive as `delta.images`.
    (body as { modalities?: string[] }).modalities = ['image', 'text'];
  }
  return body;
}

function isOpenAiEndpoint(baseUrl: string): boolean {
  return new URL(baseUrl).hostname === 'api.openai.com';
}

/** Fields some providers add to a chunk's delta beyond the typed ones. */
interface ExtendedDelta {
  /** OpenAI audio output: base64 PCM pieces and the transcript, in pieces. */
  audio?: { id?: string; data?: string; transcript?: string };
  /** OpenRouter image output, each image whole. */
  images?: Array<{ type?: string; image_url?: { url?: string } }>;
}

interface PartialToolCall {
  id: string | undefined;
  name: string;
  argumentsText: string;
}

/** Output PCM is 24 kHz mono 16-bit: the MIME type says so, so the audio can be played back. */
const STREAMED_AUDIO_MIME = 'audio/L16;rate=24000;channels=1';

/**
 * Rebuilds one assistant message from streamed chunks. Tool calls arrive in pieces keyed by index: the
 * first piece carries the id and name, later ones more of the arguments, several calls interleaved.
 */
export class ChatCompletionsStreamAssembler {
  private text = '';
  private readonly toolCalls = new Map<number, PartialToolCall>();
  private readonly media: Array<ImagePart | AudioPart> = [];
  private audioData = '';
  private rawFinishReason: string | null = null;
  private usage: TokenUsage = { inputTokens: 0, outputTokens: 0 };
  private model: string;

  constructor(
    model: string,
    private readonly onEvent: ((event: ModelStreamEvent) => void) | undefined,
  ) {
    this.model = model;
  }

  add(chunk: ChatCompletionChunk): void {
    if (chunk.model) this.model = chunk.model;
    if (chunk.usage) {
      const cached = chunk.usage.prompt_tokens_details?.cached_tokens;
      this.usage = {
        inputTokens: chunk.usage.prompt_tokens,
        outputTokens: chunk.usage.completion_tokens,
        ...(cached !== undefined ? { cachedInputTokens: cached } : {}),
      };
    }
    const choice = chunk.choices[0];
    if (choice === undefined) return;
    const delta = choice.delta as ChatCompletionChunk.Choice.Delta & ExtendedDelta;
    if (typeof delta.content === 'string' && delta.content !== '') this.addText(delta.content);
    for (const piece of delta.tool_calls ?? []) this.addToolCallPiece(piece);
    if (delta.audio !== undefined) {
      if (delta.audio.data !== undefined) this.audioData += delta.audio.data;
      if (delta.audio.transcript !== undefined && delta.audio.transcript !== '') this.addText(delta.audio.transcript);
    }
    for (const image of delta.images ?? []) {
      const part = imagePartFromDataUrl(image.image_url?.url);
      if (part !== undefined) this.addMedia(part);
    }
    if (choice.finish_reason !== null && choice.finish_reason !== undefined) this.rawFinishReason = choice.finish_reason;
  }

  finish(): CompletedAssistantMessage {
    if (this.audioData !== '') this.addMedia({ type: 'audio', mime: STREAMED_AUDIO_MIME, data: this.audioData });
    const parts: MessagePart[] = [];
    if (this.text !== '') parts.push({ type: 'text', text: this.text });
    parts.push(...this.media);
    const toolCalls: ToolCall[] = [...this.toolCalls.entries()]
      .sort(([first], [second]) => first - second)
      .map(([, call]) => ({ id: call.id ?? `call_${randomUUID()}`, name: call.name, argumentsText: call.argumentsText }));
    return {
      role: 'assistant',
      parts,
      toolCalls,
      usage: this.usage,
      finishReason: finishReason(this.rawFinishReason, toolCalls.length > 0),
      model: this.model,
    };
  }

  private addText(text: string): void {
    this.text += text;
    this.onEvent?.({ type: 'text-delta', text });
  }

  private addMedia(part: ImagePart | AudioPart): void {
    this.media.push(part);
    this.onEvent?.({ type: 'media', part });
  }

  private addToolCallPiece(piece: ChatCompletionChunk.Choice.Delta.ToolCall): void {
    // Some servers leave out the index; a piece with a new id then starts a new call.
    const index = piece.index ?? this.indexWithoutIndexField(piece.id);
    const call = this.toolCalls.get(index) ?? { id: undefined, name: '', argumentsText: '' };
    if (piece.id !== undefined && piece.id !== '') call.id = piece.id;
    const name = piece.function?.name;
    // Names normally come whole in the first piece; some servers repeat them in every piece.
    if (name !== undefined && name !== '') call.name = name.startsWith(call.name) ? name : call.name + name;
    if (piece.function?.arguments !== undefined) call.argumentsText += piece.function.arguments;
    this.toolCalls.set(index, call);
  }

  private indexWithoutIndexField(id: string | undefined): number {
    const last = Math.max(-1, ...this.toolCalls.keys());
    const lastCall = this.toolCalls.get(last);
    const startsNewCall = lastCall === undefined || (id !== undefined && id !== '' && id !== lastCall.id);
    return startsNewCall ? last + 1 : last;
  }
}

function finishReason(raw: string | null, hasToolCalls: boolean): FinishReason {
  switch (raw) {
    case 'tool_calls':
    case 'function_call':
      return 'tool-calls';
    case 'length':
      return 'length';
    case 'content_filter':
      return 'content-filter';
    case 'stop':
      // Some local servers end a tool-calling answer with "stop".
      return hasToolCalls ? 'tool-calls' : 'stop';
    default:
      return hasToolCalls ? 'tool-calls' : 'other';
  }
}

function imagePartFromDataUrl(url: string | undefined): ImagePart | undefined {
  if (url === undefined) return undefined;
  const match = /^data:([^;,]+);base64,(.+)$/s.exec(url);
  if (match === null) return { type: 'image', url };
  return { type: 'image', mime: match[1], data: match[2] };
}
