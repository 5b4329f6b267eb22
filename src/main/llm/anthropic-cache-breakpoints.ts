/**
 * Where a request's prompt-cache breakpoints go. Anthropic caches only at blocks marked
 * `cache_control: {type: 'ephemeral'}`, at most four per request, and a breakpoint caches everything before
 * it in the order tools → system → messages. Sightline's history changes only where its zones say:
 *
 *   1. the end of the system prompt (with the tools before it): the same for the whole session;
 *   2. the last message of the earlier turns: the same for every request of a turn (they change only when
 *      a turn ends, or the budget folds them);
 *   3. the last message of the request, the running turn's latest step: the next request of the turn
 *      extends it, so it reads all this one wrote.
 *
 * So each request of a turn reads everything before its newest step from the cache. Three breakpoints,
 * one fewer than the limit, so a caller never has to choose which to drop. Pure, so the bench can price
 * the breakpoints the adapter really places.
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
  const indexes = new Set<number>();
  const earlierTurnsEnd = lastConversationIndexAtOrBefore(conversation, boundaries.earlierTurnsEnd);
  if (earlierTurnsEnd !== undefined) indexes.add(earlierTurnsEnd);
  const latest = conversation.at(-1);
  if (latest !== undefined) indexes.add(latest);
  return {
    systemPrompt: true,
    messageIndexes: [...indexes].sort((first, second) => first - second).slice(-(MAX_CACHE_BREAKPOINTS - 1)),
  };
}

/** The boundary may name the system message (no earlier turns yet): then there is no earlier-turns breakpoint. */
function lastConversationIndexAtOrBefore(conversation: readonly number[], boundary: number | undefined): number | undefined {
  if (boundary === undefined) return undefined;
  return conversation.filter((index) => index <= boundary).at(-1);
}
