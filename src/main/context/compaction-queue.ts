/**
 * One compaction at a time per session. A turn that ends while an earlier turn of its session is still
 * being compacted waits its turn in a queue (it is never dropped); sessions do not wait for each other.
 * Asking for a turn already queued or running joins that work, and a turn already compacted is a no-op,
 * so each turn is compacted exactly once.
 */
import type { Storage } from '../storage/index.js';
import { compactTurn, type CompactionResult, type CompactionSeams } from './compact-turn.js';

export interface CompactionQueueOptions {
  storage: Storage;
  seams?: CompactionSeams;
}

export class CompactionQueue {
  /** The last compaction queued per session: the next one starts when it settles. */
  private readonly tails = new Map<string, Promise<unknown>>();
  private readonly queued = new Map<string, Promise<CompactionResult>>();

  constructor(private readonly options: CompactionQueueOptions) {}

  /** Compacts the turn after every compaction queued before it in its session; resolves when it is done. */
  compact(sessionId: string, turnId: string): Promise<CompactionResult> {
    const existing = this.queued.get(turnId);
    if (existing !== undefined) return existing;
    const previous = this.tails.get(sessionId) ?? Promise.resolve();
    // A failed compaction must not hold up the next one; its own caller sees the failure.
    const work = previous
      .catch(() => undefined)
      .then(() => compactTurn({ storage: this.options.storage, turnId, sessionId, seams: this.options.seams }));
    this.queued.set(turnId, work);
    this.tails.set(sessionId, work);
    const settle = () => {
      this.queued.delete(turnId);
      if (this.tails.get(sessionId) === work) this.tails.delete(sessionId);
    };
    work.then(settle, settle);
    return work;
  }

  /** Resolves once every compaction queued so far has settled (for shutdown and tests). */
  async idle(): Promise<void> {
    await Promise.allSettled([...this.tails.values()]);
  }
}

/**
 * The turn-end hook that compacts the turn (it has the shape of the agent's TurnEndHook). It waits for
 * the compaction, so the session's next turn starts from a compacted history.
 */
export function createCompactionHook(queue: CompactionQueue): (turn: { sessionId: string; turnId: string }) => Promise<void> {
  return async (turn) => {
    await queue.compact(turn.sessionId, turn.turnId);
  };
}
