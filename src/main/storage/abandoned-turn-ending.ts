/**
 * Ending a turn its process left running (the app decides which are abandoned; see app/abandoned-turns.ts).
 * The turn ends as stopped and, when none of the session's other turns still runs, the session is idle
 * again: both in one transaction, so a crash never leaves an ended turn under a session marked running.
 */
import type { SessionsRepository } from './repositories/sessions.js';
import type { TurnsRepository } from './repositories/turns.js';
import type { Transaction } from './transaction.js';

export interface AbandonedTurnStores {
  turns: TurnsRepository;
  sessions: SessionsRepository;
  transaction: Transaction;
}

export function endAbandonedTurn(stores: AbandonedTurnStores, turn: { id: string; sessionId: string }): void {
  const { turns, sessions, transaction } = stores;
  transaction(() => {
    turns.end(turn.id, 'stopped');
    const stillRunning = turns.listRunning().some((other) => other.sessionId === turn.sessionId);
    if (!stillRunning && sessions.get(turn.sessionId)?.status === 'running') sessions.setStatus(turn.sessionId, 'idle');
  });
}
