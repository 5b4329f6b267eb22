/**
 * Answer turns (TurnRequest.answer) for the dialect tests: the same three questions asked of each dialect, the
 * schema an extraction is checked against, and what a turn's stored answer looks like.
 */
import type { Agent, AnswerRequest, TurnOutcome } from '../../src/main/agent/agent-contract.js';
import { userText } from '../../src/shared/messages.js';

/** The value an extraction asks for: the cart's total, a number. */
export const TOTAL_SCHEMA = { type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'], additionalProperties: false };

export function ask(agent: Agent, sessionId: string | undefined, text: string, answer: AnswerRequest): Promise<TurnOutcome> {
  return agent.runTurn({
    ...(sessionId === undefined ? {} : { sessionId }),
    request: userText(text),
    answer,
    stepKind: answer.kind === 'value' ? 'extract' : answer.kind === 'until' ? 'wait_for' : 'assert',
  });
}

export const assertion = (agent: Agent, sessionId: string | undefined, statement: string) => ask(agent, sessionId, statement, { kind: 'verdict' });

export const extraction = (agent: Agent, sessionId: string | undefined, what: string) => ask(agent, sessionId, what, { kind: 'value', schema: TOTAL_SCHEMA });

/** An answer's arguments as the model writes them. */
export function verdict(value: boolean, reason: string, evidence: string[] = []): Record<string, unknown> {
  return { verdict: value, reason, evidence };
}

export function value(answer: unknown, reason: string, evidence: string[] = []): Record<string, unknown> {
  return { value: answer, reason, evidence };
}
