/**
 * The steps of one turn: build the request from the database, call the model, store its reply, run each
 * tool call and record it, until a tool ends the turn (finish), the model stops calling tools, its
 * replies stay malformed, the step limit is reached, a model call fails, or the turn is stopped.
 *
 * Every tool call the model made is answered with a tool message, even when it was not run (the turn
 * ended or was stopped first): the history stays valid for the next turn's requests.
 */
import type { EphemeralContext } from '../../shared/ephemeral.js';
import type { TokenReport } from '../../shared/events.js';
import type { MessagePart, ToolCall } from '../../shared/messages.js';
import { textOfParts } from '../../shared/messages.js';
import type { TokenUsage } from '../../shared/token-usage.js';
import {
  buildRequest,
  type ContextSettings,
  type EncodedImageCache,
  type InjectionDebugLog,
  type TurnRequestCache,
} from '../context/index.js';
import type { CompletedAssistantMessage, ModelAdapter, ModelRequest } from '../llm/model-adapter.js';
import { ModelCallCancelledError, ModelError } from '../llm/model-errors.js';
import type { Storage } from '../storage/index.js';
import type { Emit } from './event-emitter.js';
import { MAX_CONSECUTIVE_MALFORMED_REPLIES, MalformedReplyCounter } from './malformed-output.js';
import type { ScreenRecorder } from './screen-recorder.js';
import { isStorageFailure, storageFailureSummary } from './storage-failure.js';
import { recordToolStep } from './step-recording.js';
import { dispatchToolCall, type DispatchOutcome } from './tool-dispatch.js';
import type { ModelView } from '../../shared/model-view.js';
import { FINISH_TOOL_NAME } from './tools/finish-tool.js';
import type { ToolRegistry } from './tools/registry.js';
import type { TurnEnding } from './turn-lifecycle.js';
import { TurnStoppedError } from './turn-stopped-error.js';
import { addUsage } from './token-usage-totals.js';

/** Sent once when the model replies without calling a tool; a second such reply in a row ends the turn. */
export const NO_TOOL_CALL_NUDGE =
  'You replied without calling a tool. Continue with the computer tool, call finish when the task is done, ' +
  'or ask_user if you need something only the user knows.';

export interface TurnLoopContext {
  storage: Storage;
  model: ModelAdapter;
  registry: ToolRegistry;
  screen: ScreenRecorder;
  emit: Emit;
  redact: (text: string) => string;
  signal: AbortSignal;
  sessionId: string;
  turnId: string;
  systemPrompt: string;
  maxImageEdge: number;
  /**
   * Tool calls the turn may run (config.agent.maxSteps), malformed ones included so the loop stays bounded;
   * `finish` is always allowed, since it acts on nothing. A reply with more calls than remain has the rest
   * answered "not run".
   */
  maxSteps: number;
  imageCache: EncodedImageCache;
  /** The turn's earlier-turns history, planned once: each step then reads only the turn's new rows. */
  turnCache: TurnRequestCache;
  /** config.context: how many earlier turns keep their anchors whole, and the token budget. */
  contextSettings: ContextSettings;
  /** The turn's ephemeral context: appended to every request of the turn, never stored. */
  ephemeral: readonly EphemeralContext[];
  injectionDebugLog: InjectionDebugLog | undefined;
  /** What the turn's model calls cost so far; kept up to date as calls complete. */
  usage: { total: TokenUsage };
}

const STOPPED: TurnEnding = { status: 'stopped', reason: 'stopped', summary: 'Stopped by the user.' };

