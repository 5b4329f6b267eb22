/**
 * OpenAI's computer tool in a Responses request's input: each call goes back as the `computer_call` the
 * model made, right after the reasoning items that preceded it (requests are stateless, `store: false`, so
 * reasoning travels encrypted and in full), and its result as a `computer_call_output` holding a
 * screenshot, with the safety checks a person acknowledged and, for the preview tool, the page's URL.
 *
 * A `computer_call_output` holds a screenshot and nothing else, so a call whose result has none (the
 * arguments were malformed, a person refused its safety check, its screenshot was folded into a
 * placeholder by compaction or the token budget) goes back as text instead: the call as an assistant
 * message, its result as a user message, and its reasoning is left out (it must be followed by its call).
 * What a result says beyond its screenshot (what the action did, the image's id, an error) follows as a
 * user message.
 *
 * Sources: the Responses API reference and the `openai` package's types (ResponseComputerToolCall,
 * ResponseInputItem.ComputerCallOutput, ResponseReasoningItem); the computer use guide
 * (https://platform.openai.com/docs/guides/tools-computer-use) for `current_url` and acknowledged checks.
 */
import type {
  ComputerActionList,
  EasyInputMessage,
  ResponseComputerToolCall,
  ResponseComputerToolCallOutputScreenshot,
  ResponseInputContent,
  ResponseInputItem,
  ResponseReasoningItem,
} from 'openai/resources/responses/responses';
import type { MessagePart, SafetyCheck, ToolCall, ToolMessage } from '../../shared/messages.js';
import { imagePartUrl } from './media-encoding.js';
import type { OpenAiComputerToolDeclaration } from './model-adapter.js';

export interface ComputerToolInput {
  /** The tool's name in Sightline's history (the registry's name for it). */
  name: string;
  toolType: OpenAiComputerToolDeclaration['toolType'];
}

/** Longest text a call sent as text keeps of its arguments: it describes, it need not replay. */
const MAX_CALL_TEXT = 2_000;

/** The reasoning items that came before a call, as the API takes them back. */
export function reasoningItemsOf(call: ToolCall): ResponseReasoningItem[] {
  return (call.providerData?.reasoning ?? []).map((reasoning) => ({
    type: 'reasoning',
    id: reasoning.id,
    encrypted_content: reasoning.encryptedContent,
    summary: reasoning.summary.map((text) => ({ type: 'summary_text', text })),
  }));
}

/**
 * The items a computer call goes back as: its reasoning and itself when its result has a screenshot
 * (`native`), otherwise one assistant message describing it.
 */
export function computerCallItems(call: ToolCall, result: ToolMessage | undefined): { native: boolean; items: ResponseInputItem[] } {
  const native = nativeComputerCall(call, result);
  if (native !== undefined) return { native: true, items: [...reasoningItemsOf(call), native] };
  return { native: false, items: [computerCallAsText(call)] };
}

/**
 * A computer call as one assistant message describing it, without its reasoning. Also how an earlier turn's
 * computer calls go back in a request that declares no computer tool (a turn that answers a question): a
 * `computer_call` item needs the tool, and as a function call it would stand for a function never offered,
 * after reasoning that was followed by something else.
 */
export function computerCallAsText(call: ToolCall): EasyInputMessage {
  return { role: 'assistant', content: `Computer call ${call.id}: ${clipped(call.argumentsText)}` };
}

/**
 * Whether a call in the history was OpenAI's computer_call: the output item's id kept (a function call keeps
 * none) and the arguments in the computer call's own shape (a Gemini call keeps its id there too).
 */
export function wasComputerCall(call: ToolCall): boolean {
  return call.providerData?.itemId !== undefined && nativeArguments(call.argumentsText) !== undefined;
}

