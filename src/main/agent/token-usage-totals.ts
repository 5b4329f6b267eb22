/** Summing what the model calls of a turn cost. */
import type { TokenUsage } from '../../shared/token-usage.js';

export function emptyUsage(): TokenUsage {
  return { inputTokens: 0, outputTokens: 0 };
}

export function addUsage(total: TokenUsage, usage: TokenUsage): TokenUsage {
  const cached =
    total.cachedInputTokens === undefined && usage.cachedInputTokens === undefined
      ? undefined
      : (total.cachedInputTokens ?? 0) + (usage.cachedInputTokens ?? 0);
  return {
    inputTokens: total.inputTokens + usage.inputTokens,
    outputTokens: total.outputTokens + usage.outputTokens,
    ...(cached === undefined ? {} : { cachedInputTokens: cached }),
  };
}
