/**
 * One automation: one session on one operator, driven step by step. Each verb is one turn of the agent, so the
 * visual memory carries across the steps (an assertion may recall a frame from three steps back by id):
 *
 * - `do(task)`: the model acts until the task is done;
 * - `assert(statement)`: the model looks and judges; false throws AssertionFailedError with its reason and evidence;
 * - `check(statement)`: the same judgement, returned as a boolean (a flow's `if`);
 * - `extract(prompt, schema)`: the model reads a value off the screen, checked against the schema;
 * - `locate(description)`: the model boxes an element; its rect and center come back in the page's coordinates;
 * - `waitFor(condition, { timeout })`: the model is asked again only when the screen changes, until it is met;
 * - `goto(url)`: the page opens a URL, inside the scope, without the model;
 * - `close()`: stops what runs and releases the operator and the database.
 *
 * Every step is kept in `steps` (what the JSON and JUnit reports are made of), with its cost.
 */
import type { LocatedElement, StepKind } from '../../shared/answers.js';
import type { CostTotals } from '../../shared/cost.js';
import { readDuration } from '../../shared/durations.js';
import { replayKeyOf, replaySavings } from '../../shared/replay.js';
import type { CostCeiling } from '../../shared/cost-ceiling.js';
import type { EphemeralContext } from '../../shared/ephemeral.js';
import type { AgentEvent } from '../../shared/events.js';
import { userText } from '../../shared/messages.js';
import { toolConfirmationReason, type Agent, type AnswerRequest, type ConfirmationHandler, type TurnOutcome } from '../agent/index.js';
import type { Operator } from '../operators/operator.js';
import { encodeLossless } from '../perception/image-encoding.js';
import type { Storage } from '../storage/index.js';
import { prepareSchema, type ExtractSchema } from './answer-schemas.js';
import { AssertionFailedError, SightlineError, StepFailedError, StepStoppedError, WaitTimeoutError, whereToLook } from './automation-errors.js';
import { SECRET_PLACEHOLDER_NOTE, secretsNamedIn, type SecretTyping } from './secret-typing.js';
import type { StepRecord } from './step-record.js';

export interface StepOptions {
  /** Stops the step: the turn ends as stopped and the verb throws StepStoppedError. */
  signal?: AbortSignal;
  /**
   * Replays the step's latest passing recording (the same flow name, kind and text) instead of asking the model,
   * checking the screen before and after each action; the automation's `replay` option when absent.
   */
  replay?: ReplayOption;
  /**
   * What the model is told before this step, as a note beside it (a Midscene script's aiActionContext: the
   * script's own words about the site or the task). Never stored in the session's history.
   */
  context?: string;
  /**
   * Files (absolute paths) a file chooser opened during this step receives (a Midscene script's
   * fileChooserAccept); the browser only.
   */
  files?: readonly string[];
  /**
   * The step may fail without failing what runs it (a flow step's continue_on_error): when it fails, its turn is
   * marked so, and the timeline shows it allowed rather than as a plain failure. The verb still throws.
   */
  allowFailure?: boolean;
}

/**
 * true: replay, and heal a step whose screen diverged with the model; `{ heal: false }`: a divergence fails the step
 * (StepFailedError naming the action and the region).
 */
export type ReplayOption = boolean | { heal?: boolean; /** A recorded turn to replay instead of the step's latest recording. */ from?: string };

export interface WaitForOptions extends StepOptions {
  /** How long to wait: milliseconds, or text such as "30s" or "2m" (30 s by default). */
  timeout?: number | string;
  /** How often the screen is looked at between the model's answers (500 ms by default). */
  pollMs?: number;
}

export type EventListener = (event: AgentEvent) => void;

/**
 * @internal What the agent needs from the run it was opened in; built by Sightline.launch and Sightline.attach.
 * Internal: the package's type declarations leave it out (tsconfig.sdk.json's stripInternal), so they name no
 * storage, agent or operator type, nor better-sqlite3's.
 */
