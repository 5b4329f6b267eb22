/**
 * `ask_user`: the model asks the person a question; the answer comes back as the tool result. When nobody
 * can answer (headless without a terminal), the model is told to decide itself or finish.
 */
import { z } from 'zod';
import { randomUUID } from 'node:crypto';
import { untilAborted } from '../abortable.js';
import type { AskUserHandler } from '../agent-contract.js';
import type { ToolDefinition } from './tool-definition.js';

export const ASK_USER_TOOL_NAME = 'ask_user';

export const NO_USER_AVAILABLE = 'no user is available to answer; decide yourself or finish';

const AskUserArgumentsSchema = z
  .object({ question: z.string().min(1).max(2000).describe('The question, written for the user.') })
  .strict();
export type AskUserArguments = z.infer<typeof AskUserArgumentsSchema>;

export function createAskUserTool(askUser: AskUserHandler): ToolDefinition<AskUserArguments> {
  return {
    name: ASK_USER_TOOL_NAME,
    description:
      'Ask the user a question when the task is ambiguous or needs information only they have (not for confirmation of actions).',
    arguments: AskUserArgumentsSchema,
    execute: async ({ question }, call) => {
      const requestId = randomUUID();
      const scope = { sessionId: call.sessionId, turnId: call.turnId };
      call.emit({ type: 'ask-user', ...scope, at: Date.now(), requestId, question });
      // The handler shows the question to a person (the app's pending question): redacted like the event.
      const shown = call.redact === undefined ? question : call.redact(question);
      const answer = await untilAborted(askUser(shown, { ...scope, requestId }, call.signal), call.signal);
      if (answer === undefined) return { parts: [{ type: 'text', text: NO_USER_AVAILABLE }], isError: true };
      call.emit({ type: 'ask-user-answered', ...scope, at: Date.now(), requestId, answer });
      return { parts: [{ type: 'text', text: `The user answered: ${answer}` }] };
    },
  };
}