/** A computer call's result: the screenshot as `computer_call_output`, the rest as a note for a user message. */
export function computerCallOutputItem(
  message: ToolMessage,
  tool: ComputerToolInput,
): { item: ResponseInputItem; note: EasyInputMessage | undefined } {
  const screenshot = lastImageWithPixels(message.parts)!;
  const checks = message.providerData?.acknowledgedSafetyChecks ?? [];
  const currentUrl = message.providerData?.currentUrl;
  // The screenshot as the installed SDK types it (ResponseComputerToolCallOutputScreenshot: type, image_url,
  // file_id). It has no `detail`: the image goes whole, at the size perception sent it, and OpenAI's computer
  // use guide has the GA tool read it at full detail; the SDK's types win where a page says otherwise.
  // `satisfies` makes a drift in those types fail the build.
  const screenshotOutput = { type: 'computer_screenshot', image_url: imagePartUrl(screenshot) } satisfies ResponseComputerToolCallOutputScreenshot;
  // current_url is what OpenAI's guide and sample sent for the preview tool (its domain checks read it); the
  // SDK's type and the GA `computer` tool have no such field, so only the preview tool gets it.
  const output =
    currentUrl !== undefined && tool.toolType === 'computer_use_preview' ? { ...screenshotOutput, current_url: currentUrl } : screenshotOutput;
  const item = {
    type: 'computer_call_output',
    call_id: message.toolCallId,
    output,
    ...(checks.length === 0 ? {} : { acknowledged_safety_checks: checks.map(acknowledgedCheck) }),
  } satisfies ResponseInputItem.ComputerCallOutput;
  const text = message.parts
    .filter((part) => part.type === 'text')
    .map((part) => part.text)
    .join('\n');
  const lead = message.isError === true ? `The computer call ${message.toolCallId} failed:` : `Computer call ${message.toolCallId}:`;
  return { item, note: text === '' ? undefined : { role: 'user', content: `${lead}\n${text}` } };
}

/** The result of a computer call that went back as text: a user message with its parts, images included. */
export function computerResultAsText(message: ToolMessage, contentOf: (part: MessagePart) => ResponseInputContent): ResponseInputContent[] {
  const lead = message.isError === true ? `The computer call ${message.toolCallId} failed:` : `Result of computer call ${message.toolCallId}:`;
  return [{ type: 'input_text', text: lead }, ...message.parts.map(contentOf)];
}

function nativeComputerCall(call: ToolCall, result: ToolMessage | undefined): ResponseComputerToolCall | undefined {
  const itemId = call.providerData?.itemId;
  if (call.invalid !== undefined || itemId === undefined || result === undefined) return undefined;
  if (lastImageWithPixels(result.parts) === undefined) return undefined;
  const native = nativeArguments(call.argumentsText);
  if (native === undefined) return undefined;
  // The call goes back as the model wrote it: one `action` (the preview tool) or the GA tool's batched `actions`.
  return {
    type: 'computer_call',
    id: itemId,
    call_id: call.id,
    status: 'completed',
    pending_safety_checks: native.pendingSafetyChecks,
    ...(native.action !== undefined ? { action: native.action as ResponseComputerToolCall['action'] } : {}),
    ...(native.actions !== undefined ? { actions: native.actions as ComputerActionList } : {}),
  } satisfies ResponseComputerToolCall;
}

/** The call's arguments as the adapter wrote them from the model's computer_call, or undefined when they are not. */
function nativeArguments(
  text: string,
): { action?: unknown; actions?: unknown[]; pendingSafetyChecks: ResponseComputerToolCall.PendingSafetyCheck[] } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const record = value as { action?: unknown; actions?: unknown; pending_safety_checks?: unknown };
  const action = isObject(record.action) ? record.action : undefined;
  const actions = Array.isArray(record.actions) ? (record.actions as unknown[]) : undefined;
  if (action === undefined && actions === undefined) return undefined;
  const checks = Array.isArray(record.pending_safety_checks) ? record.pending_safety_checks.filter(isPendingCheck) : [];
  return { ...(action !== undefined ? { action } : {}), ...(actions !== undefined ? { actions } : {}), pendingSafetyChecks: checks };
}

function lastImageWithPixels(parts: readonly MessagePart[]): Extract<MessagePart, { type: 'image' }> | undefined {
  return parts.filter((part) => part.type === 'image').findLast((part) => part.data !== undefined || part.url !== undefined);
}

function acknowledgedCheck(check: SafetyCheck): ResponseInputItem.ComputerCallOutput.AcknowledgedSafetyCheck {
  return { id: check.id, ...(check.code !== undefined ? { code: check.code } : {}), ...(check.message !== undefined ? { message: check.message } : {}) };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isPendingCheck(value: unknown): value is ResponseComputerToolCall.PendingSafetyCheck {
  return isObject(value) && typeof value.id === 'string';
}

function clipped(text: string): string {
  return text.length <= MAX_CALL_TEXT ? text : `${text.slice(0, MAX_CALL_TEXT)}… (${text.length - MAX_CALL_TEXT} more characters)`;
}
