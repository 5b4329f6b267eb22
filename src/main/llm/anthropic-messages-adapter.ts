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
import type { AnthropicComputerToolType } from '../../shared/providers.js';
import { historyForDeclaredTool, replyAsToolsetCalls, requestWithBetaComputerTool } from './anthropic-computer-step-down.js';
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

  /** The beta tool this run stepped down to after the model refused the toolset; from then on every request declares it. */
  private steppedDownTo: AnthropicComputerToolType | undefined;

  async complete(request: ModelRequest, options: CompleteOptions = {}): Promise<CompletedAssistantMessage> {
    try {
      return await this.send(request, options);
    } catch (error) {
      if (!this.stepDown(error, request, options)) throw error;
      // The same request once more, in the older tool's vocabulary. That tool has no step down of its own, so a
      // second refusal ends the call as any error does: the run never loops.
      return await this.send(request, options);
    }
  }

  private async send(request: ModelRequest, options: CompleteOptions): Promise<CompletedAssistantMessage> {
    const steppedTo = this.steppedDownTo;
    const sent = steppedTo === undefined ? historyForDeclaredTool(request) : requestWithBetaComputerTool(request, steppedTo);
    const assembler = new AnthropicStreamAssembler(this.profile.model, options.onEvent);
    const reply = await runStreamedCall(this.settings, sent, options, {
      buildBody: () => anthropicMessagesBody(sent, this.profile, this.settings.effort),
      open: (body, signal) => this.settings.client.beta.messages.create(body, { signal: signal ?? null }),
      consume: (event: BetaRawMessageStreamEvent) => assembler.add(event),
      finish: () => assembler.finish(),
    });
    // The agent's tools are the toolset's members: the beta tool's calls come back as theirs.
    return steppedTo === undefined ? reply : replyAsToolsetCalls(reply);
  }

  /**
   * A 400 that names the toolset this request declared: the model is stepped down once, to the tool the toolset
   * steps down to (computer_20251124), for the rest of this run and, remembered in the home, for the runs after
   * it; said once, as a notice of the call. False for any other error, and once stepped down.
   */
  private stepDown(error: unknown, request: ModelRequest, options: CompleteOptions): boolean {
    const memory = this.settings.computerToolMemory;
    if (memory === undefined || this.steppedDownTo !== undefined || !(error instanceof ModelCallError) || error.status !== 400) return false;
    const declared = request.tools?.find((tool) => tool.native?.kind === 'anthropic-computer')?.native;
    if (declared?.kind !== 'anthropic-computer' || !refusesToolType(error.message, declared.toolType)) return false;
    const next = COMPUTER_TOOL_STEP_DOWN[declared.toolType];
    if (next === undefined) return false;
    const model = this.profile.model;
    this.steppedDownTo = next;
    memory.remember(model, { toolType: next, refused: declared.toolType, reason: error.message.slice(0, 2000), at: new Date().toISOString() });
    options.onEvent?.({
      type: 'notice',
      text:
        `${model} refused Anthropic's ${declared.toolType}; Sightline stepped it down to ${next}, for this run and the next ones ` +
        `(remembered in ${memory.location}; delete the model's entry there to try ${declared.toolType} again, or choose the tool with model.anthropicComputerTool).`,
    });
    return true;
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
    // The running turn's screens stay as sent for these models (active-zone-shape.ts, keepsSentScreens), so the
    // last reply's thinking keeps its history; the history before it still changes where the token budget folds
    // a full window, and when a turn ends, which a bound block does not survive: the API is told to drop such a
    // block rather than refuse the request ("Thinking block no longer matches the conversation"). Thinking stays
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
