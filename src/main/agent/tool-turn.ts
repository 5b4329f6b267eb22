/**
 * A turn as its tool calls see it: begun, each call run and recorded, ended once. The same code whoever
 * makes the calls: the agent's own model (the turn loop) or another agent over MCP (the MCP server's tool
 * host). Each call runs with the screenshot its maker was looking at (`shown`, a value the caller passes
 * in), which the computer tool maps the call's coordinates through and the step row records.
 */
import { isComputerAction, type ComputerAction } from '../../shared/actions.js';
import type { AgentEvent, TokenReport } from '../../shared/events.js';
import { textOfParts, type AssistantMessage, type MessagePart, type ToolCall, type UserMessage } from '../../shared/messages.js';
import type { ShownScreenshot } from '../../shared/model-view.js';
import { NO_COST, type CostTotals } from '../../shared/cost.js';
import type { TokenUsage } from '../../shared/token-usage.js';
import { REDACTED, redactStrings } from '../../shared/secret-redaction.js';
import { cleanUserRequest, type InjectionDebugLog, type ShownImages } from '../context/index.js';
import type { DialectWire } from '../llm/dialects/dialect-wire.js';
import type { Operator, PressCheck } from '../operators/operator.js';
import type { StepRecord, Storage } from '../storage/index.js';
import type { TurnEndHook, TurnOutcome } from './agent-contract.js';
import type { Emit } from './event-emitter.js';
import type { ScreenRecorder } from './screen-recorder.js';
import { MASKED_PASSWORD, maskedAssistantMessage, maskedAtPaths, maskTyped, typedMasker, typedText, withTypedValue, type ArgumentPath } from './password-masking.js';
import type { SpelledPiece, SpelledSecrets } from './spelled-secrets.js';
import { editsOf } from './typed-editing.js';
import { maskedSpelledCall, maskedSpelledResult, maskStoredPiece, type SpelledPieceRows } from './spelled-secret-masking.js';
import type { WrittenTyping } from './tools/tool-definition.js';
import { maskedToolResult, maskStoredSearchReports, maskStoredTurn, type TypedPasswords } from './typed-passwords.js';
import { recordToolStep, thinkingSummaryOf } from './step-recording.js';
import { isStorageFailure, storageFailureSummary } from './storage-failure.js';
import { EchoMaskingStream } from './echo-masking-stream.js';
import { emptyUsage } from './token-usage-totals.js';
import { dispatchToolCall, type DispatchOutcome } from './tool-dispatch.js';
import type { ToolRegistry } from './tools/registry.js';
import { TurnLifecycle, type TurnBeginning, type TurnEnding } from './turn-lifecycle.js';
import { TurnStoppedError } from './turn-stopped-error.js';

/** A text as it was and as masked. */
interface TextChange {
  before: string;
  after: string;
}

function rewriteThought(storage: Storage, step: StepRecord, thought: string): void {
  storage.steps.rewriteTexts(step.id, { action: step.action, thought, result: step.result, error: step.error });
}

/** What all the turns of one agent (or one MCP tool host) share. */
export interface ToolTurnParts {
  storage: Storage;
  emit: Emit;
  redact: (text: string) => string;
  registry: ToolRegistry;
  screen: ScreenRecorder;
  /** What the calls act on: a button an action left down is released there when the turn ends. */
  operator: Pick<Operator, 'releaseHeldInput'>;
  /** The answer to a call its signal stopped: the user stopped the turn, or the client cancelled the call. */
  stoppedNotice: string;
  /** Where cleaning the request of injected blocks logs its lengths when debugged (SIGHTLINE_DEBUG_INJECTION=1). */
  injectionDebugLog?: InjectionDebugLog | undefined;
  /** What each session typed into password fields: masked in everything stored after it (typed-passwords.ts). */
  typedPasswords: TypedPasswords;
  /** What each session typed, joined: a configured secret spelled over several calls is masked in each (spelled-secrets.ts). */
  spelledSecrets: SpelledSecrets<SpelledPieceRows>;
  /** The dialect's masking of a call written in the reply's text (UI-TARS's); none for calls made as calls. */
  maskWrittenCall?: DialectWire['maskWrittenCall'];
}

/** Who made a call and what they were looking at: what its step records beside the call itself. */
export interface CallOrigin {
  /** The screenshot the caller was looking at when it made the call; its coordinates are in that view. */
  shown: ShownScreenshot | undefined;
  /** How each image was shown to the caller: the space of the boxes it draws on them (crop_image). */
  shownImages: ShownImages;
  /** The assistant's text of the reply that made the call. */
  thought?: string | undefined;
  /** The model call's cost: on the first step of a reply only, so a turn's steps add up to its calls. */
  usage?: TokenUsage;
  /** With `usage`: what the call cost in dollars, when the model's price is known. */
  costDollars?: number;
  tokenReport?: TokenReport;
  /** A replay's last look before a click presses; see ToolCallScope.pressCheck. */
  pressCheck?: PressCheck | undefined;
}

