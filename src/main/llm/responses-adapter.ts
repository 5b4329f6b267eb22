/**
 * The Responses API adapter (OpenAI's newer API). Stateless: every call sends the whole history
 * (`store: false`), because Sightline renders requests from its own database, so that consecutive
 * requests share a byte-identical prefix and the provider's prompt cache holds.
 */
import type {
  FunctionTool,
  ResponseCreateParamsStreaming,
  ResponseOutputItem,
  ResponseStreamEvent,
  ResponseUsage,
  Tool,
} from 'openai/resources/responses/responses';
import type { AudioPart, ImagePart, MessagePart, ToolCall } from '../../shared/messages.js';
import type { FinishReason, TokenUsage } from '../../shared/token-usage.js';
import type {
  CompleteOptions,
  CompletedAssistantMessage,
  ModelAdapter,
  ModelRequest,
  ModelStreamEvent,
} from './model-adapter.js';
import type { AdapterSettings } from './model-call.js';
import { runStreamedCall } from './model-call.js';
import { ModelCallError } from './model-errors.js';
import type { ModelProfile } from './model-profiles.js';
import { toResponsesInput } from './responses-input.js';

export class ResponsesAdapter implements ModelAdapter {
  constructor(private readonly settings: AdapterSettings) {}

  get profile(): ModelProfile {
    return this.settings.profile;
  }

  complete(request: ModelRequest, options: CompleteOptions = {}): Promise<CompletedAssistantMessage> {
    const assembler = new ResponsesStreamAssembler(this.profile.model, options.onEvent);
    return runStreamedCall(this.settings, request, options, {
      buildBody: () => responsesBody(request, this.profile),
      open: (body, signal) => this.settings.client.responses.create(body, { signal }),
      consume: (event: ResponseStreamEvent) => assembler.add(event),
      finish: () => assembler.finish(),
    });
  }
}

export function responsesBody(request: ModelRequest, profile: ModelProfile): ResponseCreateParamsStreaming {
  const body: ResponseCreateParamsStreaming = {
    model: profile.model,
    input: toResponsesInput(request.messages, profile.model),
    stream: true,
    store: false,
  };
  const tools: Tool[] = (request.tools ?? []).map(
    (tool): FunctionTool => ({
      type: 'function',
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters,
      // Strict mode demands every property be required: MCP tools' schemas rarely are.
      strict: false,
    }),
  );
  if (profile.modalities.output.includes('image')) tools.push({ type: 'image_generation' });
  if (tools.length > 0) {
    body.tools = tools;
    if (request.toolChoice !== undefined) body.tool_choice = request.toolChoice;
  }
  if (request.maxOutputTokens !== undefined) body.max_output_tokens = request.maxOutputTokens;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  return body;
}

/**
 * Rebuilds one assistant message from Responses stream events. Text is shown as its deltas arrive, but
 * the finished output items are the record: a message item's final text, a function call's complete
 * arguments, a generated image.
 */
export class ResponsesStreamAssembler {
  /** Text per output item, in output order; deltas first, replaced by the item's final text. */
  private readonly textByItem = new Map<string, string>();
  private readonly toolCalls: ToolCall[] = [];
  private readonly media: Array<ImagePart | AudioPart> = [];
  private usage: TokenUsage = { inputTokens: 0, outputTokens: 0 };
  private finishReason: FinishReason = 'other';
  private model: string;

  constructor(
    model: string,
    private readonly onEvent: ((event: ModelStreamEvent) => void) | undefined,
  ) {
    this.model = model;
  }

  add(event: ResponseStreamEvent): void {
    switch (event.type) {
      case 'response.created':
        this.model = event.response.model || this.model;
        break;
      case 'response.output_text.delta':
        this.textByItem.set(event.item_id, (this.textByItem.get(event.item_id) ?? '') + event.delta);
        this.onEvent?.({ type: 'text-delta', text: event.delta });
        break;
      case 'response.output_item.done':
        this.addFinishedItem(event.item);
        break;
      case 'response.completed':
        this.usage = tokenUsage(event.response.usage);
        this.finishReason = 'stop';
        break;
      case 'response.incomplete': {
        this.usage = tokenUsage(event.response.usage);
        const reason = event.response.incomplete_details?.reason;
        this.finishReason = reason === 'max_output_tokens' ? 'length' : reason === 'content_filter' ? 'content-filter' : 'other';
        break;
      }
      case 'response.failed':
        throw new ModelCallError(
          `Model "${this.model}" failed to answer: ${event.response.error?.message ?? 'no reason given'}`,
          { retryable: event.response.error?.code === 'server_error' },
        );
      default:
        break;
    }
  }

  finish(): CompletedAssistantMessage {
    const text = [...this.textByItem.values()].filter((itemText) => itemText !== '').join('\n\n');
    const parts: MessagePart[] = [];
    if (text !== '') parts.push({ type: 'text', text });
    parts.push(...this.media);
    const finishReason = this.finishReason === 'stop' && this.toolCalls.length > 0 ? 'tool-calls' : this.finishReason;
    return { role: 'assistant', parts, toolCalls: this.toolCalls, usage: this.usage, finishReason, model: this.model };
  }

  private addFinishedItem(item: ResponseOutputItem): void {
    switch (item.type) {
      case 'message': {
        const text = item.content.map((content) => (content.type === 'output_text' ? content.text : '')).join('');
        this.textByItem.set(item.id, text);
        break;
      }
      case 'function_call':
        this.toolCalls.push({ id: item.call_id, name: item.name, argumentsText: item.arguments });
        break;
      case 'image_generation_call':
        if (item.result !== null && item.result !== '') {
          const part: ImagePart = { type: 'image', mime: 'image/png', data: item.result };
          this.media.push(part);
          this.onEvent?.({ type: 'media', part });
        }
        break;
      default:
        break;
    }
  }
}

function tokenUsage(usage: ResponseUsage | undefined): TokenUsage {
  if (usage === undefined) return { inputTokens: 0, outputTokens: 0 };
  const cached = usage.input_tokens_details?.cached_tokens;
  return {
    inputTokens: usage.input_tokens,
    outputTokens: usage.output_tokens,
    ...(cached !== undefined ? { cachedInputTokens: cached } : {}),
  };
}