export interface AutomationParts {
  agent: Agent;
  storage: Storage;
  operator: Operator;
  sessionId: string;
  /** Secret names, for the note that tells the model how to type a placeholder. */
  secrets: Readonly<Record<string, string>>;
  /** Types the secrets a step names, and only those, during the step. */
  secretTyping: SecretTyping;
  /** The run's confirmation gate, which a goto passes under `always`. */
  confirm: ConfirmationHandler;
  confirmPolicy: 'never' | 'risky' | 'always';
  /** The most all steps together may spend (SightlineOptions.maxCost). */
  budget: CostCeiling | undefined;
  /** Whose that ceiling is, for a step's failure: "the automation", "the flow". */
  budgetOwner: string;
  /** Releases the operator, the MCP servers and the database. */
  release: () => Promise<void>;
  /** What the steps' recordings are found under: the flow's name, or "Automation". */
  recordingName: string;
  /** SightlineOptions.replay: every step's default. */
  replay: ReplayOption | undefined;
  /** Where the run's events are published (listeners subscribe with `on`). */
  listeners: Set<EventListener>;
}

const DEFAULT_WAIT_MS = 30_000;

export class SightlineAgent {
  /** Every step run so far, in order. */
  readonly steps: StepRecord[] = [];
  private spent: CostTotals = { dollars: null, unpricedTokens: 0 };
  private spentTokens = 0;
  private closed = false;
  private readonly stopAll = new AbortController();

  // Private, so a script cannot build one by hand: the declarations keep `private constructor()` and drop `open`.
  private constructor(private readonly parts: AutomationParts) {}

  /** @internal Built by Sightline.launch or Sightline.attach only. */
  static open(parts: AutomationParts): SightlineAgent {
    return new SightlineAgent(parts);
  }

  /** The session this automation records into (`sightline sessions show <id>`, the timeline). */
  get sessionId(): string {
    return this.parts.sessionId;
  }

  /** What the model calls have cost so far: dollars where the model's price is known, else tokens. */
  get cost(): CostTotals {
    return { ...this.spent };
  }

  /** Listens to the run's events (screenshots, steps, confirmations, turn ends); returns how to stop listening. */
  on(listener: EventListener): () => void {
    this.parts.listeners.add(listener);
    return () => this.parts.listeners.delete(listener);
  }

  /** The model acts until the task is done. Throws StepFailedError when it fails or gives up. */
  async do(task: string, options: StepOptions = {}): Promise<StepRecord> {
    const files = options.files;
    const operator = this.parts.operator;
    if (files !== undefined && files.length > 0 && operator.acceptingFiles === undefined) throw new SightlineError('files are chosen in a browser page; this automation drives the desktop.');
    const run = () => this.runStep('do', task, undefined, options);
    const step = files === undefined || files.length === 0 || operator.acceptingFiles === undefined ? await run() : await operator.acceptingFiles(files, run);
    if (step.status !== 'passed') throw this.failed(failure(step, `The step did not succeed: ${step.reason ?? 'no reason given'}.`), options);
    return step;
  }

  /** The model judges the statement; false throws AssertionFailedError with the reason and the frames that show it. */
  async assert(statement: string, options: StepOptions = {}): Promise<StepRecord> {
    const step = await this.runStep('assert', statement, { kind: 'verdict' }, options);
    if (step.status === 'passed' && step.answer?.value === false) {
      const failed: StepRecord = { ...step, status: 'failed' };
      this.replaceLast(failed);
      throw this.failed(new AssertionFailedError(`Assertion failed: ${quoted(statement)}: ${failed.reason ?? ''}.${whereToLook(failed)}`, failed), options);
    }
    if (step.status !== 'passed') throw this.failed(failure(step, `The assertion could not be judged: ${step.reason ?? 'no reason given'}.`), options);
    return step;
  }

  /** The model judges the statement, and the verdict is returned (a flow's `if`): only a failure to judge throws. */
  async check(statement: string, options: StepOptions = {}): Promise<boolean> {
    const step = await this.runStep('if', statement, { kind: 'verdict' }, options);
    if (step.status !== 'passed') throw this.failed(failure(step, `The condition could not be judged: ${step.reason ?? 'no reason given'}.`), options);
    return step.answer?.value === true;
  }

