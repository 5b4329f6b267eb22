/**
 * Runs one flow on one automation (the SDK: a flow is one session, each step a turn, so the visual memory
 * carries across steps). The runner is a client of the SDK like any script: it renders each step's templates
 * in the flow's scope, calls the SDK's verb, and records what came of it. A failed step stops the flow unless
 * the step (or the run) continues on error; the steps not reached are recorded as skipped. A step that fails
 * under its own `continue_on_error` (or inside a Midscene task with `continueOnError`) is allowed to fail: it is
 * recorded as failed and allowed, and does not fail the flow. `--continue-on-error` only goes on: the flow fails.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { redactStrings } from '../../shared/secret-redaction.js';
import { StepFailedError, StepStoppedError, type SightlineAgent, type StepRecord, type StepReplay } from '../automation/index.js';
import type { Flow, FlowStep } from './flow-model.js';
import type { FlowResult, StepReplayResult, StepResult, StepResultStatus } from './flow-result.js';
import { serveFolder, type ServedFolder } from './served-folder.js';
import { renderTemplate, templateValue, TemplateError } from './templates.js';

export interface FlowRunOptions {
  /** Opens the automation the flow runs on (its target with the URL rendered, its secrets), named for the flow. */
  open: (flow: Flow, start: { secrets: Record<string, string>; url: string | undefined }) => Promise<SightlineAgent>;
  env: Readonly<Record<string, string | undefined>>;
  /** Go on after a failed step, as if every step said continue_on_error. */
  continueOnError: boolean;
  signal: AbortSignal;
  /** Told of each step as it ends. */
  onStep?: (flow: Flow, step: StepResult) => void;
}

type Scope = Record<string, unknown>;

/** The flow and every flow it uses, directly or through others, once each (by file). */
export function flowsUsed(flow: Flow): Flow[] {
  const found = new Map<string, Flow>();
  const visit = (current: Flow): void => {
    if (found.has(current.file)) return;
    found.set(current.file, current);
    const walk = (steps: readonly FlowStep[]): void => {
      for (const step of steps) {
        if (step.kind === 'use') visit(step.flow);
        if (step.kind === 'if') walk([...step.then, ...step.else]);
        if (step.kind === 'for_each' || step.kind === 'group') walk(step.steps);
      }
    };
    walk(current.steps);
  };
  visit(flow);
  return [...found.values()];
}

/** The names of the secrets the flow and the flows it uses declare. */
export function flowSecretNames(flow: Flow): string[] {
  return [...new Set(flowsUsed(flow).flatMap((used) => used.secrets))];
}

/** The flow's secrets and those of every flow it uses, read from the environment (the loader checked them). */
export function flowSecrets(flow: Flow, env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const secrets: Record<string, string> = {};
  for (const name of flowSecretNames(flow)) {
    const value = env[name];
    if (value !== undefined && value !== '') secrets[name] = value;
  }
  return secrets;
}

export async function runFlow(flow: Flow, options: FlowRunOptions): Promise<FlowResult> {
  const started = Date.now();
  const secrets = flowSecrets(flow, options.env);
  const result: FlowResult = {
    name: flow.name,
    file: flow.file,
    status: 'passed',
    sessionId: undefined,
    attempts: 1,
    earlierSessions: [],
    startedAt: new Date(started).toISOString(),
    durationMs: 0,
    costDollars: undefined,
    error: undefined,
    steps: [],
  };
  let agent: SightlineAgent | undefined;
  let served: ServedFolder | undefined;
  try {
    const secretNames = Object.keys(secrets);
    const scope = flowScope(flow, {}, {}, secretNames);
    const rendered = flow.target?.url === undefined ? undefined : renderTemplate(flow.target.url, scope, { secrets: secretNames });
    // Midscene's serve: the folder for this run only, its url a page of it.
    if (flow.target?.serve !== undefined) served = await serveFolder(flow.target.serve);
    const url = served === undefined || rendered === undefined ? rendered : served.urlOf(rendered);
    agent = await options.open(flow, { secrets, url });
    result.sessionId = agent.sessionId;
    const run = new FlowRun(agent, flow, options, result, secretNames);
    await run.steps(flow.steps, '', scope);
    result.status = run.stopped ? 'stopped' : run.failed ? 'failed' : 'passed';
    if (run.failed && result.error === undefined) result.error = run.firstFailure;
  } catch (error) {
    result.status = options.signal.aborted ? 'stopped' : 'failed';
    result.error = error instanceof Error ? error.message : String(error);
  } finally {
    if (agent !== undefined) {
      result.costDollars = agent.cost.dollars ?? undefined;
      if (agent.cost.unpricedTokens > 0) result.costUnknown = true;
      await agent.close();
    }
    await served?.close();
    result.durationMs = Date.now() - started;
  }
  return result;
}

