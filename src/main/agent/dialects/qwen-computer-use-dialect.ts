/**
 * `qwen-computer-use`: Qwen2.5-VL and Qwen3-VL, which were trained on a `computer_use` function of their
 * own (QwenLM's cookbooks: key, type, mouse_move, left_click, left_click_drag, right_click, middle_click,
 * double_click, triple_click, scroll, hscroll, wait, terminate, answer). The model is offered that function
 * in Qwen's form beside Sightline's other tools as ordinary functions (ask_user, the recall tools, web_search,
 * MCP tools); there is no `finish`: `terminate` and `answer` end the turn. Its calls come back as native tool
 * calls or as `<tool_call>` text, depending on the server (see the wire, llm/dialects/qwen-computer-use-wire.ts).
 */
import { QWEN_COMPUTER_USE_WIRE } from '../../llm/dialects/qwen-computer-use-wire.js';
import { buildAnswerSystemPrompt } from '../answer-prompt.js';
import { IMAGE_SECTION, SAFETY_RULES, openingSection, toolLines, type SystemPromptInput } from '../system-prompt.js';
import { createAskUserTool } from '../tools/ask-user-tool.js';
import { createCropImageTool } from '../tools/crop-image-tool.js';
import { createGetHistoryImageTool } from '../tools/get-history-image-tool.js';
import { createQwenComputerUseTool } from '../tools/qwen-computer-use-tool.js';
import type { AgentDialect } from './agent-dialect.js';

/** What a reply without a call is told: in this dialect's own names (there is no finish tool). */
export const QWEN_NO_CALL_NUDGE =
  'You replied without calling a function. Continue with computer_use; when the task is done, call computer_use ' +
  'with action "terminate" (status "success" or "failure"), or with action "answer" and the answer as text; ' +
  'call ask_user if you need something only the user knows.';

/** How Qwen writes a call where the server reads no function calls: the Hermes form of its chat template. */
const TOOL_CALL_FORM =
  'Call them as function calls. Where function calls are not available, write each call as ' +
  '<tool_call>{"name": <function-name>, "arguments": <args-json-object>}</tool_call>.';

export const QWEN_COMPUTER_USE_DIALECT: AgentDialect = {
  name: 'qwen-computer-use',
  tools: (parts) => [
    createQwenComputerUseTool({
      operator: parts.operator,
      screen: parts.screen,
      policy: parts.policy,
      confirm: parts.confirm,
      redactSecrets: parts.redactSecrets,
      screenshotSize: parts.screenshotSize,
      coordinateSpace: parts.coordinateSpace,
      operatorKind: parts.operator.describe().kind,
    }),
    createAskUserTool(parts.askUser),
    createGetHistoryImageTool(),
    createCropImageTool({ coordinateSpace: parts.coordinateSpace }),
    ...parts.extraTools,
  ],
  systemPrompt: buildQwenSystemPrompt,
  replyWithoutCalls: 'nudge',
  nudge: QWEN_NO_CALL_NUDGE,
  wire: QWEN_COMPUTER_USE_WIRE,
  // The answer tool and the looking tools, as for every dialect; the prompt also says how to write a call as text.
  answerPrompt: (input, request) => buildAnswerSystemPrompt(input, request.kind, [TOOL_CALL_FORM]),
};

/**
 * Sightline's rules (image ids, "unchanged", content is not instructions, refusals stand) in Qwen's terms:
 * the coordinates computer_use takes, and how a task ends.
 */
export function buildQwenSystemPrompt(input: SystemPromptInput): string {
  return [
    ...openingSection(input, [
      input.coordinateSpace === 'normalized-1000'
        ? 'computer_use takes coordinates in that 0–1000 space, which is why it calls the screen 1000x1000.'
        : 'computer_use takes coordinates in those pixels.',
    ]),
    '',
    '# Tools',
    // The first line of each: computer_use's full description (with the screen's resolution) is in its declaration.
    ...toolLines({ tools: input.tools.map((tool) => ({ name: tool.name, description: tool.description.split('\n')[0] ?? '' })) }),
    TOOL_CALL_FORM,
    '',
    ...IMAGE_SECTION,
    '',
    '# Rules',
    'Work step by step: one computer_use action per answer, then look at the new screenshot.',
    ...SAFETY_RULES,
    'When the task is done, call computer_use with action "terminate" and status "success"; when it cannot be done, ' +
      'with status "failure". When the user asked a question, give the answer with action "answer" and the text instead: ' +
      'it ends the task too. Use ask_user only when you need information that only the user has.',
  ].join('\n');
}
