/**
 * The tools an agent offers its model, in one place: the dialect's tools (for function-tools: computer,
 * finish, ask_user, get_history_image, crop_image), then the extra ones (web_search, MCP servers' tools)
 * where the dialect can declare them. The agent builds its registry here, and so does the fuzz test, so a
 * new built-in tool is fuzzed the day it is added.
 */
import type { ConfirmationPolicy } from '../../shared/config.js';
import type { Redact } from '../../shared/secret-redaction.js';
import type { CoordinateSpace } from '../../shared/model-view.js';
import type { AnthropicComputerToolType } from '../llm/model-profiles.js';
import type { Operator } from '../operators/operator.js';
import type { AskUserHandler, ConfirmationHandler } from './agent-contract.js';
import type { AgentDialect } from './dialects/agent-dialect.js';
import { FUNCTION_TOOLS_DIALECT } from './dialects/function-tools-dialect.js';
import { withConfirmationGate } from './tool-confirmation.js';
import type { ScreenRecorder } from './screen-recorder.js';
import { createToolRegistry, type ToolRegistry } from './tools/registry.js';
import type { ToolDefinition } from './tools/tool-definition.js';

export interface AgentToolRegistryOptions {
  operator: Operator;
  screen: ScreenRecorder;
  /** When the computer tool and the extra tools with side effects ask a person first (config.agent.confirm). */
  policy: ConfirmationPolicy;
  confirm: ConfirmationHandler;
  /** The configuration's secret redactor, for the safety policy to recognize a configured secret being typed. */
  redactSecrets?: Redact | undefined;
  askUser: AskUserHandler;
  extraTools?: readonly ToolDefinition[] | undefined;
  /** function-tools unless given. */
  dialect?: AgentDialect | undefined;
  /** The size of the screenshots as the model is shown them; the operator's screen unless given. */
  screenshotSize?: { width: number; height: number } | undefined;
  /** How the model names points; pixels unless given. */
  coordinateSpace?: CoordinateSpace | undefined;
  /** The model profile's family (some dialects declare their tools differently per model). */
  modelFamily?: string | undefined;
  /** The version of Anthropic's computer tool the model was trained on (the model profile's). */
  anthropicComputerTool?: AnthropicComputerToolType | undefined;
  /** Whether the model's Gemini computer_use takes the desktop environment (the model profile's). */
  computerUseDesktop?: boolean | undefined;
}

/** The dialect's tools, then the extra tools it can offer, those with side effects behind the gate; a name used twice throws. */
export function createAgentToolRegistry(options: AgentToolRegistryOptions): ToolRegistry {
  const dialect = options.dialect ?? FUNCTION_TOOLS_DIALECT;
  return createToolRegistry(
    dialect.tools({
      operator: options.operator,
      screen: options.screen,
      policy: options.policy,
      confirm: options.confirm,
      redactSecrets: options.redactSecrets,
      askUser: options.askUser,
      extraTools: withConfirmationGate(options.extraTools ?? [], { policy: options.policy, confirm: options.confirm }),
      screenshotSize: options.screenshotSize ?? screenOf(options.operator),
      coordinateSpace: options.coordinateSpace ?? 'pixels',
      modelFamily: options.modelFamily,
      anthropicComputerTool: options.anthropicComputerTool,
      computerUseDesktop: options.computerUseDesktop,
    }),
  );
}

/** The operator's area in frame pixels: the size of its screenshots before any downscale. */
function screenOf(operator: Operator): { width: number; height: number } {
  const { screen, scaleFactor } = operator.describe();
  return { width: Math.round(screen.width * scaleFactor), height: Math.round(screen.height * scaleFactor) };
}