/** What a report says of a step's replay. */
export function replayResultOf(replay: StepReplay): StepReplayResult {
  const divergence = replay.divergence;
  return {
    mode: replay.mode,
    ...(replay.reusedAnswer === true ? { reusedAnswer: true } : {}),
    ...(divergence === undefined
      ? replay.notReplayable === undefined ? {} : { why: `not replayed: ${replay.notReplayable}` }
      : { why: `${divergence.phase} action ${divergence.action} (${divergence.actionText}): ${divergence.reason}`, phase: divergence.phase, ...(divergence.region === undefined ? {} : { region: divergence.region }) }),
    ...(replay.recordedTurnId === null ? {} : { recordedTurnId: replay.recordedTurnId }),
    modelCalls: replay.modelCalls,
    saved: replay.saved,
  };
}

/** A flow's scope: its vars (rendered in order, each seeing those before it), `with` values over them. */
function flowScope(flow: Flow, given: Scope, outer: Scope, secretNames: readonly string[]): Scope {
  const scope: Scope = { ...given };
  for (const [name, value] of Object.entries(flow.vars)) {
    if (Object.hasOwn(given, name)) continue;
    if (typeof value !== 'string') {
      scope[name] = value;
      continue;
    }
    try {
      scope[name] = renderTemplate(value, { ...outer, ...scope }, { secrets: secretNames });
    } catch (error) {
      if (error instanceof TemplateError) throw new TemplateError(`variable ${name} of ${flow.name}: ${error.message}`);
      throw error;
    }
  }
  return scope;
}

class FlowRun {
  failed = false;
  stopped = false;
  firstFailure: string | undefined;

  constructor(
    private readonly agent: SightlineAgent,
    private readonly top: Flow,
    private readonly options: FlowRunOptions,
    private readonly result: FlowResult,
    private readonly secretNames: readonly string[],
  ) {}

  /**
   * Runs the steps in order; after a stop, or a failure not continued past, the rest are recorded as skipped.
   * `allowing`: the steps lie inside a step that may fail (continue_on_error), so their failures are allowed too.
   */
  async steps(steps: readonly FlowStep[], prefix: string, scope: Scope, allowing = false): Promise<void> {
    for (const [index, step] of steps.entries()) {
      const path = `${prefix}${index + 1}`;
      if (this.stopped || this.halted) {
        this.skip(step, path);
        continue;
      }
      await this.step(step, path, scope, allowing);
    }
  }

  /** A failure that was not continued past: the flow's remaining steps are skipped. */
  private halted = false;

  /**
   * The steps inside a step (a group or Midscene task, a branch, a loop, a used flow). A failure among them ends
   * them, and ends the flow unless the step continues on error. The step's own result, recorded before its steps
   * ran (so reports list it first), then says that a step inside it failed (and whether that was allowed), and
   * takes their time; only then is it told (onStep), so its line says how it ended, `!` or ✗ rather than a ✓
   * printed before its steps ran.
   */
  private async inside(step: FlowStep, own: StepResult, allowing: boolean, run: (allowing: boolean) => Promise<void>): Promise<void> {
    const before = this.result.steps.length;
    const started = Date.now() - own.durationMs;
    await run(allowing || step.continueOnError);
    if (step.continueOnError && this.halted && !this.stopped) this.halted = false;
    const failed = this.result.steps.slice(before).filter((inner) => inner.status === 'failed');
    const first = failed[0];
    own.durationMs = Date.now() - started;
    if (first !== undefined) {
      own.status = 'failed';
      own.reason = `step ${first.path} (${first.label}, line ${first.at.line}) failed: ${first.reason ?? 'failed'}`;
      if (failed.every((inner) => inner.allowed === true)) own.allowed = true;
      else if (failed.some((inner) => inner.continued === true)) own.continued = true;
    }
    this.options.onStep?.(this.top, own);
  }

