/**
 * Where a request's prompt-cache breakpoints go. Anthropic caches only at blocks marked
 * `cache_control: {type: 'ephemeral'}`, at most four per request; a breakpoint caches everything before
 * it in the order tools → system → messages, and a later request reads a cached prefix only where one of its
 * own breakpoints (or a block up to 20 before one) ends it. Sightline's history changes only where its zones
 * say, so the breakpoints go there, most useful first:
 *
 *   1. the last message the next request of the turn repeats as it is (the one before the present screen's,
 *      which the next request shows as a reduced view), else the last message of the request: the next
 *      request extends it, so it reads all this one wrote, and the present screen is not written at the
 *      write premium only to change;
 *   2. the end of the running turn's folded chunks (before the first fold, of its first screen's message):
 *      the next fold changes only what follows it, and the request that folds reads up to it (it lies within
 *      20 blocks of the new chunk's end: chunks are at most six steps, active-zone-shape.ts);
 *   3. the last message of the earlier turns: the same for every request of a turn, should the running turn
 *      change under the next request before a chunk folded (the first fold, a budget fold);
 *   4. the end of the turns settled now, written for the next turn's first request;
 *   5. the end of the turns that were settled in the previous turn: compaction at a turn's end changes only
 *      the newest earlier turns, so the first request of a turn reads everything before them (the previous
 *      turn wrote it at its breakpoint 4). A turn's first request has no folded chunks' end, so it keeps this
 *      one; later requests have, and the turn's first request has read this one already, so it gives way;
 *   6. the end of the system prompt (with the tools before it): the same for the whole session; any read of a
 *      later breakpoint includes it, so it is the one dropped when four of the others fall apart.
 *
 * Pure, so the bench can price the breakpoints the adapter really places.
 */
import type { Message } from '../../shared/messages.js';
import type { CacheBoundaries } from './model-adapter.js';

/** Anthropic's limit of breakpoints per request. */
export const MAX_CACHE_BREAKPOINTS = 4;

export interface CacheBreakpoints {
  /** Mark the end of the system prompt (or, without one, of the tools). */
  systemPrompt: boolean;
  /** Indexes into the request's messages whose last content block is marked; ascending, never a system message. */
  messageIndexes: number[];
}

export function cacheBreakpoints(messages: readonly Message[], boundaries: CacheBoundaries = {}): CacheBreakpoints {
  const conversation = messages.flatMap((message, index) => (message.role === 'system' ? [] : [index]));
  const latest = boundaries.nextStepPrefixEnd === undefined ? conversation.at(-1) : lastConversationIndexAtOrBefore(conversation, boundaries.nextStepPrefixEnd);
  const byUsefulness = [
    latest,
    lastConversationIndexAtOrBefore(conversation, boundaries.foldedChunksEnd),
    lastConversationIndexAtOrBefore(conversation, boundaries.earlierTurnsEnd),
    lastConversationIndexAtOrBefore(conversation, boundaries.settledTurnsEnd),
    lastConversationIndexAtOrBefore(conversation, boundaries.previouslySettledTurnsEnd),
  ];
  const indexes = [...new Set(byUsefulness.filter((index) => index !== undefined))].slice(0, MAX_CACHE_BREAKPOINTS);
  return {
    systemPrompt: indexes.length < MAX_CACHE_BREAKPOINTS,
    messageIndexes: indexes.sort((first, second) => first - second),
  };
}

/** The boundary may name the system message (no earlier turns yet): then there is no earlier-turns breakpoint. */
function lastConversationIndexAtOrBefore(conversation: readonly number[], boundary: number | undefined): number | undefined {
  if (boundary === undefined) return undefined;
  return conversation.filter((index) => index <= boundary).at(-1);
}
