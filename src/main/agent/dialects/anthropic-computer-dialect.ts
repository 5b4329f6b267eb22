/**
 * `anthropic-computer`: Claude's native computer tool over Anthropic's Messages API, in the version the model
 * takes (the model profile's `anthropicComputerTool`): the stable toolset, whose members the model calls by their
 * own names (left_click, type, zoom, …), several per reply, or a beta version's single `computer`, declared with
 * the size of the image sent. Either way its actions run through the same pipeline as every dialect's. Sightline's other tools (finish, ask_user, get_history_image, crop_image,
 * web_search, MCP tools) are declared as custom tools beside it. A reply without a call is nudged: finish
 * ends the turn.
 */
import { ANTHROPIC_COMPUTER_WIRE } from '../../llm/dialects/anthropic-computer-wire.js';
import { createAskUserTool } from '../tools/ask-user-tool.js';
import { createClaudeComputerTool } from '../tools/claude-computer-tool.js';
import { createClaudeComputerToolsetTools } from '../tools/claude-computer-toolset-tools.js';
import { createCropImageTool } from '../tools/crop-image-tool.js';
import { createFinishTool } from '../tools/finish-tool.js';
import { createGetHistoryImageTool } from '../tools/get-history-image-tool.js';
import type { ToolDefinition } from '../tools/tool-definition.js';
import type { AgentDialect, DialectToolParts } from './agent-dialect.js';
import { buildClaudeComputerSystemPrompt } from './anthropic-computer-prompt.js';

/** The version a model without one in its profile is offered: the one every Claude 4 model knows. */
export const DEFAULT_ANTHROPIC_COMPUTER_TOOL = 'computer_20250124';

export const ANTHROPIC_COMPUTER_NUDGE =
  'You replied without calling a tool. Continue with the computer tool; when the task is done or cannot be done, ' +
  'call finish with a short summary; call ask_user if you need something only the user knows.';

/** The toolset's members, or the beta tool in its version: what the model profile (or the configuration) says. */
function claudeComputerTools(parts: DialectToolParts): ToolDefinition[] {
  const common = {
    operator: parts.operator,
    screen: parts.screen,
    policy: parts.policy,
    confirm: parts.confirm,
    redactSecrets: parts.redactSecrets,
    screenshotSize: parts.screenshotSize,
  };
  const toolType = parts.anthropicComputerTool ?? DEFAULT_ANTHROPIC_COMPUTER_TOOL;
  // Both operators perform every member today, so none is withheld.
  if (toolType === 'computer_toolset_20260801') return createClaudeComputerToolsetTools(common) as ToolDefinition[];
  return [createClaudeComputerTool({ ...common, toolType }) as ToolDefinition];
}

export const ANTHROPIC_COMPUTER_DIALECT: AgentDialect = {
  name: 'anthropic-computer',
  tools: (parts) => [
    ...claudeComputerTools(parts),
    createFinishTool(),
    createAskUserTool(parts.askUser),
    createGetHistoryImageTool(),
    createCropImageTool({ coordinateSpace: parts.coordinateSpace }),
    ...parts.extraTools,
  ],
  systemPrompt: buildClaudeComputerSystemPrompt,
  replyWithoutCalls: 'nudge',
  nudge: ANTHROPIC_COMPUTER_NUDGE,
  wire: ANTHROPIC_COMPUTER_WIRE,
};