export interface TakenStep extends DispatchOutcome {
  /** The call's signal stopped it while it ran. */
  stopped: boolean;
  /** The disk or the database failed under the call: the turn's summary, since the turn cannot go on. */
  storageFailure: string | undefined;
}

export class ToolTurn {
  /** The last assistant message that made calls: masked afterwards when a call typed into a password field. */
  private callsMessage: { id: string; message: AssistantMessage } | undefined;
  /** Rows stored before were rewritten (masked) since the turn's requests last read them. */
  private historyRewritten = false;

  private constructor(
    private readonly parts: ToolTurnParts,
    private readonly lifecycle: TurnLifecycle,
  ) {}

  /** Starts the turn: session, turn row, `turn-started`. The request itself is stored by `storeRequest`. */
  static begin(parts: ToolTurnParts, beginning: TurnBeginning): ToolTurn {
    // The turn's title and request text, like its stored message, never hold an injected block.
    const request = cleanUserRequest(beginning.request);
    const lifecycle = TurnLifecycle.begin(parts.storage, parts.emit, { ...beginning, request });
    parts.screen.beginTurn({ sessionId: lifecycle.sessionId, turnId: lifecycle.turnId });
    return new ToolTurn(parts, lifecycle);
  }

  get sessionId(): string {
    return this.lifecycle.sessionId;
  }

  get turnId(): string {
    return this.lifecycle.turnId;
  }

  /** Stores the request without the blocks a client injected into it (its own or an older client's). */
  storeRequest(request: UserMessage): Promise<void> {
    return this.lifecycle.storeRequest(cleanUserRequest(request, this.parts.injectionDebugLog));
  }

  /**
   * The assistant message that makes calls (a model's reply, or one call over MCP); their results follow it.
   * What the session typed into password fields before is masked in it already; the calls run as written.
   */
  storeCalls(parts: MessagePart[], toolCalls: ToolCall[]): void {
    const written: AssistantMessage = { role: 'assistant', parts, toolCalls };
    const findable = this.findableTyped();
    const message = findable.length === 0 ? written : maskedAssistantMessage(written, findable);
    const stored = this.parts.storage.messages.append({ sessionId: this.sessionId, turnId: this.turnId, message });
    this.callsMessage = { id: stored.id, message };
  }

  /** Runs one call as its maker saw the screen, and records it: its tool message and its step row. */
  async take(call: ToolCall, origin: CallOrigin, signal: AbortSignal, registry: ToolRegistry = this.parts.registry): Promise<TakenStep> {
    const taken = await this.dispatch(call, origin, signal, registry);
    this.record(call, taken, origin);
    return taken;
  }

  /** Answers a call that is not run (the turn ended first, or reached its step limit), so the history stays valid. */
  answerUnrun(call: ToolCall, notice: string, origin: CallOrigin): void {
    const result = { parts: [{ type: 'text' as const, text: notice }], isError: true };
    this.record(call, { result, malformed: false, latencyMs: 0 }, origin);
  }

  /**
   * Ends the turn once (later calls return the first outcome); each hook runs once. A mouse button an
   * action left down (mouse_down without its mouse_up) is released first, however the turn ended.
   */
  async end(ending: TurnEnding, hooks: readonly TurnEndHook[], usage: TokenUsage = emptyUsage(), cost: CostTotals = NO_COST): Promise<TurnOutcome> {
    await this.releaseHeldInput();
    const summary = ending.summary === undefined ? {} : { summary: maskTyped(ending.summary, this.findableTyped()) };
    return this.lifecycle.end({ ...ending, ...summary }, usage, hooks, cost);
  }

  /** A release that fails (the display or the page went away) is reported; the turn still ends. */
  private async releaseHeldInput(): Promise<void> {
    try {
      await this.parts.operator.releaseHeldInput();
    } catch (error) {
      this.parts.emit({
        type: 'warning',
        sessionId: this.sessionId,
        turnId: this.turnId,
        at: Date.now(),
        message: `A mouse button left down could not be released: ${error instanceof Error ? error.message : String(error)}`,
      });
    }
  }

