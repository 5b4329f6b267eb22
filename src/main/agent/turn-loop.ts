/**
 * The steps of one turn: build the request from the database, call the model, store its reply, run each
 * tool call and record it, until a tool ends the turn (finish), the model stops calling tools, its
 * replies stay malformed, the step limit is reached, the next call would go over the cost ceiling, a model
 * call fails, or the turn is stopped.
 *
 * Every tool call the model made is answered with a tool message, even when it was not run (the turn
 * ended or was stopped first): the history stays valid for the next turn's requests.
 */
import { contextPolicyOf } from '../../shared/context-policy.js';
import type { EphemeralContext } from '../../shared/ephemeral.js';
import type { TokenReport } from '../../shared/events.js';
import { textOfParts } from '../../shared/messages.js';
import type { CostCeiling } from '../../shared/cost-ceiling.js';
import type { ShownScreenshot } from '../../shared/model-view.js';
import {
  buildRequest,
  type ContextSettings,
  type EncodedImageCache,
  type InjectionDebugLog,
  type ShownImages,
  type TurnRequestCache,
} from '../context/index.js';
import type { CompletedAssistantMessage, ModelAdapter, ModelRequest } from '../llm/model-adapter.js';
import { ModelCallCancelledError, ModelCallError, ModelError } from '../llm/model-errors.js';
import type { Storage } from '../storage/index.js';
import type { Emit } from './event-emitter.js';
import { keepReplyParts } from './generated-media.js';
import { MAX_CONSECUTIVE_MALFORMED_REPLIES, MalformedReplyCounter } from './malformed-output.js';
import { FINISH_TOOL_NAME } from './tools/finish-tool.js';
import type { ToolRegistry } from './tools/registry.js';
import type { CallOrigin, ToolTurn } from './tool-turn.js';
import type { TurnEnding } from './turn-lifecycle.js';
import { ceilingEnding, spend, type TurnSpending } from './turn-spending.js';
import type { TurnBudget } from './agent-contract.js';

/** Sent once when the model replies without calling a tool; a second such reply in a row ends the turn. */
export const NO_TOOL_CALL_NUDGE =
  'You replied without calling a tool. Continue with the computer tool, call finish when the task is done, ' +
  'or ask_user if you need something only the user knows.';

export interface TurnLoop {
  storage: Storage;
  model: ModelAdapter;
  registry: ToolRegistry;
  /** Where the turn's calls are run and recorded; the turn's session and id. */
  turn: ToolTurn;
  emit: Emit;
  redact: (text: string) => string;
  signal: AbortSignal;
  systemPrompt: string;
  maxImageEdge: number;
  /**
   * Tool calls the turn may run (config.agent.maxSteps), malformed ones included so the loop stays bounded;
   * `finish` is always allowed, since it acts on nothing. A reply with more calls than remain has the rest
   * answered "not run".
   */
  maxSteps: number;
  /**
   * The most the turn may spend on model calls (config.agent.maxCost); none when absent. Checked before each
   * call, against what the turn has spent and the call's estimate (turn-spending.ts).
   */
  maxCost: CostCeiling | undefined;
  /** A ceiling over several turns (TurnRequest.budget): what they spent before this one counts against it. */
  budget?: TurnBudget | undefined;
  /** What a reply without calls means in the model's dialect: nudge it to act, or the task is done. */
  replyWithoutCalls: 'nudge' | 'finish';
  /** What the nudge says in the dialect's own terms (NO_TOOL_CALL_NUDGE when absent). */
  nudge?: string;
  imageCache: EncodedImageCache;
  /** The turn's earlier-turns history, planned once: each step then reads only the turn's new rows. */
  turnCache: TurnRequestCache;
  /** config.context: the policy, how many earlier turns keep their anchors whole, and the token budget. */
  contextSettings: ContextSettings;
  /** The turn's ephemeral context: appended to every request of the turn, never stored. */
  ephemeral: readonly EphemeralContext[];
  injectionDebugLog: InjectionDebugLog | undefined;
  /** What the turn's model calls cost so far; kept up to date as calls complete. */
  usage: TurnSpending;
}

const STOPPED: TurnEnding = { status: 'stopped', reason: 'stopped', summary: 'Stopped by the user.' };

