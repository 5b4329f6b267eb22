/**
 * The flags of `sightline queue ls|status|cancel`, as commander hands them over. A leaf: commands/queue.ts reads them
 * at registration, and every `sightline` start registers every command, so nothing here may reach the queue client.
 */
import { z } from 'zod';

export const QueueCommandOptionsSchema = z.object({
  queue: z.string().optional(),
  json: z.boolean().optional(),
  limit: z.string().optional(),
});
export type QueueCommandOptions = z.infer<typeof QueueCommandOptionsSchema>;
