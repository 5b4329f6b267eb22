/**
 * One tool call, from the model's raw text to a result: find the tool, parse and validate the arguments,
 * run it. Anything the model got wrong comes back as an error result (marked malformed, so the loop can
 * count it); a tool that throws comes back as an error result too, unless the turn is being stopped or
 * the disk or database failed under it (the loop stops the turn on those; see storage-failure.ts).
 */
import type { ToolCall } from '../../shared/messages.js';
import { invalidArgumentsMessage, parseToolArguments, unknownToolMessage } from './malformed-output.js';
import { toolParametersSchema } from './tools/model-tool-schema.js';
import { isStorageFailure } from './storage-failure.js';
import type { ToolRegistry } from './tools/registry.js';
import type { ToolCallScope, ToolResult } from './tools/tool-definition.js';
import { TurnStoppedError } from './turn-stopped-error.js';

export interface DispatchOutcome {
  result: ToolResult;
  /** The model's call could not be run as written (bad JSON, unknown tool, arguments off the schema). */
  malformed: boolean;
  /** The validated arguments, when they were valid. */
  arguments?: unknown;
  latencyMs: number;
}


export async function dispatchToolCall(registry: ToolRegistry, call: ToolCall, scope: ToolCallScope): Promise<DispatchOutcome> {
  const started = performance.now();
  const elapsed = () => Math.max(0, Math.round(performance.now() - started));
  const malformed = (text: string): DispatchOutcome => ({
    result: { parts: [{ type: 'text', text }], isError: true },
    malformed: true,
    latencyMs: elapsed(),
  });

  if (call.invalid !== undefined) return malformed(call.invalid);
  const tool = registry.get(call.name);
  if (tool === undefined) return malformed(unknownToolMessage(call.name, registry.names()));
  const parsed = parseToolArguments(call.name, call.argumentsText);
  if (!parsed.ok) return malformed(parsed.error);
  const validation = tool.arguments.safeParse(parsed.value);
  if (!validation.success) {
    return malformed(invalidArgumentsMessage(call.name, validation.error, parsed.value, toolParametersSchema(tool)));
  }
  try {
    const result = await tool.execute(validation.data, scope);
    return { result, malformed: false, arguments: validation.data, latencyMs: elapsed() };
  } catch (error) {
    if (scope.signal.aborted) throw new TurnStoppedError();
    if (isStorageFailure(error)) throw error;
    const message = error instanceof Error ? error.message : String(error);
    scope.emit({
      type: 'warning',
      sessionId: scope.sessionId,
      turnId: scope.turnId,
      at: Date.now(),
      message: `Tool ${call.name} failed: ${message}`,
    });
    return {
      result: { parts: [{ type: 'text', text: `The tool ${call.name} failed: ${message}` }], isError: true },
      malformed: false,
      arguments: validation.data,
      latencyMs: elapsed(),
    };
  }
}
