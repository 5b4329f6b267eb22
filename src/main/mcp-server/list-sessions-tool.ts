/**
 * `list_sessions` (served over MCP): Sightline's sessions, newest first: id, title, status, how many turns
 * and steps, when it last changed. What another agent reads to know what Sightline has done and seen.
 */
import { z } from 'zod';
import type { SessionSummary } from '../storage/index.js';
import type { ToolDefinition, ToolResult } from '../agent/index.js';

export const LIST_SESSIONS_TOOL_NAME = 'list_sessions';
const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 200;

const ListSessionsArgumentsSchema = z
  .object({
    limit: z.number().int().min(1).max(MAX_LIMIT).optional().describe(`How many sessions, newest first (default ${DEFAULT_LIMIT}).`),
    offset: z.number().int().min(0).optional().describe('How many of the newest to skip, for paging.'),
  })
  .strict();
export type ListSessionsArguments = z.infer<typeof ListSessionsArgumentsSchema>;

export function createListSessionsTool(): ToolDefinition<ListSessionsArguments> {
  return {
    name: LIST_SESSIONS_TOOL_NAME,
    description:
      "List Sightline's sessions, newest first: id, title, status, turns, steps and last change. The session " +
      'of this MCP connection is marked.',
    arguments: ListSessionsArgumentsSchema,
    execute: async ({ limit = DEFAULT_LIMIT, offset = 0 }, scope): Promise<ToolResult> => {
      const sessions = scope.storage.sessions.list({ limit, offset });
      const total = scope.storage.sessions.count();
      const lines = sessions.map((session) => describeSession(session, session.id === scope.sessionId));
      const shown = sessions.length === 0 ? 'none' : `${offset + 1}–${offset + sessions.length}`;
      return {
        parts: [{ type: 'text', text: [`Sessions ${shown} of ${total}, newest first:`, ...lines].join('\n') }],
        record: { result: { ok: true, sessions: sessions.map((session) => session.id), total } },
      };
    },
  };
}

function describeSession(session: SessionSummary, current: boolean): string {
  const counts = `${session.turnCount} turn${session.turnCount === 1 ? '' : 's'}, ${session.stepCount} step${session.stepCount === 1 ? '' : 's'}`;
  const operator = session.operator === null ? '' : `, ${session.operator}`;
  return `${session.id}  ${session.status}  ${counts}${operator}, updated ${session.updatedAt}  ${JSON.stringify(session.title)}${current ? '  (this connection)' : ''}`;
}
