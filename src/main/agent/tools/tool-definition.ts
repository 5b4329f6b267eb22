/**
 * One tool the model may call. Built-in tools (computer, finish, ask_user, recall tools) and outside ones
 * (web_search, MCP servers' tools) share this shape, so the registry treats them alike.
 */
import type { z } from 'zod';
import type { AgentEvent } from '../../../shared/events.js';
import type { MessagePart } from '../../../shared/messages.js';
import type { Storage } from '../../storage/storage.js';

export interface ToolContext {
  sessionId: string;
  turnId: string;
  signal: AbortSignal;
  storage: Storage;
  emit: (event: AgentEvent) => void;
}

/**
 * What a tool call came to. Its parts go back to the model as the tool result (images included).
 * `isError` tells the model the call failed; `endTurn` ends the turn after this call (finish does).
 */
export interface ToolResult {
  parts: MessagePart[];
  isError?: boolean;
  endTurn?: { status: 'finished' | 'failed'; summary: string };
}

export interface ToolDefinition<Arguments = unknown> {
  /** Unique in the registry; outside tools are namespaced (`<server>__<tool>`). */
  name: string;
  description: string;
  /** Validates the model's arguments; its JSON schema is what the model is shown. */
  arguments: z.ZodType<Arguments>;
  /** A JSON schema to show instead of the one derived from `arguments` (MCP tools bring their own). */
  parametersJsonSchema?: Record<string, unknown>;
  execute(argumentsValue: Arguments, context: ToolContext): Promise<ToolResult>;
}
