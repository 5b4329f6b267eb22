/**
 * The contract between the agent and a model provider. The agent speaks provider-neutral messages
 * (src/shared/messages.ts); an adapter turns them into one provider API's requests and its streamed
 * answer back into an assistant message. Adapters differ only in wire format; everything they share
 * (capability checks, error translation, the client) lives beside them in this folder.
 */
import type { AssistantMessage, ImagePart, AudioPart, Message } from '../../shared/messages.js';
import type { FinishReason, TokenUsage } from '../../shared/token-usage.js';
import type { AnthropicComputerToolType } from '../../shared/providers.js';
import type { ModelProfile } from './model-profiles.js';

/**
 * A function the model may call, as a provider is told of it: name, description and a JSON Schema object of
 * its arguments (as MCP tools declare theirs). Only a declaration: what runs the call is the agent's
 * `ToolDefinition`, which the registry turns into one of these.
 */
export interface ModelToolDeclaration {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  /** A provider's own tool (OpenAI's computer tool) declared in its own form instead of as a function. */
  native?: NativeToolDeclaration;
}

/**
 * OpenAI's computer tool: `computer_use_preview` for computer-use-preview, `computer` (the GA form) for newer
 * models. The display is the size of the screenshots sent; the environment is what the model is told it drives.
 */
export interface OpenAiComputerToolDeclaration {
  kind: 'openai-computer';
  toolType: 'computer_use_preview' | 'computer';
  displayWidth: number;
  displayHeight: number;
  environment: 'browser' | 'linux' | 'mac' | 'windows' | 'ubuntu';
}

/**
 * Anthropic's computer tool in the version a Claude model takes (`computer_20241022`, `computer_20250124`,
 * `computer_20251124` with zoom, or the stable `computer_toolset_20260801`). The display is the size of the
 * screenshots sent (the toolset takes none: its coordinates are pixels of the screenshots returned). The adapter
 * sends the beta header that goes with a beta version. Every member tool of the toolset carries the same
 * declaration; the adapter sends it once.
 */
export interface AnthropicComputerToolDeclaration {
  kind: 'anthropic-computer';
  toolType: AnthropicComputerToolType;
  displayWidth: number;
  displayHeight: number;
  /** computer_20251124 only: offer the zoom action. */
  enableZoom?: boolean;
  /** The toolset only: members the operator cannot perform, sent `enabled: false` so the model is not offered them. */
  disabledMembers?: readonly string[];
}

/**
 * Gemini's computer_use tool (https://ai.google.dev/gemini-api/docs/computer-use): the environment the model is
 * told it drives and the predefined functions it must not call. Every predefined function Sightline answers is a
 * tool of the registry carrying this same declaration; the adapter sends it once, as one `computerUse` tool.
 */
export interface GeminiComputerToolDeclaration {
  kind: 'gemini-computer';
  environment: 'ENVIRONMENT_BROWSER' | 'ENVIRONMENT_DESKTOP';
  excludedPredefinedFunctions: readonly string[];
}

export type NativeToolDeclaration = OpenAiComputerToolDeclaration | AnthropicComputerToolDeclaration | GeminiComputerToolDeclaration;

export interface ModelRequest {
  messages: readonly Message[];
  tools?: readonly ModelToolDeclaration[];
  /** `required` makes the model call some tool; `none` forbids tool calls this time. */
  toolChoice?: 'auto' | 'required' | 'none';
  maxOutputTokens?: number;
  temperature?: number;
  /** Where the history is stable, for providers that cache only at breakpoints they are told of (Anthropic). */
  cacheBoundaries?: CacheBoundaries;
}

/**
 * What the request builder knows of the history's zones, for prompt caching: indexes into `messages`.
 * Everything up to `earlierTurnsEnd` changes only when a turn ends; after it comes the running turn. When a
 * turn ends, compaction changes only the newest earlier turns (the one that ended, and the one whose anchors
 * fold as it leaves the anchor turns): everything up to `settledTurnsEnd` stays as it is at the next turn.
 */
export interface CacheBoundaries {
  /** The last message of the earlier turns (or of the system prompt, when there are none); absent when unknown. */
  earlierTurnsEnd?: number;
  /** The last message of the turns no later compaction changes (older than the anchor turns); absent when none. */
  settledTurnsEnd?: number;
  /**
   * Where `settledTurnsEnd` was in the previous turn's requests: the longest prefix they shared with this turn's,
   * which the first request of a turn can read from the cache. Absent when none.
   */
  previouslySettledTurnsEnd?: number;
  /**
   * The last message of the running turn's folded chunks (before the first fold, of its first screen's message):
   * the next folds change only what follows it. Absent while the first screen is the present one.
   */
  foldedChunksEnd?: number;
  /**
   * The last message the next request of the turn repeats as it is: the one before the present screen's, which
   * the next request shows as a reduced view. Absent when the request shows no screen of the running turn.
   */
  nextStepPrefixEnd?: number;
}

/** What the live timeline sees while a call is under way. */
export type ModelStreamEvent =
  | { type: 'text-delta'; text: string }
  /** Media the model generated (image or audio out), delivered whole once it is complete. */
  | { type: 'media'; part: ImagePart | AudioPart }
  /**
   * Something the adapter decided for the rest of the run that a person should know, said once (a Claude model
   * stepped down from a computer tool it refused): shown as a warning of the turn.
   */
  | { type: 'notice'; text: string };

export interface CompleteOptions {
  signal?: AbortSignal;
  onEvent?: (event: ModelStreamEvent) => void;
}

/** The model's answer: a message ready to append to the history, plus what it cost and why it ended. */
export interface CompletedAssistantMessage extends AssistantMessage {
  usage: TokenUsage;
  finishReason: FinishReason;
  /** The model that answered, as the endpoint reports it. */
  model: string;
}

export interface ModelAdapter {
  readonly profile: ModelProfile;
  /**
   * One model call. Rejects with ModelCallCancelledError when `signal` aborts, ModelCapabilityError
   * (before any network call) when the request holds media the model cannot read, ModelCallError when
   * the endpoint fails after retries.
   */
  complete(request: ModelRequest, options?: CompleteOptions): Promise<CompletedAssistantMessage>;
}
