/**
 * The Responses API adapter (OpenAI's newer API). Stateless: every call sends the whole history
 * (`store: false`), because Sightline renders requests from its own database, so that consecutive
 * requests share a byte-identical prefix and the provider's prompt cache holds.
 */
import type {
  ComputerTool,
  ComputerUsePreviewTool,
  FunctionTool,
  Response,
  ResponseCreateParamsStreaming,
  ResponseOutputItem,
  ResponseReasoningItem,
  ResponseStreamEvent,
  ResponseUsage,
  Tool,
} from 'openai/resources/responses/responses';
import type { AudioPart, ImagePart, MessagePart, ResponsesReasoningItem, ToolCall } from '../../shared/messages.js';
import { MAX_REASONING_ITEMS_PER_CALL } from '../../shared/messages.js';
import type { FinishReason, TokenUsage } from '../../shared/token-usage.js';
import type {
  CompleteOptions,
  CompletedAssistantMessage,
  ModelAdapter,
  ModelRequest,
  ModelStreamEvent,
  ModelToolDeclaration,
  OpenAiComputerToolDeclaration,
} from './model-adapter.js';
import type { AdapterSettings } from './model-call.js';
import { runStreamedCall } from './model-call.js';
import { ModelCallError, unsendableNativeTool } from './model-errors.js';
import type { ModelProfile } from './model-profiles.js';
import { computerToolCall } from './responses-computer-output.js';
import { toResponsesInput } from './responses-input.js';

export class ResponsesAdapter implements ModelAdapter {
  constructor(private readonly settings: AdapterSettings) {}

  get profile(): ModelProfile {
    return this.settings.profile;
  }

  complete(request: ModelRequest, options: CompleteOptions = {}): Promise<CompletedAssistantMessage> {
    const assembler = new ResponsesStreamAssembler(this.profile.model, options.onEvent, computerToolOf(request)?.name);
    return runStreamedCall(this.settings, request, options, {
      buildBody: () => responsesBody(request, this.profile),
      open: (body, signal) => this.settings.client.responses.create(body, { signal }),
      consume: (event: ResponseStreamEvent) => assembler.add(event),
      finish: () => assembler.finish(),
    });
  }
}

export function responsesBody(request: ModelRequest, profile: ModelProfile): ResponseCreateParamsStreaming {
  const computerTool = computerToolOf(request);
  const body: ResponseCreateParamsStreaming = {
    model: profile.model,
    input: toResponsesInput(request.messages, profile.model, {
      computerTool: computerTool === undefined ? undefined : { name: computerTool.name, toolType: computerTool.native.toolType },
    }),
    stream: true,
    store: false,
  };
  const tools: Tool[] = (request.tools ?? []).map((tool) => {
    if (tool.native === undefined) return functionTool(tool);
    if (tool.native.kind !== 'openai-computer') throw unsendableNativeTool(tool.name, tool.native, 'the Responses API');
    return computerToolDeclaration(tool.native);
  });
  if (profile.modalities.output.includes('image')) tools.push({ type: 'image_generation' });
  if (tools.length > 0) {
    body.tools = tools;
    if (request.toolChoice !== undefined) body.tool_choice = request.toolChoice;
  }
  if (computerTool !== undefined) {
    // OpenAI's computer use asks for both: the API drops the oldest items itself when screenshots outgrow the
    // context window, and stateless requests can only send reasoning back encrypted.
    body.truncation = 'auto';
    body.include = ['reasoning.encrypted_content'];
    // The preview model thinks in reasoning items and rarely writes text: their summary is the step's thought.
    // (Newer models write messages; asking them for summaries needs a verified organization.)
    if (computerTool.native.toolType === 'computer_use_preview') body.reasoning = { summary: 'concise' };
  }
  if (request.maxOutputTokens !== undefined) body.max_output_tokens = request.maxOutputTokens;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  return body;
}

function functionTool(tool: ModelToolDeclaration): FunctionTool {
  return {
    type: 'function',
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters,
    // Strict mode demands every property be required: MCP tools' schemas rarely are.
    strict: false,
  };
}

/**
 * OpenAI's computer tool as the API takes it: `computer_use_preview` with the display (the size of the
 * screenshots sent) and the environment, or the GA `computer`, which takes neither.
 */
function computerToolDeclaration(native: OpenAiComputerToolDeclaration): ComputerTool | ComputerUsePreviewTool {
  // `satisfies`: a change in the SDK's types for either declaration fails the build.
  if (native.toolType === 'computer') return { type: 'computer' } satisfies ComputerTool;
  return {
    type: 'computer_use_preview',
    display_width: native.displayWidth,
    display_height: native.displayHeight,
    environment: native.environment,
  } satisfies ComputerUsePreviewTool;
}

