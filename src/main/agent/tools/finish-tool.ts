/** `finish`: the model says the task is done (or cannot be done) and ends the turn with a summary. */
import { z } from 'zod';
import type { ToolDefinition } from './tool-definition.js';

export const FINISH_TOOL_NAME = 'finish';

const FinishArgumentsSchema = z
  .object({
    summary: z.string().min(1).describe('What was done, or why it could not be done, in a sentence or two for the user.'),
    success: z.boolean().describe('true when the task is done; false when it cannot be done.'),
  })
  .strict();
export type FinishArguments = z.infer<typeof FinishArgumentsSchema>;

export function createFinishTool(): ToolDefinition<FinishArguments> {
  return {
    name: FINISH_TOOL_NAME,
    description: 'End the task: call this once the task is done, or when it cannot be done, with a short summary.',
    arguments: FinishArgumentsSchema,
    execute: async ({ summary, success }) => ({
      parts: [{ type: 'text', text: success ? 'Finished.' : 'Finished without success.' }],
      endTurn: { status: success ? 'finished' : 'failed', summary },
    }),
  };
}