export async function runTurnLoop(context: TurnLoopContext): Promise<TurnEnding> {
  const malformedReplies = new MalformedReplyCounter();
  let nudged = false;
  const steps = { taken: 0 };
  let modelCalls = 0;
  for (;;) {
    if (context.signal.aborted) return STOPPED;
    // Both bounds hold: actions run (a reply may carry many calls) and model calls (a reply may carry none).
    if (steps.taken >= context.maxSteps || modelCalls >= context.maxSteps) {
      return {
        status: 'failed',
        reason: 'step-limit',
        summary: `Stopped after ${context.maxSteps} steps without finishing (agent.maxSteps).`,
      };
    }
    const built = await buildRequest({
      storage: context.storage,
      sessionId: context.sessionId,
      turnId: context.turnId,
      profile: context.model.profile,
      maxImageEdge: context.maxImageEdge,
      systemPrompt: context.systemPrompt,
      imageCache: context.imageCache,
      turnCache: context.turnCache,
      context: context.contextSettings,
      ephemeral: context.ephemeral,
      ...(context.injectionDebugLog === undefined ? {} : { injectionDebugLog: context.injectionDebugLog }),
    });
    context.screen.showModel(built.lastView, built.lastScreenshotId);
    const reply = await callModel(context, built.request.messages);
    if ('ending' in reply) return reply.ending;
    modelCalls += 1;
    context.usage.total = addUsage(context.usage.total, reply.message.usage);
    const thought = textOfParts(reply.message.parts) || undefined;
    storeAssistantMessage(context, reply.message);

    if (reply.message.toolCalls.length === 0) {
      if (nudged) {
        return {
          status: 'failed',
          reason: 'failed',
          summary: `The model stopped without calling finish${thought === undefined ? '.' : `: ${thought}`}`,
        };
      }
      nudged = true;
      context.storage.messages.append({
        sessionId: context.sessionId,
        turnId: context.turnId,
        message: { role: 'user', parts: [{ type: 'text', text: NO_TOOL_CALL_NUDGE }] },
      });
      continue;
    }
    nudged = false;

    const calls = await runToolCalls(context, reply.message, steps, {
      thought,
      screenshotImageId: context.screen.modelScreenshotId,
      screenshotView: context.screen.modelView,
      tokenReport: built.tokenReport,
    });
    if (calls.ending !== undefined) return calls.ending;
    if (calls.stopped || context.signal.aborted) return STOPPED;
    if (malformedReplies.record(calls.allMalformed)) {
      return {
        status: 'failed',
        reason: 'failed',
        summary:
          `The model's tool calls were malformed in ${malformedReplies.count} replies in a row ` +
          `(the limit is ${MAX_CONSECUTIVE_MALFORMED_REPLIES}). Last error: ${calls.lastError ?? 'unknown'}`,
      };
    }
  }
}

async function callModel(
  context: TurnLoopContext,
  messages: ModelRequest['messages'],
): Promise<{ message: CompletedAssistantMessage } | { ending: TurnEnding }> {
  try {
    const message = await context.model.complete(
      { messages, tools: context.registry.forModel(), toolChoice: 'auto' },
      {
        signal: context.signal,
        onEvent: (event) => {
          if (event.type !== 'text-delta') return;
          context.emit({
            type: 'model-text-delta',
            sessionId: context.sessionId,
            turnId: context.turnId,
            at: Date.now(),
            text: event.text,
          });
        },
      },
    );
    return { message };
  } catch (error) {
    if (error instanceof ModelCallCancelledError || context.signal.aborted) return { ending: STOPPED };
    if (error instanceof ModelError) {
      return { ending: { status: 'failed', reason: 'error', summary: `The model call failed: ${context.redact(error.message)}` } };
    }
    throw error;
  }
}

/** Only text is kept: media a model generated would need the image store, and nothing reads it back yet. */
function storeAssistantMessage(context: TurnLoopContext, message: CompletedAssistantMessage): void {
  const parts: MessagePart[] = message.parts.filter((part) => part.type === 'text');
  context.storage.messages.append({
    sessionId: context.sessionId,
    turnId: context.turnId,
    message: { role: 'assistant', parts, toolCalls: message.toolCalls },
  });
}

interface ReplyContext {
  thought: string | undefined;
  screenshotImageId: string | undefined;
  screenshotView: ModelView | undefined;
  tokenReport: TokenReport;
}

interface ToolCallsOutcome {
  ending: TurnEnding | undefined;
  stopped: boolean;
  allMalformed: boolean;
  lastError: string | undefined;
}

