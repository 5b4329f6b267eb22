/**
 * What one model call cost and how it ended. Recorded per step (storage), shown in the timeline
 * (renderer), produced by the model adapters (src/main/llm): so it lives here, shared by all three.
 */
import { z } from 'zod';

export const TokenUsageSchema = z.object({
  /**
   * The whole prompt, its cached and cache-written parts included (OpenAI's prompt_tokens; for Anthropic,
   * whose input_tokens leaves them out, input_tokens + cache_read_input_tokens + cache_creation_input_tokens),
   * so the uncached input is this less the cached count wherever it is shown.
   */
  inputTokens: z.number().int().min(0),
  outputTokens: z.number().int().min(0),
  /** Input tokens served from the provider's prompt cache, where the provider reports them. */
  cachedInputTokens: z.number().int().min(0).optional(),
  /** Input tokens written to the provider's prompt cache by this call (Anthropic's cache_creation_input_tokens, billed above plain input). */
  cacheWriteInputTokens: z.number().int().min(0).optional(),
});
export type TokenUsage = z.infer<typeof TokenUsageSchema>;

export const FINISH_REASONS = ['stop', 'length', 'tool-calls', 'content-filter', 'other'] as const;
export const FinishReasonSchema = z.enum(FINISH_REASONS);
export type FinishReason = z.infer<typeof FinishReasonSchema>;
