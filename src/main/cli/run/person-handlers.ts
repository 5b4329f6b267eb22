/**
 * How `sightline run` lets a person approve a risky action or answer the model's question. With a
 * terminal it asks; without one (a script, a CI job) nobody can answer, so a risky action is refused
 * unless --yes said in advance to allow it, and a question goes unanswered.
 */
import { describeForApproval } from '../../../shared/action-descriptions.js';
import type { AskUserHandler, ConfirmationHandler } from '../../agent/index.js';
import type { CliIo } from '../io.js';
import { terminalLine } from '../../../shared/terminal-text.js';

export type TerminalQuestion = (question: string, signal: AbortSignal) => Promise<string | undefined>;

export interface PersonHandlerOptions {
  io: CliIo;
  stderr: (text: string) => void;
  /** --yes: approve risky actions without asking. */
  assumeYes: boolean;
  ask: TerminalQuestion;
}

export function confirmationHandler(options: PersonHandlerOptions): ConfirmationHandler {
  return async (request, signal) => {
    // The action's text and the reason are the model's (or a provider's) words: one line, nothing a terminal obeys.
    const what = terminalLine(`${describeForApproval(request.action)} (${request.reason})`);
    if (options.assumeYes) {
      options.stderr(`allowed by --yes: ${what}\n`);
      return { approved: true, by: 'flag' };
    }
    if (!options.io.isInteractive) {
      options.stderr(`refused: ${what}. There is no terminal to ask; pass --yes to allow risky actions.\n`);
      return { approved: false, by: 'policy' };
    }
    const answer = await options.ask(`Allow ${what}? [y/N] `, signal);
    const approved = answer !== undefined && /^\s*y(es)?\s*$/i.test(answer);
    if (!approved && !signal.aborted) options.stderr(`refused: ${what}\n`);
    return { approved, by: 'user' };
  };
}

export function askUserHandler(options: PersonHandlerOptions): AskUserHandler {
  return async (question, _context, signal) => {
    if (!options.io.isInteractive) {
      options.stderr('(no terminal to answer the question; the model goes on without an answer)\n');
      return undefined;
    }
    // The question itself is already on screen: the ask-user event's progress line shows it.
    const answer = await options.ask('your answer> ', signal);
    return answer === undefined || answer.trim() === '' ? undefined : answer.trim();
  };
}