export async function runTurnLoop(loop: TurnLoop): Promise<TurnEnding> {
  const malformedReplies = new MalformedReplyCounter();
  let nudged = false;
  const steps = { taken: 0 };
  let modelCalls = 0;
  for (;;) {
    if (loop.signal.aborted) return STOPPED;
    // Both bounds hold: actions run (a reply may carry many calls) and model calls (a reply may carry none).
    if (steps.taken >= loop.maxSteps || modelCalls >= loop.maxSteps) {
      return {
        status: 'failed',
        reason: 'step-limit',
        summary: `Stopped after ${loop.maxSteps} steps without finishing (agent.maxSteps).`,
      };
    }
    // Rows masked in place since the last request are read again, so the model is sent them masked too.
    if (loop.turn.takeHistoryRewritten()) loop.turnCache.forget();
    const built = await buildRequest({
      storage: loop.storage,
      sessionId: loop.turn.sessionId,
      turnId: loop.turn.turnId,
      profile: loop.model.profile,
      maxImageEdge: loop.maxImageEdge,
      systemPrompt: loop.systemPrompt,
      imageCache: loop.imageCache,
      turnCache: loop.turnCache,
      context: loop.contextSettings,
      policy: contextPolicyOf(loop.contextSettings.policy),
      ephemeral: loop.ephemeral,
      ...(loop.injectionDebugLog === undefined ? {} : { injectionDebugLog: loop.injectionDebugLog }),
    });
    const pricing = loop.model.profile.pricing;
    const overCeiling =
      ceilingEnding(loop.maxCost, loop.usage, pricing, built.tokenReport.sentTokens) ??
      (loop.budget === undefined ? undefined : ceilingEnding(loop.budget.ceiling, loop.usage, pricing, built.tokenReport.sentTokens, loop.budget));
    if (overCeiling !== undefined) return overCeiling;
    // The present screen's reduced copy for the next request is made while the model thinks, off the step's path.
    const preparing = built.prepareNextRequest();
    const reply = await callModel(loop, built.request);
    await preparing;
    if ('ending' in reply) return reply.ending;
    modelCalls += 1;
    const costDollars = spend(loop.usage, reply.message.usage, pricing);
    const thought = textOfParts(reply.message.parts) || undefined;
    const owner = { sessionId: loop.turn.sessionId, turnId: loop.turn.turnId };
    loop.turn.storeCalls(await keepReplyParts(loop.storage, loop.emit, owner, reply.message.parts), reply.message.toolCalls);

    if (reply.message.toolCalls.length === 0) {
      // Some protocols end a task with a plain message (OpenAI's computer tool): its text is the summary.
      if (loop.replyWithoutCalls === 'finish') return { status: 'finished', reason: 'finished', summary: thought ?? '' };
      if (nudged) {
        return {
          status: 'failed',
          reason: 'failed',
          summary: `The model stopped without calling finish${thought === undefined ? '.' : `: ${thought}`}`,
        };
      }
      nudged = true;
      loop.storage.messages.append({
        sessionId: loop.turn.sessionId,
        turnId: loop.turn.turnId,
        message: { role: 'user', parts: [{ type: 'text', text: loop.nudge ?? NO_TOOL_CALL_NUDGE }] },
      });
      continue;
    }
    nudged = false;

    // Every call of the reply was made looking at the request's last screenshot, whatever the calls before it did.
    const calls = await runToolCalls(loop, reply.message, steps, {
      thought,
      shown: built.shown,
      shownImages: built.shownImages,
      tokenReport: built.tokenReport,
      ...(costDollars === undefined ? {} : { costDollars }),
    });
    if (calls.ending !== undefined) return calls.ending;
    if (calls.stopped || loop.signal.aborted) return STOPPED;
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
  loop: TurnLoop,
  built: Pick<ModelRequest, 'messages' | 'cacheBoundaries'>,
): Promise<{ message: CompletedAssistantMessage } | { ending: TurnEnding }> {
  // The model's words are shown as they come, with what the session typed into password fields masked.
  const words = loop.turn.echoMaskingStream();
  const emitWords = (text: string): void => {
    loop.emit({ type: 'model-text-delta', sessionId: loop.turn.sessionId, turnId: loop.turn.turnId, at: Date.now(), text });
  };
  try {
    const message = await loop.model.complete(
      {
        messages: built.messages,
        tools: loop.registry.forModel(),
        toolChoice: 'auto',
        // The zones' stable prefix, for providers that cache only at breakpoints (Anthropic).
        ...(built.cacheBoundaries === undefined ? {} : { cacheBoundaries: built.cacheBoundaries }),
      },
      {
        signal: loop.signal,
        onEvent: (event) => {
          if (event.type === 'notice') {
            loop.emit({ type: 'warning', sessionId: loop.turn.sessionId, turnId: loop.turn.turnId, at: Date.now(), message: loop.redact(event.text) });
            return;
          }
          if (event.type !== 'text-delta') return;
          const shown = words.push(event.text);
          // A piece held back whole (it may begin a password) is shown with the next one.
          if (shown !== '' || event.text === '') emitWords(shown);
        },
      },
    );
    return { message };
  } catch (error) {
    if (error instanceof ModelCallCancelledError || loop.signal.aborted) return { ending: STOPPED };
    if (error instanceof ModelCallError && error.setup !== undefined) {
      // The summary is what the session keeps: it says the setup, not the task, failed.
      return { ending: { status: 'failed', reason: 'setup', summary: `Setup: the model call failed: ${loop.redact(error.message)}` } };
    }
    if (error instanceof ModelError) {
      return { ending: { status: 'failed', reason: 'error', summary: `The model call failed: ${loop.redact(error.message)}` } };
    }
    throw error;
  } finally {
    const rest = words.flush();
    if (rest !== '') emitWords(rest);
  }
}

interface ReplyFacts {
  thought: string | undefined;
  shown: ShownScreenshot | undefined;
  shownImages: ShownImages;
  tokenReport: TokenReport;
  /** What the reply's model call cost in dollars, when the model's price is known. */
  costDollars?: number;
}

interface ToolCallsOutcome {
  ending: TurnEnding | undefined;
  stopped: boolean;
  /** A call of a batch that stops at the first failure failed (ToolDefinition.haltsBatch): the rest do not run. */
  halted: boolean;
  allMalformed: boolean;
  lastError: string | undefined;
}

async function runToolCalls(
  loop: TurnLoop,
  message: CompletedAssistantMessage,
  steps: { taken: number },
  reply: ReplyFacts,
): Promise<ToolCallsOutcome> {
  const outcome: ToolCallsOutcome = { ending: undefined, stopped: false, halted: false, allMalformed: true, lastError: undefined };
  for (const [index, call] of message.toolCalls.entries()) {
    // The model call's cost goes on the reply's first step, so the steps of a turn add up to its calls.
    const cost =
      index === 0
        ? { usage: message.usage, tokenReport: reply.tokenReport, ...(reply.costDollars === undefined ? {} : { costDollars: reply.costDollars }) }
        : {};
    const origin: CallOrigin = { shown: reply.shown, shownImages: reply.shownImages, thought: reply.thought, ...cost };
    const overLimit = call.name !== FINISH_TOOL_NAME && steps.taken >= loop.maxSteps;
    const notRun =
      notRunReason(outcome, loop.signal) ??
      (outcome.halted ? haltNotice(loop.registry, call.name) : undefined) ??
      (overLimit ? stepLimitNotice(loop.maxSteps) : undefined);
    if (notRun !== undefined) {
      loop.turn.answerUnrun(call, notRun, origin);
      continue;
    }
    steps.taken += 1;
    const taken = await loop.turn.take(call, origin, loop.signal);
    if (taken.stopped) outcome.stopped = true;
    if (taken.storageFailure !== undefined) {
      // Recorded (the call got its answer), then nothing more runs: the turn ends on the failure.
      outcome.ending = { status: 'failed', reason: 'error', summary: taken.storageFailure };
    }
    if (!taken.malformed) outcome.allMalformed = false;
    if (taken.result.isError === true) outcome.lastError = textOfParts(taken.result.parts);
    if (taken.result.isError === true && loop.registry.get(call.name)?.haltsBatch !== undefined) outcome.halted = true;
    if (taken.result.endTurn !== undefined && taken.storageFailure === undefined) {
      const { status, summary, answer } = taken.result.endTurn;
      outcome.ending = { status, reason: status === 'finished' ? 'finished' : 'failed', summary, ...(answer === undefined ? {} : { answer }) };
    }
  }
  return outcome;
}

/** A call after the failed one of a batch: the protocol's own halt text for its tools, Sightline's for the others. */
function haltNotice(registry: ToolRegistry, name: string): string {
  return registry.get(name)?.haltsBatch ?? 'Not run: an earlier computer action in this reply failed.';
}

function stepLimitNotice(maxSteps: number): string {
  return `Not run: the turn reached its limit of ${maxSteps} steps (agent.maxSteps).`;
}

function notRunReason(outcome: ToolCallsOutcome, signal: AbortSignal): string | undefined {
  if (outcome.ending !== undefined) return 'Not run: the turn had already ended.';
  if (outcome.stopped || signal.aborted) return 'Not run: the user stopped the turn.';
  return undefined;
}
