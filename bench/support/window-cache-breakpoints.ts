/**
 * The best cache breakpoints a sliding window of images (keep the last N) can have on Anthropic, so that the
 * bench compares Sightline's breakpoints with the windows at their best, not with a careless placement.
 *
 * At most two of the four breakpoints are needed:
 *   1. on the last block of the longest prefix an earlier request wrote, so the read is as long as it can be
 *      whatever the 20-block lookback (no placement reads more: nothing longer is stored);
 *   2. on the last block this request shares with the next one, so everything a later request can read is
 *      written, and nothing more.
 *
 * Why 2 is the best write: a window drops its oldest image when the next screenshot comes, and the dropped
 * image never comes back, so the blocks from the oldest whole image on differ in every later request. No later
 * request shares more with this one than the next does; writing beyond that costs 1.25× for tokens never read
 * (1× if left unwritten). Writing less leaves tokens the next request must pay again at 1× (or write at 1.25×)
 * instead of reading at 0.1×, so each written token saves at least 0.9 for 0.25 more now. A client can place
 * it without seeing the next request: it is the block before the oldest whole image. With no next request
 * (the session's last) nothing is written.
 */
import type { AnthropicPromptCache, PromptPrefixes } from './anthropic-prompt-cache.js';

export function bestWindowBreakpoints(cache: AnthropicPromptCache, prompt: PromptPrefixes, next: PromptPrefixes | undefined): number[] {
  const readBlocks = cache.longestStoredPrefix(prompt);
  const sharedBlocks = next === undefined ? 0 : prompt.sharedBlocks(next);
  const breakpoints: number[] = [];
  if (readBlocks > 0) breakpoints.push(readBlocks - 1);
  if (sharedBlocks > readBlocks) breakpoints.push(sharedBlocks - 1);
  return breakpoints;
}
