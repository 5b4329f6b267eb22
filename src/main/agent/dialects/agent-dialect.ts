/**
 * The agent's half of a dialect (the wire half is in src/main/llm/dialects): which tools the model is
 * offered and in what form, the system prompt that teaches it the protocol, and what a reply without any
 * call means. Whatever the dialect, every action ends in the same computer action pipeline
 * (tools/computer-tool.ts: the safety policy, the one coordinate mapping, the screen recorder), so dedup,
 * turns, compaction, the token budget, recording and the confirmation gate are the same for all of them.
 */
import type { ConfirmationPolicy } from '../../../shared/config.js';
import type { DialectName } from '../../../shared/dialects.js';
import type { Redact } from '../../../shared/secret-redaction.js';
import type { CoordinateSpace } from '../../../shared/model-view.js';
import type { DialectWire } from '../../llm/dialects/dialect-wire.js';
import type { AnthropicComputerToolType } from '../../llm/model-profiles.js';
import type { Operator } from '../../operators/operator.js';
import type { AnswerRequest, AskUserHandler, ConfirmationHandler } from '../agent-contract.js';
import type { AnswerToolOptions } from '../tools/answer-tool.js';
import type { ScreenRecorder } from '../screen-recorder.js';
import type { SystemPromptInput } from '../system-prompt.js';
import type { ToolDefinition } from '../tools/tool-definition.js';

/** What a dialect builds its tools from. */
export interface DialectToolParts {
  operator: Operator;
  screen: ScreenRecorder;
  /** When an action needs a person's yes (config.agent.confirm). */
  policy: ConfirmationPolicy;
  confirm: ConfirmationHandler;
  /** The configuration's secret redactor, for the safety policy to recognize a configured secret being typed. */
  redactSecrets?: Redact | undefined;
  askUser: AskUserHandler;
  /** Tools from outside (web_search, MCP servers' tools): offered where the dialect can declare them. */
  extraTools: readonly ToolDefinition[];
  /** The size of the screenshots as the model is shown them (a native computer tool declares it). */
  screenshotSize: { width: number; height: number };
  /** How the model names points (the model profile's): a native computer tool states its screen in it. */
  coordinateSpace: CoordinateSpace;
  /**
   * The model profile's family, for a dialect whose tools take another form for some models (OpenAI's
   * computer tool is `computer_use_preview` for computer-use-preview, `computer` for newer models).
   */
  modelFamily?: string | undefined;
  /** The version of Anthropic's computer tool the model was trained on (the model profile's), for Claude's dialect. */
  anthropicComputerTool?: AnthropicComputerToolType | undefined;
  /** Whether the model's Gemini computer_use tool takes ENVIRONMENT_DESKTOP (the model profile's), for Gemini's dialect. */
  computerUseDesktop?: boolean | undefined;
}

export interface AgentDialect {
  readonly name: DialectName;
  /** Every tool the model may call this turn, in the order it is told of them. */
  tools(parts: DialectToolParts): ToolDefinition[];
  /** Built once per turn, so every request of the turn starts with the same bytes. */
  systemPrompt(input: SystemPromptInput): string;
  /**
   * A reply that calls nothing: `nudge` tells the model to act or finish (a second such reply fails the
   * turn); `finish` ends the turn as finished with the reply's text as its summary (OpenAI's computer tool
   * ends a task that way).
   */
  readonly replyWithoutCalls: 'nudge' | 'finish';
  /** What the nudge says, in the dialect's own tool names; the loop's general text when absent. */
  readonly nudge?: string;
  readonly wire: DialectWire;
  /**
   * The tools of a turn that answers a question (TurnRequest.answer): the answer tool and the tools that only
   * look (get_history_image, crop_image) when absent. A dialect whose grammar has no functions answers its own
   * way (UI-TARS: `finished(content=…)` holding JSON).
   */
  answerTools?(parts: AnswerToolParts): ToolDefinition[];
  /** The system prompt of such a turn; buildAnswerSystemPrompt when absent. */
  answerPrompt?(input: SystemPromptInput, request: AnswerRequest): string;
}

/** What a dialect builds an answering turn's tools from. */
export interface AnswerToolParts {
  answer: AnswerToolOptions;
  coordinateSpace: CoordinateSpace;
  operatorKind: 'desktop' | 'browser';
  /** As in DialectToolParts: what a native tool declared while answering needs to be declared as the model knows it. */
  modelFamily?: string | undefined;
  computerUseDesktop?: boolean | undefined;
}
