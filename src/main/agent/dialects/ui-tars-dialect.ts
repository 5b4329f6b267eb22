/**
 * `ui-tars`: UI-TARS's own protocol (UI-TARS 1.0 / 1.5 and the Doubao UI-TARS models, served by vLLM or any
 * OpenAI-compatible server). The model is given no tools: its prompt template holds the action grammar and
 * the task (src/main/llm/dialects/ui-tars/ui-tars-prompts.ts, the computer or the browser template by the
 * operator), it answers "Thought: … Action: …" in text, and the wire turns that text into calls of the three
 * tools below. `finished` ends the turn, `call_user` asks the person.
 *
 * Only computer, finish and ask_user: Sightline's recall tools (get_history_image, crop_image) and outside
 * tools (web_search, MCP tools) have no place in UI-TARS's grammar, which the model was trained on and cannot
 * be taught to extend; a configuration that asks for outside tools with this dialect is refused before any
 * model call. Its memory still works the Sightline way: the history it is sent is deduplicated, compacted
 * and held to the token budget, placeholders as text.
 *
 * A turn that answers a question keeps the template, with the answer's JSON asked for in `finished(content=…)`;
 * an action written in it anyway is answered, in the grammar's terms, that this step only looks.
 *
 * A reply without calls cannot happen: the wire turns an answer without an action into an `invalid` call
 * that tells the model the grammar, so `nudge` is only the agent loop's fallback.
 */
import { z } from 'zod';
import { COMPUTER_TOOL_NAME } from '../../../shared/actions.js';
import { UI_TARS_FINISH_TOOL, UI_TARS_WIRE } from '../../llm/dialects/ui-tars/ui-tars-wire.js';
import { uiTarsAnswerFormat } from '../answer-prompt.js';
import { createFinishContentAnswerTool } from '../tools/answer-tool.js';
import { uiTarsPrompt } from '../../llm/dialects/ui-tars/ui-tars-prompts.js';
import { createAskUserTool } from '../tools/ask-user-tool.js';
import { createComputerTool } from '../tools/computer-tool.js';
import { createFinishTool } from '../tools/finish-tool.js';
import type { ToolDefinition } from '../tools/tool-definition.js';
import type { AgentDialect } from './agent-dialect.js';

export const UI_TARS_DIALECT: AgentDialect = {
  name: 'ui-tars',
  tools: (parts) => [
    createComputerTool({ operator: parts.operator, screen: parts.screen, policy: parts.policy, confirm: parts.confirm, redactSecrets: parts.redactSecrets }),
    createFinishTool(),
    createAskUserTool(parts.askUser),
  ],
  systemPrompt: (input) => uiTarsPrompt(input.operatorKind, input.task),
  replyWithoutCalls: 'nudge',
  wire: UI_TARS_WIRE,
  // An answer is written in finished(content=…) as JSON: the template's own way to end with content.
  answerTools: (parts) => [createFinishContentAnswerTool(parts.answer, UI_TARS_FINISH_TOOL), lookingOnlyComputer()],
  answerPrompt: (input, request) => uiTarsPrompt(input.operatorKind, `${input.task}\n\n${uiTarsAnswerFormat(request, input.coordinateSpace)}`),
};

/**
 * Where an answering turn's actions go: the wire makes every UI-TARS action a `computer` call, and without this
 * the model would be told of a tool it never knew by that name. Nothing is done; the model is told how to answer.
 */
function lookingOnlyComputer(): ToolDefinition<Record<string, unknown>> {
  return {
    name: COMPUTER_TOOL_NAME,
    description: 'Not available while answering: this step only looks at the screen.',
    arguments: z.record(z.string(), z.unknown()),
    execute: async () => ({
      parts: [{ type: 'text', text: "This step only looks at the screen: nothing was done. Answer with finished(content='…') holding the JSON object asked for." }],
      isError: true,
    }),
  };
}