  private async dispatch(call: ToolCall, { shown, shownImages, pressCheck }: CallOrigin, signal: AbortSignal, registry: ToolRegistry): Promise<TakenStep> {
    const { storage, emit, redact } = this.parts;
    const started = performance.now();
    const interrupted = (text: string, stopped: boolean, storageFailure?: string): TakenStep => ({
      result: { parts: [{ type: 'text', text }], isError: true },
      malformed: false,
      latencyMs: Math.max(0, Math.round(performance.now() - started)),
      stopped,
      storageFailure,
    });
    try {
      // What a tool emits or shows a person while it runs is masked like what is stored after it.
      const findable = this.findableTyped();
      const mask = typedMasker(findable);
      const scope = {
        sessionId: this.sessionId,
        turnId: this.turnId,
        signal,
        storage,
        emit: findable.length === 0 ? emit : (event: AgentEvent) => emit(redactStrings(event, mask)),
        shown,
        shownImages,
        pressCheck,
        redact: (text: string) => mask(redact(text)),
        maskSpelledSecret: (action: ComputerAction) =>
          this.parts.spelledSecrets.completes(this.sessionId, typedText(action), editsOf(action)) ? withTypedValue(action, REDACTED) : action,
      };
      const outcome = await dispatchToolCall(registry, call, scope);
      return { ...outcome, stopped: false, storageFailure: undefined };
    } catch (error) {
      if (isStorageFailure(error)) {
        const summary = storageFailureSummary(error, storage.paths, redact);
        return interrupted(summary, false, summary);
      }
      if (!(error instanceof TurnStoppedError)) throw error;
      return interrupted(this.parts.stoppedNotice, true);
    }
  }

  private record(call: ToolCall, outcome: DispatchOutcome, origin: CallOrigin): void {
    const record = outcome.result.record;
    const typed = record?.typedIntoPasswordField ?? [];
    const pasted = record?.pastedIntoPasswordField ?? [];
    // A search report is written by the search tool while it runs, not by the turn: masked once it is there
    // (masking the turn's rows for a newly typed password masks its search reports too).
    if (typed.length > 0 || pasted.length > 0) this.maskPasswordTyping(call.id, [...typed, ...pasted], typed.length > 0 ? record?.typedArgumentPaths ?? [] : undefined);
    else maskStoredSearchReports(this.parts.storage, this.turnId, this.findableTyped());
    const typing = record?.writtenTyping ?? [];
    // A call that typed nothing may still move the caret (`key Home`) or the focus (a click) before the next typing.
    if (typing.length === 0 && record?.action !== undefined && isComputerAction(record.action) && !outcome.result.isError) {
      this.parts.spelledSecrets.edit(this.sessionId, editsOf(record.action));
    }
    const spelled = this.joinSpelledRun(call.id, typing, record?.typedFieldText);
    const findable = this.findableTyped();
    const mask = typedMasker(findable);
    const result = spelled?.piece.masked === true ? maskedSpelledResult(outcome.result, typing) : outcome.result;
    // A call written in the reply's text (UI-TARS's) is in the step's thought too, which is that text.
    const thought = origin.thought !== undefined && origin.thought === spelled?.replyText?.before ? spelled.replyText.after : origin.thought;
    const thinking = thinkingSummaryOf(call);
    const recorded = recordToolStep(this.parts.storage, this.parts.emit, this.parts.redact, {
      sessionId: this.sessionId,
      turnId: this.turnId,
      call,
      result: maskedToolResult(result, findable),
      ...(outcome.arguments === undefined ? {} : { arguments: findable.length === 0 ? outcome.arguments : redactStrings(outcome.arguments, mask) }),
      thought: thought === undefined ? undefined : mask(thought),
      ...(record?.intent === undefined ? {} : { intent: mask(this.parts.redact(record.intent)) }),
      ...(thinking === undefined ? {} : { thinking: mask(this.parts.redact(thinking)) }),
      shown: origin.shown,
      latencyMs: outcome.latencyMs,
      ...(origin.usage === undefined ? {} : { usage: origin.usage }),
      ...(origin.costDollars === undefined ? {} : { costDollars: origin.costDollars }),
      ...(origin.tokenReport === undefined ? {} : { tokenReport: origin.tokenReport }),
    });
    if (spelled === undefined) return;
    spelled.piece.rows = { callId: call.id, callsMessageId: this.callsMessage?.id, stepId: recorded.step.id, toolMessageId: recorded.toolMessageId, typing };
    for (const piece of spelled.earlier) this.maskSpelledPiece(piece);
  }

