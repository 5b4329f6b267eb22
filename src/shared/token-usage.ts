/**
 * What one model call cost and how it ended. Recorded per step (storage), shown in the timeline
 * (renderer), produced by the model adapters (src/main/llm): so it lives here, shared by all three.
 */
import { z } from 'zod';

export const TokenUsageSchema = z.object({
  /** All the input of the call, cached or not (Anthropic reports its parts apart; the adapter adds them up). */
  inputTokens: z.number().int().min(0),
  outputTokens: z.number().int().min(0),
  /** Input tokens served from the provider's prompt cache, where the provider reports them. */
  cachedInputTokens: z.number().int().min(0).optional(),
  /** Input tokens written to the provider's prompt cache by this call (Anthropic's cache_creation_input_tokens). */
  cacheWriteInputTokens: z.number().int().min(0).optional(),
});
export type TokenUsage = z.infer<typeof TokenUsageSchema>;

export const FINISH_REASONS = ['stop', 'length', 'tool-calls', 'content-filter', 'other'] as const;
export const FinishReasonSchema = z.enum(FINISH_REASONS);
export type FinishReason = z.infer<typeof FinishReasonSchema>;
