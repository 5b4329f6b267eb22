/**
 * The tools an agent offers its model, in one place: the built-in ones, then the extra ones (web_search,
 * MCP servers' tools). The agent builds its registry here, and so does the fuzz test, so a new built-in
 * tool is fuzzed the day it is added.
 */
import type { AskUserHandler, ConfirmationHandler } from './agent-contract.js';
import type { ConfirmationPolicy } from '../../shared/config.js';
import type { Operator } from '../operators/operator.js';
import type { ScreenRecorder } from './screen-recorder.js';
import { createAskUserTool } from './tools/ask-user-tool.js';
import { createComputerTool } from './tools/computer-tool.js';
import { createCropImageTool } from './tools/crop-image-tool.js';
import { createFinishTool } from './tools/finish-tool.js';
import { createGetHistoryImageTool } from './tools/get-history-image-tool.js';
import { createToolRegistry, type ToolRegistry } from './tools/registry.js';
import type { ToolDefinition } from './tools/tool-definition.js';

export interface AgentToolRegistryOptions {
  operator: Operator;
  screen: ScreenRecorder;
  /** When the computer tool asks a person first (config.agent.confirm). */
  policy: ConfirmationPolicy;
  confirm: ConfirmationHandler;
  askUser: AskUserHandler;
  extraTools?: readonly ToolDefinition[] | undefined;
}

/** computer, finish, ask_user, get_history_image, crop_image, then the extra tools; a name used twice throws. */
export function createAgentToolRegistry(options: AgentToolRegistryOptions): ToolRegistry {
  return createToolRegistry(
    [
      createComputerTool({ operator: options.operator, screen: options.screen, policy: options.policy, confirm: options.confirm }),
      createFinishTool(),
      createAskUserTool(options.askUser),
      createGetHistoryImageTool(),
      createCropImageTool(),
    ],
    options.extraTools,
  );
}
