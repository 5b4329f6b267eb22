/**
 * `openai-computer`: OpenAI's native computer tool over the Responses API. The model calls `computer` as
 * OpenAI's own tool (computer_use_preview for computer-use-preview, the GA `computer` for newer models),
 * declared with the display the screenshots are shown at and the environment the operator drives; its
 * `computer_call` actions run through the same pipeline as every dialect's. Sightline's other tools
 * (ask_user, get_history_image, crop_image, web_search, MCP tools) ride along as function tools. There is
 * no `finish`: a reply without a computer call ends the turn, its text the summary.
 */
import { OPENAI_COMPUTER_WIRE } from '../../llm/dialects/openai-computer-wire.js';
import { createAskUserTool } from '../tools/ask-user-tool.js';
import { createCropImageTool } from '../tools/crop-image-tool.js';
import { createGetHistoryImageTool } from '../tools/get-history-image-tool.js';
import { createOpenAiComputerTool } from '../tools/openai-computer-tool.js';
import type { AgentDialect } from './agent-dialect.js';
import { buildOpenAiComputerSystemPrompt } from './openai-computer-prompt.js';

/** The model family that takes the preview form of the tool; every other model takes the GA `computer`. */
const PREVIEW_FAMILY = 'computer-use-preview';

export const OPENAI_COMPUTER_DIALECT: AgentDialect = {
  name: 'openai-computer',
  tools: (parts) => [
    createOpenAiComputerTool({
      operator: parts.operator,
      screen: parts.screen,
      policy: parts.policy,
      confirm: parts.confirm,
      redactSecrets: parts.redactSecrets,
      screenshotSize: parts.screenshotSize,
      toolType: parts.modelFamily === PREVIEW_FAMILY ? 'computer_use_preview' : 'computer',
    }),
    createAskUserTool(parts.askUser),
    createGetHistoryImageTool(),
    createCropImageTool({ coordinateSpace: parts.coordinateSpace }),
    ...parts.extraTools,
  ],
  systemPrompt: buildOpenAiComputerSystemPrompt,
  replyWithoutCalls: 'finish',
  wire: OPENAI_COMPUTER_WIRE,
};
