/**
 * The confirmation gate: asks the person (or the rule, or the flag) through the handler, with the events the
 * timeline and the CLI show. Risky computer actions come through here, OpenAI's pending safety checks, and
 * the calls of other tools with side effects (tool-confirmation.ts).
 */
import { randomUUID } from 'node:crypto';
import { isComputerAction, type StepAction } from '../../shared/actions.js';
import { redactStrings } from '../../shared/secret-redaction.js';
import { untilAborted } from './abortable.js';
import type { ConfirmationAnswer, ConfirmationHandler } from './agent-contract.js';
import type { ToolCallScope } from './tools/tool-definition.js';

export async function askConfirmation(
  asked: StepAction,
  reason: string,
  call: ToolCallScope,
  confirm: ConfirmationHandler,
): Promise<ConfirmationAnswer> {
  // An action that completes a secret spelled over several calls is shown, like the step it becomes, masked.
  const action = call.maskSpelledSecret !== undefined && isComputerAction(asked) ? call.maskSpelledSecret(asked) : asked;
  const requestId = randomUUID();
  const scope = { sessionId: call.sessionId, turnId: call.turnId };
  call.emit({ type: 'confirmation-requested', ...scope, at: Date.now(), requestId, action, reason });
  // The handler shows the request to a person (the terminal, the app's pending request): redacted like the event.
  const shown = call.redact === undefined ? { action, reason } : redactStrings({ action, reason }, call.redact);
  const answer = normalizeAnswer(await untilAborted(confirm({ ...scope, requestId, ...shown }, call.signal), call.signal));
  call.emit({ type: 'confirmation-answered', ...scope, at: Date.now(), requestId, approved: answer.approved, by: answer.by });
  return answer;
}

/** What the model is told when the gate refused: the answerer's words, or that the user refused and why. */
export function refusalText(answer: ConfirmationAnswer, reason: string): string {
  return answer.refusal ?? `the user refused this action: ${reason}. Nothing was done; do not try to get around the refusal.`;
}

function normalizeAnswer(answer: boolean | ConfirmationAnswer): ConfirmationAnswer {
  return typeof answer === 'boolean' ? { approved: answer, by: 'user' } : answer;
}
