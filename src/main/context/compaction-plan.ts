/**
 * A compaction's plan, as the journal keeps it: enough to finish the work after a crash without looking
 * at anything that the work itself changes.
 */
import { z } from 'zod';
import { MessagePartSchema } from '../../shared/messages.js';

export const CompactionPlanSchema = z.object({
  /** Images of the turn that stay whole (their rows go to the compact zone). */
  anchors: z.array(z.object({ imageId: z.string(), reasons: z.array(z.enum(['first', 'last', 'error'])) })),
  /** Images of the turn whose files move to cold storage (their rows go to the offloaded zone). */
  folded: z.array(z.string()),
  /** Messages whose parts change (placeholders for folded images), with their new parts. */
  messages: z.array(z.object({ messageId: z.string(), parts: z.array(MessagePartSchema) })),
  /** The turn's outcome in the model's words, for the turn row. */
  summary: z.string().nullable(),
});

export type CompactionPlan = z.infer<typeof CompactionPlanSchema>;
