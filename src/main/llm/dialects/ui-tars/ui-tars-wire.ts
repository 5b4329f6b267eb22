/**
 * The `ui-tars` dialect's wire. The request declares no tools (UI-TARS's action grammar is in its prompt
 * template) and carries the history in UI-TARS's form (ui-tars-conversation.ts). The answer's text becomes
 * calls of the agent's tools, marked `inText` (the text itself stays the assistant message):
 *
 *   click, left_double, right_single, drag, hotkey, type, scroll, wait → `computer` (a ComputerAction)
 *   finished(content=…)  → `finish`, success, the content (else the thought) as the summary
 *   call_user()          → `ask_user`, the thought as the question
 *   anything unreadable  → one call marked `invalid` with what was wrong and the grammar; it is answered as
 *                          malformed, reaches the model as a user text, and counts toward agent.maxSteps.
 *
 * An answer always decodes to at least one call, so a reply "without calls" never reaches the loop: the
 * model is told what the grammar is instead of being nudged.
 */
import { randomUUID } from 'node:crypto';
import { COMPUTER_TOOL_NAME } from '../../../../shared/actions.js';
import { textOfParts, type ToolCall } from '../../../../shared/messages.js';
import type { CompletedAssistantMessage, ModelRequest } from '../../model-adapter.js';
import type { DialectWire } from '../dialect-wire.js';
import type { UiTarsStep } from './ui-tars-actions.js';
import { uiTarsConversation } from './ui-tars-conversation.js';
import { maskUiTarsWrittenCall } from './ui-tars-masking.js';
import { UI_TARS_GRAMMAR_REMINDER } from './ui-tars-prompts.js';
import { parseUiTarsReply } from './ui-tars-reply.js';

/** The agent's tools the calls are made to (agent/tools/finish-tool.ts and ask-user-tool.ts). */
export const UI_TARS_FINISH_TOOL = 'finish';
export const UI_TARS_ASK_USER_TOOL = 'ask_user';

/** What ask_user and a raw action kept in a call may hold. */
const LONGEST_QUESTION = 2000;
const LONGEST_KEPT_TEXT = 2000;

export const UI_TARS_WIRE: DialectWire = {
  dialect: 'ui-tars',
  encodeRequest: encodeUiTarsRequest,
  decodeReply: decodeUiTarsReply,
  maskWrittenCall: maskUiTarsWrittenCall,
};

export function encodeUiTarsRequest(request: ModelRequest): ModelRequest {
  const { tools: _tools, toolChoice: _toolChoice, ...rest } = request;
  return { ...rest, messages: uiTarsConversation(request.messages) };
}

export function decodeUiTarsReply(reply: CompletedAssistantMessage): CompletedAssistantMessage {
  const parsed = parseUiTarsReply(textOfParts(reply.parts));
  const calls = parsed.steps.map((step) => callOfStep(step, parsed.thought));
  return { ...reply, toolCalls: [...calls, ...reply.toolCalls] };
}

function callOfStep(step: UiTarsStep, thought: string): ToolCall {
  const id = `call_${randomUUID()}`;
  switch (step.kind) {
    case 'computer':
      return { id, name: COMPUTER_TOOL_NAME, argumentsText: JSON.stringify(step.action), inText: true };
    case 'finished': {
      const summary = step.content || clipped(thought, LONGEST_KEPT_TEXT) || 'Finished.';
      return { id, name: UI_TARS_FINISH_TOOL, argumentsText: JSON.stringify({ summary, success: true }), inText: true };
    }
    case 'call_user': {
      const question = clipped(thought, LONGEST_QUESTION) || 'The model asked for help (call_user) without saying why. What should it do?';
      return { id, name: UI_TARS_ASK_USER_TOOL, argumentsText: JSON.stringify({ question }), inText: true };
    }
    case 'unreadable':
      return {
        id,
        name: COMPUTER_TOOL_NAME,
        argumentsText: clipped(step.written, LONGEST_KEPT_TEXT),
        invalid: `Could not read your action: ${step.error}. ${UI_TARS_GRAMMAR_REMINDER}`,
        inText: true,
      };
  }
}

function clipped(text: string, longest: number): string {
  return text.length > longest ? `${text.slice(0, longest - 1)}…` : text;
}