async function runToolCalls(
  context: TurnLoopContext,
  message: CompletedAssistantMessage,
  steps: { taken: number },
  reply: ReplyContext,
): Promise<ToolCallsOutcome> {
  const outcome: ToolCallsOutcome = { ending: undefined, stopped: false, allMalformed: true, lastError: undefined };
  for (const [index, call] of message.toolCalls.entries()) {
    // The model call's cost goes on the reply's first step, so the steps of a turn add up to its calls.
    const cost = index === 0 ? { usage: message.usage, tokenReport: reply.tokenReport } : {};
    const overLimit = call.name !== FINISH_TOOL_NAME && steps.taken >= context.maxSteps;
    const notRun = notRunReason(outcome, context.signal) ?? (overLimit ? stepLimitNotice(context.maxSteps) : undefined);
    if (notRun === undefined) steps.taken += 1;
    let dispatched: DispatchOutcome & { stoppedDuringCall?: boolean; storageFailure?: string };
    if (notRun !== undefined) {
      dispatched = { result: { parts: [{ type: 'text', text: notRun }], isError: true }, malformed: false, latencyMs: 0 };
    } else {
      dispatched = await dispatchOrStop(context, call);
      if (dispatched.stoppedDuringCall === true) outcome.stopped = true;
    }
    if (dispatched.storageFailure !== undefined) {
      // Recorded first (the call gets its answer), then nothing more runs: the turn ends on the failure.
      outcome.ending = { status: 'failed', reason: 'error', summary: dispatched.storageFailure };
    }
    recordToolStep(context.storage, context.emit, context.redact, {
      sessionId: context.sessionId,
      turnId: context.turnId,
      call,
      result: dispatched.result,
      ...(dispatched.arguments === undefined ? {} : { arguments: dispatched.arguments }),
      thought: reply.thought,
      screenshotImageId: reply.screenshotImageId,
      screenshotView: reply.screenshotView,
      latencyMs: dispatched.latencyMs,
      ...cost,
    });
    if (notRun !== undefined) continue;
    if (!dispatched.malformed) outcome.allMalformed = false;
    if (dispatched.result.isError === true) outcome.lastError = textOfParts(dispatched.result.parts);
    if (dispatched.result.endTurn !== undefined && dispatched.storageFailure === undefined) {
      const { status, summary } = dispatched.result.endTurn;
      outcome.ending = { status, reason: status === 'finished' ? 'finished' : 'failed', summary };
    }
  }
  return outcome;
}

function stepLimitNotice(maxSteps: number): string {
  return `Not run: the turn reached its limit of ${maxSteps} steps (agent.maxSteps).`;
}

function notRunReason(outcome: ToolCallsOutcome, signal: AbortSignal): string | undefined {
  if (outcome.ending !== undefined) return 'Not run: the turn had already ended.';
  if (outcome.stopped || signal.aborted) return 'Not run: the user stopped the turn.';
  return undefined;
}

async function dispatchOrStop(
  context: TurnLoopContext,
  call: ToolCall,
): Promise<DispatchOutcome & { stoppedDuringCall?: boolean; storageFailure?: string }> {
  const started = performance.now();
  try {
    return await dispatchToolCall(context.registry, call, {
      sessionId: context.sessionId,
      turnId: context.turnId,
      signal: context.signal,
      storage: context.storage,
      emit: context.emit,
    });
  } catch (error) {
    if (isStorageFailure(error)) {
      const summary = storageFailureSummary(context.redact(error instanceof Error ? error.message : String(error)));
      return {
        result: { parts: [{ type: 'text', text: summary }], isError: true },
        malformed: false,
        latencyMs: Math.max(0, Math.round(performance.now() - started)),
        storageFailure: summary,
      };
    }
    if (!(error instanceof TurnStoppedError)) throw error;
    return {
      result: { parts: [{ type: 'text', text: 'Interrupted: the user stopped the turn.' }], isError: true },
      malformed: false,
      latencyMs: Math.max(0, Math.round(performance.now() - started)),
      stoppedDuringCall: true,
    };
  }
}