  private async step(step: FlowStep, path: string, scope: Scope, allowing = false): Promise<void> {
    const started = Date.now();
    const spentBefore = this.agent.cost.dollars ?? 0;
    const stepsBefore = this.agent.steps.length;
    const base = { path, label: step.label, kind: step.kind, at: step.at };
    const allow = allowing || step.continueOnError;
    let text: string | undefined;
    try {
      switch (step.kind) {
        case 'do':
          text = this.render(step.text, scope);
          await this.agent.do(text, { ...this.signal(allow), ...(step.files === undefined ? {} : { files: step.files }) });
          break;
        case 'assert':
          text = this.render(step.text, scope);
          await this.agent.assert(text, this.signal(allow));
          break;
        case 'extract': {
          text = this.render(step.text, scope);
          const value = await this.agent.extract(text, step.schema, this.signal(allow));
          if (step.as !== undefined) scope[step.as] = this.withoutPlaceholders(value);
          break;
        }
        case 'locate': {
          text = this.render(step.text, scope);
          const located = await this.agent.locate(text, this.signal(allow));
          if (step.as !== undefined) scope[step.as] = located;
          break;
        }
        case 'wait_for':
          text = this.render(step.text, scope);
          await this.agent.waitFor(text, { timeout: step.timeoutMs, ...this.signal(allow) });
          break;
        case 'goto':
          text = this.render(step.url, scope);
          await this.agent.goto(text);
          break;
        case 'javascript': {
          text = this.render(step.code, scope);
          const value = await this.agent.evaluate(text, this.signal(allow));
          if (step.as !== undefined) scope[step.as] = this.withoutPlaceholders(value);
          this.record(step, { ...base, text }, started, spentBefore, stepsBefore, 'passed', value);
          return;
        }
        case 'note': {
          const title = this.render(step.title, scope);
          const content = this.render(step.content, scope);
          text = content === '' ? title : `${title}: ${content}`;
          await this.agent.note(title, content);
          break;
        }
        case 'sleep':
          text = `${step.ms} ms`;
          await sleep(step.ms, undefined, { signal: this.options.signal }).catch(() => undefined);
          if (this.options.signal.aborted) this.stopped = true;
          break;
        case 'if': {
          text = this.render(step.text, scope);
          const holds = await this.agent.check(text, this.signal(allow));
          const own = this.record(step, { ...base, text }, started, spentBefore, stepsBefore, 'passed', holds, undefined, false, false);
          await this.inside(step, own, allowing, (inner) => this.steps(holds ? step.then : step.else, `${path}.${holds ? 'then' : 'else'}.`, scope, inner));
          return;
        }
        case 'for_each': {
          text = step.items;
          const items = templateValue(step.items, scope);
          if (!Array.isArray(items)) throw new TemplateError(`${step.items} is not a list (for_each needs one)`);
          const own = this.record(step, { ...base, text }, started, spentBefore, stepsBefore, 'passed', items.length, undefined, false, false);
          await this.inside(step, own, allowing, async (inner) => {
            for (const [index, item] of items.entries()) {
              if (this.stopped || this.halted) break;
              await this.steps(step.steps, `${path}[${index + 1}].`, { ...scope, [step.as]: item }, inner);
            }
          });
          return;
        }
        case 'use': {
          text = step.flow.name;
          const given: Scope = {};
          for (const [name, value] of Object.entries(step.with)) given[name] = typeof value === 'string' ? this.render(value, scope) : value;
          const own = this.record(step, { ...base, text }, started, spentBefore, stepsBefore, 'passed', undefined, undefined, false, false);
          await this.inside(step, own, allowing, (inner) => this.steps(step.flow.steps, `${path}.use.`, flowScope(step.flow, given, {}, this.secretNames), inner));
          return;
        }
        case 'group': {
          text = step.name;
          const own = this.record(step, { ...base, text }, started, spentBefore, stepsBefore, 'passed', undefined, undefined, false, false);
          await this.inside(step, own, allowing, (inner) => this.steps(step.steps, `${path}.`, scope, inner));
          return;
        }
      }
      this.record(step, { ...base, text }, started, spentBefore, stepsBefore, 'passed');
    } catch (error) {
      const status: StepResultStatus = error instanceof StepStoppedError || this.options.signal.aborted ? 'stopped' : 'failed';
      const reason = error instanceof StepFailedError ? error.reason || error.message : error instanceof Error ? error.message : String(error);
      const allowed = status === 'failed' && (allowing || step.continueOnError);
      this.record(step, { ...base, text }, started, spentBefore, stepsBefore, status, undefined, reason, allowed);
      if (status === 'stopped') {
        this.stopped = true;
        return;
      }
      if (!allowed) {
        this.failed = true;
        this.firstFailure ??= `step ${path} (${step.label}, line ${step.at.line}) failed: ${reason}`;
      }
      if (!step.continueOnError && !this.options.continueOnError) this.halted = true;
    }
  }

