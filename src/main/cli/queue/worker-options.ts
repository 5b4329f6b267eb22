/**
 * The flags of `sightline worker`, as commander hands them over. A leaf: commands/worker.ts reads them at
 * registration, and every `sightline` start registers every command, so nothing here may reach BullMQ, the team
 * store or the run assembly (run-worker.ts, loaded when the worker starts).
 */
import { z } from 'zod';

export const WorkerOptionsSchema = z.object({
  queue: z.string().optional(),
  store: z.string().optional(),
  blobs: z.string().optional(),
  concurrency: z.string().optional(),
  operator: z.string().optional(),
});
export type WorkerOptions = z.infer<typeof WorkerOptionsSchema>;
