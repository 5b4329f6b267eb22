/**
 * `gemini-computer-use`: Gemini's computer_use tool over the Gemini API. The model calls Google's predefined
 * functions (click_at, type_text_at, … for the Gemini 2.5 computer-use model; click, type, hotkey, … with their
 * intent for Gemini 3.5 Flash), declared as one computerUse tool with the environment the operator is
 * (the desktop where the model takes it) and the functions an operator cannot perform excluded; each call runs
 * through the same pipeline as every dialect's. Sightline's other tools (ask_user, get_history_image, crop_image,
 * web_search, MCP tools, anything a run adds) ride along as function declarations. There is no `finish`: a reply
 * without a function call ends the turn, its text the summary, as in Google's reference agent.
 *
 * A turn that answers a question declares computer_use with every function excluded and offers `answer`, with the
 * tools that only look, as function declarations; a reply without a call is then nudged, never the end.
 */
import { GEMINI_COMPUTER_USE_WIRE } from '../../llm/dialects/gemini-computer-use-wire.js';
import { createAskUserTool } from '../tools/ask-user-tool.js';
import { createCropImageTool } from '../tools/crop-image-tool.js';
import { GEMINI_ANSWERED_FUNCTIONS } from '../tools/gemini-computer-translation.js';
import { createGeminiComputerTools, createGeminiLookingOnlyDeclaration, GEMINI_LOOKING_ONLY_TOOL } from '../tools/gemini-computer-tools.js';
import { buildAnswerSystemPrompt } from '../answer-prompt.js';
import { createAnswerTool } from '../tools/answer-tool.js';
import { createGetHistoryImageTool } from '../tools/get-history-image-tool.js';
import type { AgentDialect } from './agent-dialect.js';
import { buildGeminiComputerUseSystemPrompt } from './gemini-computer-use-prompt.js';

/** The model family that speaks Gemini 3.5's streamlined functions; every other Gemini model, the 2.5 set. */
const GEMINI_35_FAMILY = 'gemini-3.5';

const COMPUTER_FUNCTIONS: ReadonlySet<string> = new Set(GEMINI_ANSWERED_FUNCTIONS);

function functionSetOf(modelFamily: string | undefined): 'gemini-2.5' | 'gemini-3.5' {
  return modelFamily === GEMINI_35_FAMILY ? 'gemini-3.5' : 'gemini-2.5';
}

export const GEMINI_COMPUTER_USE_DIALECT: AgentDialect = {
  name: 'gemini-computer-use',
  tools: (parts) => [
    ...createGeminiComputerTools({
      operator: parts.operator,
      screen: parts.screen,
      policy: parts.policy,
      confirm: parts.confirm,
      redactSecrets: parts.redactSecrets,
      functionSet: functionSetOf(parts.modelFamily),
      desktopEnvironment: parts.computerUseDesktop === true,
    }),
    createAskUserTool(parts.askUser),
    createGetHistoryImageTool(),
    createCropImageTool({ coordinateSpace: parts.coordinateSpace }),
    ...parts.extraTools,
  ],
  systemPrompt: (input) => buildGeminiComputerUseSystemPrompt(input, COMPUTER_FUNCTIONS),
  replyWithoutCalls: 'finish',
  wire: GEMINI_COMPUTER_USE_WIRE,
  // A question is answered through `answer` beside computer_use declared with every function excluded (a
  // computer-use model refuses a request without the tool); the prompt names only the functions it can call.
  answerTools: (parts) => [
    createGeminiLookingOnlyDeclaration({ operatorKind: parts.operatorKind, functionSet: functionSetOf(parts.modelFamily), desktopEnvironment: parts.computerUseDesktop === true }),
    createAnswerTool(parts.answer),
    createGetHistoryImageTool(),
    createCropImageTool({ coordinateSpace: parts.coordinateSpace }),
  ],
  answerPrompt: (input, request) =>
    buildAnswerSystemPrompt({ ...input, tools: input.tools.filter((tool) => tool.name !== GEMINI_LOOKING_ONLY_TOOL) }, request.kind),
};