/** The request's OpenAI computer tool, if it declares one (a dialect offers at most one). */
function computerToolOf(request: ModelRequest): { name: string; native: OpenAiComputerToolDeclaration } | undefined {
  for (const tool of request.tools ?? []) {
    if (tool.native?.kind === 'openai-computer') return { name: tool.name, native: tool.native };
  }
  return undefined;
}

/**
 * Rebuilds one assistant message from Responses stream events. Text is shown as its deltas arrive, but
 * the finished output items are the record: a message item's final text, a function call's complete
 * arguments, a computer call, a generated image. Reasoning items that carry OpenAI's encrypted reasoning
 * are kept with the call that follows them, which they must precede when they go back; their summary is the
 * reply's text when the model wrote none (OpenAI's computer-use-preview thinks only in reasoning).
 */
export class ResponsesStreamAssembler {
  /** Text per output item, in output order; deltas first, replaced by the item's final text. */
  private readonly textByItem = new Map<string, string>();
  private readonly toolCalls: ToolCall[] = [];
  private readonly media: Array<ImagePart | AudioPart> = [];
  /** Reasoning items not yet followed by a call. */
  private pendingReasoning: ResponsesReasoningItem[] = [];
  private readonly reasoningSummaries: string[] = [];
  private finishedItems = 0;
  private usage: TokenUsage = { inputTokens: 0, outputTokens: 0 };
  private finishReason: FinishReason = 'other';
  private model: string;

  constructor(
    model: string,
    private readonly onEvent: ((event: ModelStreamEvent) => void) | undefined,
    /** The name the request's OpenAI computer tool has in the history; its computer calls are calls of it. */
    private readonly computerToolName?: string | undefined,
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
        // A stream that never sent its items one by one still ends with them all.
        if (this.finishedItems === 0) for (const item of event.response.output ?? []) this.addFinishedItem(item);
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

  /** A whole response at once (a request sent without `stream`): its output items are the record. */
  addResponse(response: Response): void {
    this.model = response.model || this.model;
    for (const item of response.output ?? []) this.addFinishedItem(item);
    this.usage = tokenUsage(response.usage);
    const reason = response.incomplete_details?.reason;
    this.finishReason =
      response.status === 'completed' ? 'stop' : reason === 'max_output_tokens' ? 'length' : reason === 'content_filter' ? 'content-filter' : 'other';
  }

  finish(): CompletedAssistantMessage {
    const written = [...this.textByItem.values()].filter((itemText) => itemText !== '').join('\n\n');
    const text = written !== '' ? written : this.reasoningSummaries.join('\n\n');
    const parts: MessagePart[] = [];
    if (text !== '') parts.push({ type: 'text', text });
    parts.push(...this.media);
    const finishReason = this.finishReason === 'stop' && this.toolCalls.length > 0 ? 'tool-calls' : this.finishReason;
    return { role: 'assistant', parts, toolCalls: this.toolCalls, usage: this.usage, finishReason, model: this.model };
  }

  private addFinishedItem(item: ResponseOutputItem): void {
    this.finishedItems += 1;
    switch (item.type) {
      case 'message': {
        const text = (item.content ?? []).map((content) => (content.type === 'output_text' ? content.text : '')).join('');
        this.textByItem.set(item.id, text);
        break;
      }
      case 'reasoning':
        this.addReasoning(item);
        break;
      case 'function_call':
        this.toolCalls.push(this.withReasoning({ id: item.call_id, name: item.name, argumentsText: item.arguments }));
        break;
      case 'computer_call':
        this.toolCalls.push(this.withReasoning(computerToolCall(item, this.computerToolName, this.toolCalls.length)));
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

  private addReasoning(item: ResponseReasoningItem): void {
    const summary = (Array.isArray(item.summary) ? item.summary : [])
      .map((part) => (typeof part?.text === 'string' ? part.text : ''))
      .filter((text) => text !== '');
    this.reasoningSummaries.push(...summary);
    // Only encrypted reasoning can go back in a stateless request; an item without it is only its summary.
    if (typeof item.id !== 'string' || item.id === '' || typeof item.encrypted_content !== 'string' || item.encrypted_content === '') return;
    if (this.pendingReasoning.length >= MAX_REASONING_ITEMS_PER_CALL) return;
    this.pendingReasoning.push({ id: item.id, encryptedContent: item.encrypted_content, summary });
  }

  /** The call with the reasoning that preceded it, which is then spent. */
  private withReasoning(call: ToolCall): ToolCall {
    if (this.pendingReasoning.length === 0) return call;
    const reasoning = this.pendingReasoning;
    this.pendingReasoning = [];
    return { ...call, providerData: { ...call.providerData, reasoning } };
  }
}

/** The assistant message of a whole (not streamed) Responses answer. */
export function assistantMessageOfResponse(response: Response, computerToolName?: string): CompletedAssistantMessage {
  const assembler = new ResponsesStreamAssembler(response.model, undefined, computerToolName);
  assembler.addResponse(response);
  return assembler.finish();
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
