/** Summing what the model calls of a turn cost. */
import type { TokenUsage } from '../../shared/token-usage.js';

export function emptyUsage(): TokenUsage {
  return { inputTokens: 0, outputTokens: 0 };
}

export function addUsage(total: TokenUsage, usage: TokenUsage): TokenUsage {
  const cached = addOptional(total.cachedInputTokens, usage.cachedInputTokens);
  const cacheWrite = addOptional(total.cacheWriteInputTokens, usage.cacheWriteInputTokens);
  return {
    inputTokens: total.inputTokens + usage.inputTokens,
    outputTokens: total.outputTokens + usage.outputTokens,
    ...(cached === undefined ? {} : { cachedInputTokens: cached }),
    ...(cacheWrite === undefined ? {} : { cacheWriteInputTokens: cacheWrite }),
  };
}

/** A count no call reported stays unreported, rather than becoming a zero that claims the provider said so. */
function addOptional(total: number | undefined, count: number | undefined): number | undefined {
  return total === undefined && count === undefined ? undefined : (total ?? 0) + (count ?? 0);
}
