/** The flags of `sightline mcp`, as commander hands them over; the configuration flags are checked by loadCliConfig. */
import { z } from 'zod';

export const McpOptionsSchema = z.object({
  operator: z.string().optional(),
  url: z.string().optional(),
  allowFileUrls: z.boolean().optional(),
  confirm: z.string().optional(),
  yes: z.boolean().optional(),
});
export type McpOptions = z.infer<typeof McpOptionsSchema>;