  /** The model reads a value off the screen; it is checked against the schema (zod: typed) before it is returned. */
  async extract<T>(prompt: string, schema: ExtractSchema<T>, options: StepOptions = {}): Promise<T> {
    const prepared = prepareSchema(schema);
    const step = await this.runStep('extract', prompt, { kind: 'value', schema: prepared.jsonSchema, check: prepared.check }, options);
    if (step.status !== 'passed' || step.answer === undefined) {
      throw this.failed(failure(step, `Nothing was extracted: ${step.reason ?? 'no reason given'}.`), options);
    }
    return step.answer.value as T;
  }

  /**
   * The model boxes the element described on the latest screenshot, and its rect and center come back in the
   * page's own coordinates (Midscene's aiLocate): mapped from the image the model saw through the same scaling
   * its clicks go through. It acts on nothing, so it asks no confirmation; it is a model call, priced as any.
   */
  async locate(description: string, options: StepOptions = {}): Promise<LocatedElement> {
    const step = await this.runStep('locate', description, { kind: 'box' }, options);
    if (step.status !== 'passed' || step.answer === undefined) throw this.failed(failure(step, `The element was not located: ${step.reason ?? 'no reason given'}.`), options);
    return step.answer.value as LocatedElement;
  }

  /** Waits until the model sees the condition met; it is asked again only when the screen changes. */
  async waitFor(condition: string, options: WaitForOptions = {}): Promise<StepRecord> {
    const timeoutMs = parseTimeout(options.timeout);
    const request: AnswerRequest = { kind: 'until', timeoutMs, ...(options.pollMs === undefined ? {} : { pollMs: options.pollMs }) };
    const step = await this.runStep('wait_for', condition, request, options);
    if (step.status === 'passed') return step;
    if (step.status === 'failed' && step.answer?.value === false) {
      throw this.failed(new WaitTimeoutError(`Waited ${Math.round(timeoutMs / 1000)} s for ${quoted(condition)}: ${step.reason ?? ''}.${whereToLook(step)}`, step), options);
    }
    throw this.failed(failure(step, `The wait ended without an answer: ${step.reason ?? 'no reason given'}.`), options);
  }

  /**
   * Opens a URL in the browser, without the model, inside the URL scope (a refused URL throws). It is the
   * script's own navigation, so it asks the confirmation gate only under `always`, where every action asks.
   */
  async goto(url: string): Promise<void> {
    this.ensureOpen();
    const navigate = this.parts.operator.navigate;
    if (navigate === undefined) throw new SightlineError('goto opens a page in the browser operator; this automation drives the desktop.');
    const started = Date.now();
    const record = (status: StepRecord['status'], reason: string | undefined): StepRecord => ({
      kind: 'goto', text: url, status, sessionId: this.sessionId, turnId: undefined, reason, answer: undefined, evidence: [], actions: 0,
      startedAt: new Date(started).toISOString(), durationMs: Date.now() - started, cost: { dollars: null, unpricedTokens: 0 },
    });
    if (this.parts.confirmPolicy === 'always') {
      const answer = await this.parts.confirm(
        { sessionId: this.sessionId, turnId: '', requestId: `goto-${started}`, action: { tool: 'goto', arguments: { url } }, reason: `open ${url}` },
        this.stopAll.signal,
      );
      if (!(typeof answer === 'boolean' ? answer : answer.approved)) {
        const step = record('failed', `opening ${url} was refused`);
        this.steps.push(step);
        throw new StepFailedError(`goto ${url} was refused by the confirmation gate (agent.confirm is always).`, step);
      }
    }
    const outcome = await navigate.call(this.parts.operator, url);
    const step = record(outcome.ok ? 'passed' : 'failed', outcome.ok ? undefined : outcome.error);
    this.steps.push(step);
    if (!outcome.ok) throw new StepFailedError(`goto: ${outcome.error}`, step);
  }

