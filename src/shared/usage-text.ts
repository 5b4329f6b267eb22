/**
 * How a model call's cost reads wherever it is shown (the timeline, `sightline sessions show`): input with
 * what the provider's prompt cache served (read) and took (written), then output. One wording for both,
 * each with its own way of writing a number (short in the timeline, exact in the terminal).
 */

/** Summed input and output tokens, with the cache's share of the input (0 when no call reported any). */
export interface UsageTotals {
  input: number;
  output: number;
  cachedInput: number;
  cacheWriteInput: number;
}

/**
 * "12,340 in (11,900 cached, 300 written) · 210 out". The cache parts are left out when the provider
 * reported none, so a provider without a prompt cache reads as plain input and output.
 */
export function usageText(usage: UsageTotals, formatCount: (count: number) => string): string {
  const cache = [
    usage.cachedInput > 0 ? `${formatCount(usage.cachedInput)} cached` : null,
    usage.cacheWriteInput > 0 ? `${formatCount(usage.cacheWriteInput)} written` : null,
  ].filter((part) => part !== null);
  const input = cache.length === 0 ? `${formatCount(usage.input)} in` : `${formatCount(usage.input)} in (${cache.join(', ')})`;
  return `${input} · ${formatCount(usage.output)} out`;
}

/** A step's stored usage as totals; null when its model call reported none (only a reply's first step carries it). */
export function stepUsageTotals(step: {
  inputTokens: number | null;
  outputTokens: number | null;
  cachedInputTokens: number | null;
  cacheWriteInputTokens: number | null;
}): UsageTotals | null {
  if (step.inputTokens === null && step.outputTokens === null) return null;
  return {
    input: step.inputTokens ?? 0,
    output: step.outputTokens ?? 0,
    cachedInput: step.cachedInputTokens ?? 0,
    cacheWriteInput: step.cacheWriteInputTokens ?? 0,
  };
}