  private record(
    step: FlowStep,
    base: Pick<StepResult, 'path' | 'label' | 'kind' | 'at' | 'text'>,
    started: number,
    spentBefore: number,
    stepsBefore: number,
    status: StepResultStatus,
    value?: unknown,
    reason?: string,
    allowed = false,
    // A step holding steps is told when they have run (inside), not now.
    tell = true,
  ): StepResult {
    const sdkStep: StepRecord | undefined = this.agent.steps.length > stepsBefore ? this.agent.steps[this.agent.steps.length - 1] : undefined;
    const spent = this.agent.cost.dollars;
    const answer = sdkStep?.answer;
    const result: StepResult = {
      ...base,
      status,
      reason: reason ?? sdkStep?.reason,
      evidence: sdkStep?.evidence ?? [],
      ...(value !== undefined ? { value } : answer !== undefined && step.kind !== 'wait_for' ? { value: answer.value } : {}),
      ...((step.kind === 'extract' || step.kind === 'javascript' || step.kind === 'locate') && step.as !== undefined ? { as: step.as } : {}),
      durationMs: Date.now() - started,
      costDollars: spent === null ? undefined : spent - spentBefore,
      ...(sdkStep !== undefined && sdkStep.cost.unpricedTokens > 0 ? { costUnknown: true as const } : {}),
      turnId: sdkStep?.turnId,
      ...(allowed ? { allowed: true } : status === 'failed' && this.options.continueOnError ? { continued: true } : {}),
      ...(sdkStep?.replay === undefined ? {} : { replay: replayResultOf(sdkStep.replay) }),
    };
    this.result.steps.push(result);
    if (tell) this.options.onStep?.(this.top, result);
    return result;
  }

  private skip(step: FlowStep, path: string): void {
    const result: StepResult = {
      path,
      label: step.label,
      kind: step.kind,
      // Not rendered (its values may never exist): the step as the file wrote it.
      text: 'text' in step ? step.text : step.kind === 'goto' ? step.url : step.kind === 'javascript' ? step.code : step.kind === 'note' ? step.title : undefined,
      at: step.at,
      status: 'skipped',
      reason: this.stopped ? 'the flow was stopped' : 'an earlier step failed',
      evidence: [],
      durationMs: 0,
      costDollars: undefined,
      turnId: undefined,
    };
    this.result.steps.push(result);
  }

  /**
   * An extracted value as later steps' templates see it: a secret's placeholder in it (a page can show
   * `{{SHOP_PASSWORD}}`) is written with its braces apart, so that a step using the value does not name the
   * secret and cannot have it typed. The step's own result keeps the value as it was read.
   */
  private withoutPlaceholders(value: unknown): unknown {
    if (this.secretNames.length === 0) return value;
    const placeholder = new RegExp(`\\{\\{(${this.secretNames.join('|')})\\}\\}`, 'g');
    return redactStrings(value, (text) => text.replace(placeholder, '{ {$1} }'));
  }

  private render(text: string, scope: Scope): string {
    return renderTemplate(text, scope, { secrets: this.secretNames });
  }

  /**
   * What every model step is given: the stop signal, the script's context for the model (aiActionContext), and
   * whether it may fail (continue_on_error), so that its turn is marked allowed in the timeline when it does.
   */
  private signal(allowFailure = false): { signal: AbortSignal; context?: string; allowFailure?: boolean } {
    return { signal: this.options.signal, ...(this.top.context === undefined ? {} : { context: this.top.context }), ...(allowFailure ? { allowFailure } : {}) };
  }
}
