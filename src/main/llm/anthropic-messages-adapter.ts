/**
 * The Anthropic Messages API adapter (https://docs.anthropic.com/en/api/messages), through the official
 * `@anthropic-ai/sdk` client. Always streams, like the OpenAI adapters, and shares their call (capability
 * check, cancellation, idle watchdog, error translation: model-call.ts). The beta messages endpoint is used
 * so that the computer tool's beta header travels as the SDK sends it (`betas` → `anthropic-beta`).
 *
 * Prompt caching: the breakpoints go where Sightline's zones say the history is stable
 * (anthropic-cache-breakpoints.ts), so each request of a turn reads all but its newest step from the cache.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type {
  BetaRawMessageStreamEvent,
  MessageCreateParamsStreaming,
} from '@anthropic-ai/sdk/resources/beta/messages/messages';
import { cacheBreakpoints } from './anthropic-cache-breakpoints.js';
import { toAnthropicConversation } from './anthropic-messages.js';
import { AnthropicStreamAssembler } from './anthropic-stream-assembler.js';
import { toAnthropicTools } from './anthropic-tools.js';
import type { CompleteOptions, CompletedAssistantMessage, ModelAdapter, ModelRequest } from './model-adapter.js';
import type { CallSettings } from './model-call.js';
import { runStreamedCall } from './model-call.js';
import type { ModelProfile } from './model-profiles.js';

export interface AnthropicAdapterSettings extends CallSettings {
  client: Anthropic;
}

/**
 * The API requires max_tokens. When the request names none, the output reserve the token budget already
 * keeps free by default (config.context.outputReserveTokens), which every Claude model can produce.
 */
export const DEFAULT_ANTHROPIC_MAX_TOKENS = 4096;

export class AnthropicMessagesAdapter implements ModelAdapter {
  constructor(private readonly settings: AnthropicAdapterSettings) {}

  get profile(): ModelProfile {
    return this.settings.profile;
  }

  complete(request: ModelRequest, options: CompleteOptions = {}): Promise<CompletedAssistantMessage> {
    const assembler = new AnthropicStreamAssembler(this.profile.model, options.onEvent);
    return runStreamedCall(this.settings, request, options, {
      buildBody: () => anthropicMessagesBody(request, this.profile),
      open: (body, signal) => this.settings.client.beta.messages.create(body, { signal: signal ?? null }),
      consume: (event: BetaRawMessageStreamEvent) => assembler.add(event),
      finish: () => assembler.finish(),
    });
  }
}

/** The request body, built (and refused, for what the API cannot carry) before anything is sent. */
export function anthropicMessagesBody(request: ModelRequest, profile: Pick<ModelProfile, 'model'>): MessageCreateParamsStreaming {
  const breakpoints = cacheBreakpoints(request.messages, request.cacheBoundaries);
  const { tools, betas } = toAnthropicTools(request.tools ?? []);
  const hasSystemPrompt = request.messages.some((message) => message.role === 'system' && message.parts.some((part) => part.text !== ''));
  const conversation = toAnthropicConversation(request.messages, { ...breakpoints, systemPrompt: breakpoints.systemPrompt && hasSystemPrompt });
  // Without a system prompt, the first breakpoint closes the tools instead (they come first in the cached prefix).
  const lastTool = tools.at(-1);
  if (!hasSystemPrompt && breakpoints.systemPrompt && lastTool !== undefined) {
    (lastTool as { cache_control?: { type: 'ephemeral' } }).cache_control = { type: 'ephemeral' };
  }
  const body: MessageCreateParamsStreaming = {
    model: profile.model,
    max_tokens: request.maxOutputTokens ?? DEFAULT_ANTHROPIC_MAX_TOKENS,
    messages: conversation.messages,
    stream: true,
  };
  if (conversation.system.length > 0) body.system = conversation.system;
  if (tools.length > 0) {
    body.tools = tools;
    if (request.toolChoice !== undefined) body.tool_choice = toolChoice(request.toolChoice);
  }
  if (betas.length > 0) body.betas = betas;
  // The API takes a temperature; this SDK version's types no longer name it.
  if (request.temperature !== undefined) (body as { temperature?: number }).temperature = request.temperature;
  return body;
}

function toolChoice(choice: NonNullable<ModelRequest['toolChoice']>): NonNullable<MessageCreateParamsStreaming['tool_choice']> {
  switch (choice) {
    case 'auto':
      return { type: 'auto' };
    case 'required':
      return { type: 'any' };
    case 'none':
      return { type: 'none' };
  }
}
