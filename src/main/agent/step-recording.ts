/**
 * Writing down one tool call: its tool message (what the model reads next) and its step row (what the
 * timeline shows) in one transaction, so a crash leaves both or neither. Then the step event.
 */
import type { TokenReport } from '../../shared/events.js';
import { ComputerActionSchema, type StepAction, type ToolArguments } from '../../shared/actions.js';
import { textOfParts, type ToolCall, type ToolResultProviderData } from '../../shared/messages.js';
import { screenshotViewOf, type ShownScreenshot } from '../../shared/model-view.js';
import type { TokenUsage } from '../../shared/token-usage.js';
import type { StepRecord, Storage } from '../storage/index.js';
import type { Emit } from './event-emitter.js';
import { COMPUTER_TOOL_NAME } from './tools/computer-tool.js';
import type { ToolResult } from './tools/tool-definition.js';

export interface ToolStep {
  sessionId: string;
  turnId: string;
  call: ToolCall;
  result: ToolResult;
  /** Validated arguments, when the call was well formed. */
  arguments?: unknown;
  /** The assistant's text of the reply that made the call. */
  thought: string | undefined;
  /** The reason the model gave for this call (ToolStepRecord.intent), masked and redacted like the thought. */
  intent?: string;
  /** The summary of the thinking before this call, where the API returned one (thinkingSummaryOf), masked and redacted like the thought. */
  thinking?: string;
  /** The screenshot the model was looking at when it chose this call, and how it was shown. */
  shown: ShownScreenshot | undefined;
  latencyMs: number;
  /** The model call's cost: on the first step of a reply only, so a turn's steps add up to its calls. */
  usage?: TokenUsage;
  /** With `usage`, what the call cost in dollars under the price table in effect; absent when the price is unknown. */
  costDollars?: number;
  tokenReport?: TokenReport;
}

/** The rows a call was recorded in. */
export interface RecordedStep {
  step: StepRecord;
  toolMessageId: string;
}

export function recordToolStep(storage: Storage, emit: Emit, redact: (text: string) => string, step: ToolStep): RecordedStep {
  const { result } = step;
  const resultText = redact(textOfParts(result.parts));
  const action = stepAction(step);
  const thought = withLine(withLine(step.thought, 'Thinking', step.thinking), 'Intent', step.intent);
  const { record, toolMessageId } = storage.transaction(() => {
    const toolMessage = storage.messages.append({
      sessionId: step.sessionId,
      turnId: step.turnId,
      message: {
        role: 'tool',
        toolCallId: step.call.id,
        name: step.call.name,
        parts: result.parts.map((part) => (part.type === 'text' ? { ...part, text: redact(part.text) } : part)),
        ...(result.isError === true ? { isError: true } : {}),
        ...(result.providerData === undefined ? {} : { providerData: redactedProviderData(result.providerData, redact) }),
      },
    });
    const appended = storage.steps.append({
      sessionId: step.sessionId,
      turnId: step.turnId,
      action,
      thought: thought ?? null,
      screenshotImageId: step.shown?.imageId ?? null,
      screenshotView: step.shown === undefined ? null : screenshotViewOf(step.shown.view),
      dedupOfImageId: result.record?.dedupOfImageId ?? null,
      result: result.record?.result ?? { ok: result.isError !== true, text: resultText },
      error: result.isError === true ? resultText : null,
      latencyMs: step.latencyMs,
      inputTokens: step.usage?.inputTokens ?? null,
      outputTokens: step.usage?.outputTokens ?? null,
      cachedInputTokens: step.usage?.cachedInputTokens ?? null,
      cacheWriteInputTokens: step.usage?.cacheWriteInputTokens ?? null,
      costDollars: step.costDollars ?? null,
      tokenReport: step.tokenReport ?? null,
    });
    return { record: appended, toolMessageId: toolMessage.id };
  });
  const computerAction = ComputerActionSchema.safeParse(action);
  emit({
    type: 'step',
    sessionId: step.sessionId,
    turnId: step.turnId,
    at: Date.now(),
    stepId: record.id,
    sequence: record.sequence,
    tool: step.call.name,
    ...(computerAction.success ? { action: computerAction.data } : {}),
    ...(thought === undefined ? {} : { thought }),
    ...(step.intent === undefined ? {} : { intent: step.intent }),
    ...(step.shown === undefined ? {} : { screenshotImageId: step.shown.imageId, screenshotView: screenshotViewOf(step.shown.view) }),
    ok: result.isError !== true,
    ...(result.isError === true ? { error: resultText } : {}),
    latencyMs: step.latencyMs,
    ...(step.usage === undefined ? {} : { usage: step.usage }),
    ...(step.costDollars === undefined ? {} : { costDollars: step.costDollars }),
    ...(step.tokenReport === undefined ? {} : { tokenReport: step.tokenReport }),
  });
  return { step: record, toolMessageId };
}

/**
 * The step's action column: a computer action as itself (what the timeline draws); any other call as
 * `{ tool, arguments }`, with the raw text when the arguments were malformed.
 */
function stepAction(step: ToolStep): StepAction {
  if (step.result.record?.action !== undefined) return step.result.record.action;
  // A computer call whose tool failed before saying what it did is still drawn as its action.
  if (step.call.name === COMPUTER_TOOL_NAME) {
    const action = ComputerActionSchema.safeParse(step.arguments);
    if (action.success) return action.data;
  }
  // Validated arguments are JSON: the tool's schema parsed them from the model's JSON text.
  return { tool: step.call.name, arguments: (step.arguments as ToolArguments | undefined) ?? step.call.argumentsText };
}

/** A URL is text the step shows like any other: secrets in it are redacted the same way. */
function redactedProviderData(data: ToolResultProviderData, redact: (text: string) => string): ToolResultProviderData {
  return data.currentUrl === undefined ? data : { ...data, currentUrl: redact(data.currentUrl) };
}

/**
 * The text of the thinking blocks that came before a call (Anthropic's, kept with the call to be echoed back), or
 * undefined where the API returned none: models that think by default omit the text, leaving the block empty
 * with only its signature (https://platform.claude.com/docs/en/build-with-claude/extended-thinking), and
 * `redacted_thinking` is encrypted. The blocks themselves go back to the API untouched; this is only what a
 * person is shown.
 */
export function thinkingSummaryOf(call: ToolCall): string | undefined {
  const texts = (call.providerData?.anthropicThinking ?? []).flatMap((block) => (block.type === 'thinking' && block.thinking.trim() !== '' ? [block.thinking.trim()] : []));
  return texts.length === 0 ? undefined : texts.join('\n');
}

/**
 * The reply's text, then a labelled line of what belongs to this call alone: the summary of the thinking before it
 * (the model thought it, it did not say it) and its own reason (Gemini's intent). Each call of a reply has its
 * own, so it is written after the text the reply's calls share, on its own line.
 */
function withLine(thought: string | undefined, label: 'Thinking' | 'Intent', text: string | undefined): string | undefined {
  if (text === undefined) return thought;
  return thought === undefined || thought === '' ? `${label}: ${text}` : `${thought}\n${label}: ${text}`;
}