  /**
   * Runs the script's own JavaScript expression in the page, through the browser and never through the model
   * (a Midscene script's `javascript:`), and returns its JSON value. The page must be inside the URL scope. It is
   * the script's own code, as a goto is its own navigation: it passes the confirmation gate, which asks under
   * `always` (tool-confirmation.ts). The desktop has no page to run it in.
   */
  async evaluate(code: string, options: StepOptions = {}): Promise<unknown> {
    this.ensureOpen();
    const evaluate = this.parts.operator.evaluate;
    if (evaluate === undefined) throw new SightlineError('javascript runs in a browser page; this automation drives the desktop, where Sightline acts only through the screen.');
    const started = Date.now();
    const record = (status: StepRecord['status'], reason: string | undefined): StepRecord => ({
      kind: 'javascript', text: code, status, sessionId: this.sessionId, turnId: undefined, reason, answer: undefined, evidence: [], actions: 0,
      startedAt: new Date(started).toISOString(), durationMs: Date.now() - started, cost: { dollars: null, unpricedTokens: 0 },
    });
    const signal = options.signal === undefined ? this.stopAll.signal : AbortSignal.any([options.signal, this.stopAll.signal]);
    const reason = toolConfirmationReason(this.parts.confirmPolicy, 'javascript', { risk: undefined });
    if (reason !== undefined) {
      const answer = await this.parts.confirm(
        { sessionId: this.sessionId, turnId: '', requestId: `javascript-${started}`, action: { tool: 'javascript', arguments: { code } }, reason },
        signal,
      );
      if (!(typeof answer === 'boolean' ? answer : answer.approved)) {
        const step = record('failed', 'running the javascript was refused');
        this.steps.push(step);
        throw new StepFailedError(`javascript was refused by the confirmation gate (${reason}).`, step);
      }
    }
    const outcome = await evaluate.call(this.parts.operator, code, signal);
    if (!outcome.ok && signal.aborted) {
      const step = record('stopped', 'stopped');
      this.steps.push(step);
      throw new StepStoppedError('The javascript was stopped.', step);
    }
    const step = record(outcome.ok ? 'passed' : 'failed', outcome.ok ? undefined : outcome.error);
    this.steps.push(step);
    if (!outcome.ok) throw new StepFailedError(`javascript: ${outcome.error}`, step);
    return outcome.value;
  }

  /**
   * Keeps the screen as it is now in the session, under a title, without the model (a Midscene script's
   * recordToReport): the frame is stored as a turn's are, and is the step's evidence, so a report shows it there.
   */
  async note(title: string, content = ''): Promise<StepRecord> {
    this.ensureOpen();
    const started = Date.now();
    const operator = this.parts.operator;
    const frame = await operator.capture();
    const image = await this.parts.storage.images.put({
      sessionId: this.sessionId,
      turnId: null,
      bytes: await encodeLossless(frame),
      mime: 'image/png',
      width: frame.width,
      height: frame.height,
      source: operator.describe().kind === 'browser' ? 'browser' : 'screen',
      ...(frame.displayId === null ? {} : { displayId: frame.displayId }),
      scaleFactor: frame.scaleFactor,
      caption: title,
    });
    const step: StepRecord = {
      kind: 'note', text: content === '' ? title : `${title}: ${content}`, status: 'passed', sessionId: this.sessionId, turnId: undefined, reason: undefined,
      answer: undefined, evidence: [image.id], actions: 0, startedAt: new Date(started).toISOString(), durationMs: Date.now() - started, cost: { dollars: null, unpricedTokens: 0 },
    };
    this.steps.push(step);
    return step;
  }

