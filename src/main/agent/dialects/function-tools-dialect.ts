/**
 * `function-tools`: Sightline's own protocol. The model calls our `computer` tool and the others as
 * function tools (Chat Completions or Responses), and ends a turn with `finish`. Every model with function
 * calling can speak it; it is the default for any model whose profile names no other.
 */
import { FUNCTION_TOOLS_WIRE } from '../../llm/dialects/dialect-wire.js';
import { buildSystemPrompt } from '../system-prompt.js';
import { createAskUserTool } from '../tools/ask-user-tool.js';
import { createComputerTool } from '../tools/computer-tool.js';
import { createCropImageTool } from '../tools/crop-image-tool.js';
import { createFinishTool } from '../tools/finish-tool.js';
import { createGetHistoryImageTool } from '../tools/get-history-image-tool.js';
import type { AgentDialect } from './agent-dialect.js';

export const FUNCTION_TOOLS_DIALECT: AgentDialect = {
  name: 'function-tools',
  tools: (parts) => [
    createComputerTool({ operator: parts.operator, screen: parts.screen, policy: parts.policy, confirm: parts.confirm, redactSecrets: parts.redactSecrets }),
    createFinishTool(),
    createAskUserTool(parts.askUser),
    createGetHistoryImageTool(),
    createCropImageTool({ coordinateSpace: parts.coordinateSpace }),
    ...parts.extraTools,
  ],
  systemPrompt: buildSystemPrompt,
  replyWithoutCalls: 'nudge',
  wire: FUNCTION_TOOLS_WIRE,
};
