/**
 * A `computer_call` output item of OpenAI's Responses API as a call of the request's computer tool. The
 * arguments keep the model's own shapes (`action`, or the batched `actions` list, and the
 * `pending_safety_checks`), so the history goes back to the model as it wrote it; the tool itself reads and
 * checks them (agent/tools/openai-computer-tool.ts). Nothing the item holds makes this throw: an item too
 * broken to be a call is a call marked `invalid`, which the model is told about.
 *
 * Shapes: the `openai` package's ResponseComputerToolCall (from the API reference) and the computer use
 * guide (https://platform.openai.com/docs/guides/tools-computer-use).
 */
import type { ResponseComputerToolCall } from 'openai/resources/responses/responses';
import type { ToolCall } from '../../shared/messages.js';

/** The name a computer call gets when the request offered no computer tool (it is then answered as invalid). */
const UNOFFERED_COMPUTER_TOOL = 'computer';

export function computerToolCall(item: ResponseComputerToolCall, toolName: string | undefined, index: number): ToolCall {
  const record = item as unknown as Record<string, unknown>;
  const itemId = nonEmptyString(record.id);
  const callId = nonEmptyString(record.call_id);
  const argumentsValue = {
    ...(record.action !== undefined ? { action: record.action } : {}),
    ...(record.actions !== undefined ? { actions: record.actions } : {}),
    pending_safety_checks: record.pending_safety_checks ?? [],
  };
  const call: ToolCall = {
    // A call must be answered by its id; one the model did not give is made up, and the call cannot run.
    id: callId ?? itemId ?? `computer_call_${index + 1}`,
    name: toolName ?? UNOFFERED_COMPUTER_TOOL,
    argumentsText: JSON.stringify(argumentsValue),
  };
  if (itemId !== undefined) call.providerData = { itemId };
  const problem =
    toolName === undefined
      ? 'The model answered with a computer_call, but this request offered no computer tool.'
      : callId === undefined
        ? 'The computer_call has no call_id, so its result could not be sent back; nothing was done.'
        : undefined;
  if (problem !== undefined) call.invalid = problem;
  return call;
}

function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