  /**
   * Joins what a call typed to what the session typed before it (spelled-secrets.ts). When the run now spells
   * a configured secret, the call is masked in its stored reply (and marked, for its result to be masked
   * before it is recorded, and with it the step event), and the earlier pieces it spans are returned for
   * their rows to be masked once this call's are written. Their events went out when they ran.
   */
  private joinSpelledRun(
    callId: string,
    typing: readonly WrittenTyping[],
    fieldText: string | undefined,
  ): { piece: SpelledPiece<SpelledPieceRows>; earlier: SpelledPieceRows[]; replyText: TextChange | undefined } | undefined {
    if (typing.length === 0) return undefined;
    const { piece, toMask } = this.parts.spelledSecrets.add(
      this.sessionId,
      typing.map((each) => typedText(each.action)).join(''),
      typing.length === 1,
      typing.flatMap((each) => editsOf(each.action)),
      fieldText,
    );
    let replyText: TextChange | undefined;
    if (toMask.includes(piece)) {
      piece.masked = true;
      if (this.callsMessage !== undefined) replyText = this.rewriteCalls(this.callsMessage.id, (message) => maskedSpelledCall(message, callId, typing, this.parts.maskWrittenCall));
    }
    const earlier = toMask.flatMap((each) => {
      if (each === piece || each.rows === undefined) return [];
      each.masked = true;
      return [each.rows];
    });
    return { piece, earlier, replyText };
  }

  /** An earlier piece of a spelled secret, masked where it was stored: its call in its reply, its step, its tool message. */
  private maskSpelledPiece(rows: SpelledPieceRows): void {
    this.historyRewritten = true;
    this.parts.storage.transaction(() => {
      maskStoredPiece(this.parts.storage, rows);
      if (rows.callsMessageId !== undefined) this.rewriteCalls(rows.callsMessageId, (message) => maskedSpelledCall(message, rows.callId, rows.typing, this.parts.maskWrittenCall));
    });
  }

  /**
   * Rewrites a stored reply where the masking changes it, keeping the turn's copy of its latest reply in step.
   * Where its text changed (a call written there), so does the thought of each step it made, which is that
   * text; the change is returned for a step not recorded yet.
   */
  private rewriteCalls(id: string, mask: (message: AssistantMessage) => AssistantMessage): TextChange | undefined {
    const stored = this.parts.storage.messages.get(id);
    const current = this.callsMessage?.id === id ? this.callsMessage.message : stored?.message;
    if (stored === undefined || current?.role !== 'assistant') return undefined;
    const message = mask(current);
    if (JSON.stringify(message) === JSON.stringify(current)) return undefined;
    this.parts.storage.messages.rewriteCalls(id, message);
    if (this.callsMessage?.id === id) this.callsMessage = { id, message };
    const change = { before: textOfParts(current.parts), after: textOfParts(message.parts) };
    if (change.before === change.after) return undefined;
    const thoughts = new Set([change.before, this.parts.redact(change.before)]);
    const steps = stored.turnId === null ? [] : this.parts.storage.steps.listByTurn(stored.turnId);
    for (const step of steps) if (step.thought !== null && thoughts.has(step.thought)) rewriteThought(this.parts.storage, step, change.after);
    return change;
  }

  /**
   * What a call typed into a password field, masked where it was stored before the focus was known: in the
   * call itself (by place, in its protocol's shape, and in the reply's text for a call written there), by
   * value in the rest of the reply, and, wherever it can be found, in what the turn stored before. What a
   * paste or a drop put there is not in its call (`paths` undefined): masked by value only.
   */
  private maskPasswordTyping(callId: string, typed: readonly string[], paths: readonly ArgumentPath[] | undefined): void {
    this.parts.typedPasswords.learn(this.sessionId, typed);
    if (this.callsMessage !== undefined) {
      const written = this.callsMessage.message;
      const placed: AssistantMessage =
        paths === undefined
          ? written
          : { ...written, toolCalls: written.toolCalls.map((call) => (call.id === callId ? { ...call, argumentsText: maskedAtPaths(call.argumentsText, paths) } : call)) };
      const inText = paths === undefined ? placed : (this.parts.maskWrittenCall?.(placed, callId, MASKED_PASSWORD) ?? placed);
      const message = maskedAssistantMessage(inText, typed);
      this.parts.storage.messages.rewriteCalls(this.callsMessage.id, message);
      this.callsMessage = { ...this.callsMessage, message };
    }
    maskStoredTurn(this.parts.storage, this.turnId, this.findableTyped());
    this.historyRewritten = true;
  }

  /** Whether rows were masked in place since last asked: a request built from what was read before must read them again. */
  takeHistoryRewritten(): boolean {
    const rewritten = this.historyRewritten;
    this.historyRewritten = false;
    return rewritten;
  }

  /** Masks what the session typed into password fields in the model's streamed words of one reply. */
  echoMaskingStream(): EchoMaskingStream {
    return new EchoMaskingStream(this.findableTyped());
  }

  private findableTyped(): string[] {
    return this.parts.typedPasswords.findable(this.sessionId);
  }
}
