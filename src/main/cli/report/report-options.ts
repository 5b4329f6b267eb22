/** `sightline report`'s flags, as commander hands them over. */
import { z } from 'zod';

export const ReportOptionsSchema = z.object({
  html: z.string().optional(),
  gif: z.string().optional(),
  maxSize: z.string().optional(),
  store: z.string().optional(),
  blobs: z.string().optional(),
});
export type ReportCommandOptions = z.infer<typeof ReportOptionsSchema>;
