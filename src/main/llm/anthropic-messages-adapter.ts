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
import { COMPUTER_TOOL_STEP_DOWN, refusesToolType, type ComputerToolMemory } from './computer-tool-memory.js';
import { ModelCallError } from './model-errors.js';
import type { CompleteOptions, CompletedAssistantMessage, ModelAdapter, ModelRequest } from './model-adapter.js';
import type { CallSettings } from './model-call.js';
import { runStreamedCall } from './model-call.js';
import type { ModelProfile } from './model-profiles.js';

export interface AnthropicAdapterSettings extends CallSettings {
  client: Anthropic;
  /** model.effort: Anthropic's `output_config.effort`; the model's default when absent. */
  effort?: AnthropicEffort | undefined;
  /**
   * Where a computer tool the model refuses is remembered, with the one it steps down to (computer-tool-memory.ts);
   * absent when model.anthropicComputerTool chose the tool (a person's choice is not stepped over).
   */
  computerToolMemory?: ComputerToolMemory | undefined;
}

export type AnthropicEffort = NonNullable<NonNullable<MessageCreateParamsStreaming['output_config']>['effort']>;

/** The beta header a thinking configuration with `block_binding` needs (the errors page: without it, a 400). */
export const THINKING_BINDING_BETA = 'thinking-binding-controls-2026-08-01';

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

  async complete(request: ModelRequest, options: CompleteOptions = {}): Promise<CompletedAssistantMessage> {
    const assembler = new AnthropicStreamAssembler(this.profile.model, options.onEvent);
    try {
      return await runStreamedCall(this.settings, request, options, {
        buildBody: () => anthropicMessagesBody(request, this.profile, this.settings.effort),
        open: (body, signal) => this.settings.client.beta.messages.create(body, { signal: signal ?? null }),
        consume: (event: BetaRawMessageStreamEvent) => assembler.add(event),
        finish: () => assembler.finish(),
      });
    } catch (error) {
      throw this.steppedDown(error, request) ?? error;
    }
  }

  /**
   * A 400 that names the computer tool this request declared: the model is stepped down once (the toolset to
   * computer_20251124), remembered in the home for the next run, and the error says so. This run's turn has its
   * tools already, so it ends on the error; the next run starts with the older tool.
   */
  private steppedDown(error: unknown, request: ModelRequest): ModelCallError | undefined {
    const memory = this.settings.computerToolMemory;
    if (memory === undefined || !(error instanceof ModelCallError) || error.status !== 400) return undefined;
    const declared = request.tools?.find((tool) => tool.native?.kind === 'anthropic-computer')?.native;
    if (declared?.kind !== 'anthropic-computer' || !refusesToolType(error.message, declared.toolType)) return undefined;
    const next = COMPUTER_TOOL_STEP_DOWN[declared.toolType];
    if (next === undefined) return undefined;
    const model = this.profile.model;
    memory.remember(model, { toolType: next, refused: declared.toolType, reason: error.message.slice(0, 2000), at: new Date().toISOString() });
    return new ModelCallError(
      `${error.message}\nThe model ${model} refused Anthropic's ${declared.toolType}; Sightline steps it down to ${next}, ` +
        `from the next run on (remembered in ${memory.location}; delete the model's entry there to try ${declared.toolType} again, ` +
        'or choose the tool with model.anthropicComputerTool). Run the task again.',
      { status: 400, retryable: false },
    );
  }
}

/** The request body, built (and refused, for what the API cannot carry) before anything is sent. */
export function anthropicMessagesBody(
  request: ModelRequest,
  profile: Pick<ModelProfile, 'model' | 'refusesForcedToolChoice' | 'boundThinking'>,
  effort?: AnthropicEffort,
): MessageCreateParamsStreaming {
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
    // A model that refuses forced tool use is asked with auto: its tools are declared all the same.
    const choice = request.toolChoice === 'required' && profile.refusesForcedToolChoice === true ? 'auto' : request.toolChoice;
    if (choice !== undefined) body.tool_choice = toolChoice(choice);
  }
  if (effort !== undefined) body.output_config = { effort };
  if (profile.boundThinking === true) {
    // Sightline's history changes before the running step as its zones say (a screen becomes a reduced view, a
    // turn's screens fold), which a bound thinking block does not survive: the API is told to drop such a block
    // rather than refuse the request ("Thinking block no longer matches the conversation"). Thinking stays
    // adaptive, the default of these models, which cannot turn it off.
    body.thinking = { type: 'adaptive', block_binding: { prefix_mismatch_behavior: 'drop_block' } };
    betas.push(THINKING_BINDING_BETA);
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