  /** Stops a step under way, then releases the browser (or the desktop's held input), the MCP servers and the database. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stopAll.abort();
    // A turn under way ends as stopped before the database closes under it.
    await this.running;
    await this.parts.release();
  }

  private running: Promise<unknown> = Promise.resolve();

  private async runStep(kind: StepKind, text: string, answer: AnswerRequest | undefined, options: StepOptions): Promise<StepRecord> {
    this.ensureOpen();
    const trimmed = text.trim();
    if (trimmed === '') throw new SightlineError(`${kind}: the text is empty; say what to ${kind === 'do' ? 'do' : 'look for'}.`);
    const signal = options.signal === undefined ? this.stopAll.signal : AbortSignal.any([options.signal, this.stopAll.signal]);
    // The secrets this step may type: those its own text names.
    const named = secretsNamedIn(trimmed, this.parts.secrets);
    const ephemeral: EphemeralContext[] = named.length > 0 ? [{ type: 'note', content: SECRET_PLACEHOLDER_NOTE }] : [];
    if (options.context !== undefined && options.context.trim() !== '') ephemeral.unshift({ type: 'note', content: `Context for every step of this script: ${options.context.trim()}` });
    const started = Date.now();
    const replay = replaySetting(options.replay ?? this.parts.replay);
    const turn = this.parts.secretTyping.during(named, () => this.parts.agent.runTurn({
      sessionId: this.sessionId,
      request: userText(trimmed),
      stepKind: kind,
      signal,
      replayKey: replayKeyOf(this.parts.recordingName, kind, trimmed),
      ...(replay === undefined ? {} : { replay }),
      ...(answer === undefined ? {} : { answer }),
      ...(ephemeral.length === 0 ? {} : { ephemeral }),
      ...(this.parts.budget === undefined
        ? {}
        : {
            budget: {
              ceiling: this.parts.budget,
              owner: this.parts.budgetOwner,
              setting: 'maxCost, --max-cost',
              spentBefore: { dollars: this.spent.dollars ?? 0, tokens: this.spentTokens },
            },
          }),
    }));
    this.running = turn.catch(() => undefined);
    const outcome = await turn;
    const step = recordOf(kind, trimmed, outcome, started);
    this.spent = addCost(this.spent, outcome.cost);
    this.spentTokens += outcome.usage.inputTokens + outcome.usage.outputTokens;
    this.steps.push(step);
    return step;
  }

  /** A step's failure, its turn first marked allowed when the step was allowed to fail (not when stopped). */
  private failed<E extends StepFailedError>(error: E, options: StepOptions): E {
    const turnId = error.step.turnId;
    if (options.allowFailure === true && turnId !== undefined && !(error instanceof StepStoppedError)) this.parts.storage.turns.markAllowedFailure(turnId);
    return error;
  }

  private replaceLast(step: StepRecord): void {
    this.steps[this.steps.length - 1] = step;
  }

  private ensureOpen(): void {
    if (this.closed) throw new SightlineError('This automation is closed; launch a new one.');
  }
}

function recordOf(kind: StepKind, text: string, outcome: TurnOutcome, started: number): StepRecord {
  const status = outcome.status === 'finished' ? 'passed' : outcome.status === 'stopped' ? 'stopped' : 'failed';
  return {
    kind,
    text,
    status,
    sessionId: outcome.sessionId,
    turnId: outcome.turnId,
    reason: outcome.answer?.reason ?? outcome.summary,
    answer: outcome.answer,
    evidence: outcome.answer?.evidence ?? [],
    actions: outcome.steps,
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    cost: outcome.cost,
    ...(outcome.replay === undefined ? {} : { replay: { ...outcome.replay, saved: replaySavings(outcome.replay) } }),
  };
}

function replaySetting(option: ReplayOption | undefined): { heal: boolean; fromTurnId?: string } | undefined {
  if (option === undefined || option === false) return undefined;
  if (option === true) return { heal: true };
  return { heal: option.heal !== false, ...(option.from === undefined ? {} : { fromTurnId: option.from }) };
}

function failure(step: StepRecord, message: string): StepFailedError {
  if (step.status === 'stopped') return new StepStoppedError(`The step was stopped: ${quoted(step.text)}.`, step);
  return new StepFailedError(`${message}${whereToLook(step)}`, step);
}

function addCost(total: CostTotals, more: CostTotals): CostTotals {
  const dollars = total.dollars === null && more.dollars === null ? null : (total.dollars ?? 0) + (more.dollars ?? 0);
  return { dollars, unpricedTokens: total.unpricedTokens + more.unpricedTokens };
}

function quoted(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ');
  return JSON.stringify(oneLine.length > 120 ? `${oneLine.slice(0, 119)}…` : oneLine);
}

/** Milliseconds, or text such as "500ms", "30s" or "2m" (shared/durations.ts); 30 s when absent. */
export function parseTimeout(timeout: number | string | undefined): number {
  if (timeout === undefined) return DEFAULT_WAIT_MS;
  const reading = readDuration(timeout, { allowZero: false });
  if (reading.ok) return reading.ms;
  throw new SightlineError(`waitFor: timeout ${JSON.stringify(timeout)}: ${reading.problem}.`);
}
