/**
 * Sightline's history → the conversation UI-TARS was trained on. The references are UI-TARS's deployment
 * guide (bytedance/UI-TARS README_deploy.md) and the UI-TARS-1.5 agent its README points to (OSWorld
 * mm_agents/uitars15_v1.py):
 *
 *   system     "You are a helpful assistant."
 *   user       the template, instruction included
 *   user       the screenshot
 *   assistant  "Thought: …\nAction: …" as the model wrote it
 *   user       the screenshot after the action
 *   …
 *
 * So: the system prompt (the template) becomes the first user message; an assistant message is its text
 * alone (the calls decoded from it are not sent back: the text is the action); the results of its calls
 * become ONE user message holding all their parts — the screenshot after the action, and whatever Sightline's
 * memory made of it: "unchanged: same as img_…", a placeholder of a folded image, an error — so dedup,
 * compaction and the token budget work as for every other dialect. No tool messages are sent: UI-TARS is
 * declared no tools.
 */
import type { AssistantMessage, Message, MessagePart, SystemMessage } from '../../../../shared/messages.js';
import { textOfParts } from '../../../../shared/messages.js';

/** The system message UI-TARS's own agents send; its template goes in the first user message. */
export const UI_TARS_SYSTEM_TEXT = 'You are a helpful assistant.';

const POINT_BOX = /(start_box|end_box)='\((\d+),\s*(\d+)\)'/g;

export function uiTarsConversation(messages: readonly Message[]): Message[] {
  const conversation: Message[] = [];
  let results: MessagePart[] = [];
  let templateSent = false;
  const flushResults = () => {
    if (results.length > 0) conversation.push({ role: 'user', parts: results });
    results = [];
  };
  for (const message of messages) {
    if (message.role === 'tool') {
      results.push(...message.parts);
      continue;
    }
    flushResults();
    if (message.role === 'system') {
      if (!templateSent) conversation.push({ role: 'system', parts: [{ type: 'text', text: UI_TARS_SYSTEM_TEXT }] });
      conversation.push(asInstruction(message));
      templateSent = true;
    } else if (message.role === 'assistant') {
      conversation.push(asWritten(message));
    } else {
      conversation.push(message);
    }
  }
  flushResults();
  return conversation;
}

function asInstruction(message: SystemMessage): Message {
  return { role: 'user', parts: message.parts };
}

/**
 * The assistant's answer as its text. The box tokens a server strips from the output (they are special
 * tokens) go back around `(x,y)` points, as README_deploy.md's `add_box_token` does for the history. Calls
 * the model made as tools (a session that began in another dialect) are written out, so the text still
 * says what was done.
 */
function asWritten(message: AssistantMessage): AssistantMessage {
  const text = textOfParts(message.parts).replace(POINT_BOX, "$1='<|box_start|>($2,$3)<|box_end|>'");
  const toolCalls = message.toolCalls.filter((call) => call.inText !== true).map((call) => `Called ${call.name} ${call.argumentsText}`);
  const written = [text, ...toolCalls].filter((line) => line !== '').join('\n');
  return { role: 'assistant', parts: written === '' ? [] : [{ type: 'text', text: written }], toolCalls: [] };
}
