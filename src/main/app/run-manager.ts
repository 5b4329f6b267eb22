/**
 * The runs the app API started: at most one per session, each with its AbortController (stop), its pause
 * gate, and the confirmations and questions it waits on, keyed by the requestId the agent put in its event,
 * so answerConfirmation / answerQuestion from any window or browser tab resolve the right one. Every agent
 * event, and the run's own state changes, go out on the event bus.
 */
import { AppApiError, type PendingRequest, type Run, type RunState } from '../../shared/app-api.js';
import type { AgentEvent } from '../../shared/events.js';
import { SessionUnavailableError, type AskUserHandler, type ConfirmationHandler, type TurnOutcome, type TurnRequest } from '../agent/index.js';
import { requestWithPictures, type CheckedPicture } from '../perception/attached-pictures.js';
import type { EventBus } from './event-bus.js';
import type { RunAssembler, RunSettings } from './app-run-assembler.js';

export interface StartRunRequest extends RunSettings {
  sessionId?: string | undefined;
  task: string;
  /** Pictures attached to the request, already checked (perception/attached-pictures.ts). */
  pictures?: readonly CheckedPicture[] | undefined;
}

type Waiter<Answer> = { resolve: (answer: Answer) => void };

interface PendingEntry {
  request: PendingRequest;
  answer: Waiter<boolean> | Waiter<string>;
}

interface ActiveRun {
  sessionId: string | undefined;
  turnId: string | undefined;
  task: string;
  startedAt: number;
  state: RunState;
  controller: AbortController;
  /** Resolves the gate of a paused run. */
  resumeWaiters: Set<() => void>;
  pending: Map<string, PendingEntry>;
  finished: Promise<void>;
}

export class RunManager {
  private readonly runs = new Set<ActiveRun>();

  constructor(
    private readonly assemble: RunAssembler,
    private readonly bus: EventBus,
  ) {}

  /** Starts a turn and resolves once the agent has its session and turn (the turn runs on in the background). */
  async start(request: StartRunRequest): Promise<{ sessionId: string; turnId: string }> {
    if (request.sessionId !== undefined && this.runOf(request.sessionId) !== undefined) {
      throw new AppApiError('conflict', `Session ${request.sessionId} is already running a task; stop it or wait for it to end.`);
    }
    const run: ActiveRun = {
      sessionId: request.sessionId,
      turnId: undefined,
      task: request.task,
      startedAt: Date.now(),
      state: 'running',
      controller: new AbortController(),
      resumeWaiters: new Set(),
      pending: new Map(),
      finished: Promise.resolve(),
    };
    // Reserved before anything asynchronous, so two quick starts on one session cannot both pass the check.
    this.runs.add(run);
    let assembled;
    try {
      assembled = await this.assemble(request, {
        confirm: this.confirmationHandler(run),
        askUser: this.questionHandler(run),
        onEvent: (event) => this.relay(run, event),
        beforeStep: (signal) => this.untilResumed(run, signal),
      });
    } catch (error) {
      this.runs.delete(run);
      throw error;
    }

    const turnRequest: TurnRequest = {
      ...(request.sessionId === undefined ? {} : { sessionId: request.sessionId }),
      request: requestWithPictures(request.task, request.pictures ?? []),
      signal: run.controller.signal,
      ...(request.ephemeral === undefined ? {} : { ephemeral: [request.ephemeral] }),
    };
    const turn = assembled.agent.runTurn(turnRequest);
    run.finished = this.finish(run, turn, () => assembled.close());
    // The agent emits turn-started synchronously inside runTurn, before its first await, so the run knows
    // its session and turn now, unless the turn could not begin at all.
    if (run.sessionId !== undefined && run.turnId !== undefined) return { sessionId: run.sessionId, turnId: run.turnId };
    try {
      const outcome = await turn;
      return { sessionId: outcome.sessionId, turnId: outcome.turnId };
    } catch (error) {
      if (error instanceof SessionUnavailableError) throw new AppApiError('conflict', error.message);
      throw error;
    }
  }

  /** Stops a session's run; false when it has none. The turn ends as stopped (its current action finishes or is abandoned). */
  stop(sessionId: string): boolean {
    const run = this.runOf(sessionId);
    if (run === undefined) return false;
    this.stopRun(run, 'Stopped from the timeline');
    return true;
  }

  /**
   * The emergency stop: every run is stopped at once, each the way stop() stops one (its turn ends as
   * stopped, its steps so far kept). Runs still being set up are stopped too, so none starts acting after
   * the person asked for everything to stop. Answers how many runs were asked to stop.
   */
  stopAll(reason: string): number {
    const runs = [...this.runs];
    for (const run of runs) this.stopRun(run, reason);
    return runs.length;
  }

  private stopRun(run: ActiveRun, reason: string): void {
    if (run.state !== 'stopping') {
      run.state = 'stopping';
      this.publishState(run);
    }
    run.controller.abort(new Error(reason));
  }

  pause(sessionId: string): RunState {
    const run = this.requireRun(sessionId);
    if (run.state === 'running') {
      run.state = 'paused';
      this.publishState(run);
    }
    return run.state;
  }

  resume(sessionId: string): RunState {
    const run = this.requireRun(sessionId);
    if (run.state === 'paused') {
      run.state = 'running';
      this.openGate(run);
      this.publishState(run);
    }
    return run.state;
  }

  /** False when no run waits on this request (already answered, or the run ended). */
  answerConfirmation(requestId: string, approved: boolean): boolean {
    const entry = this.takePending(requestId, 'confirmation');
    if (entry === undefined) return false;
    (entry.answer as Waiter<boolean>).resolve(approved);
    return true;
  }

  answerQuestion(requestId: string, answer: string): boolean {
    const entry = this.takePending(requestId, 'question');
    if (entry === undefined) return false;
    (entry.answer as Waiter<string>).resolve(answer);
    return true;
  }

  list(): Run[] {
    return [...this.runs].flatMap((run) =>
      run.sessionId === undefined || run.turnId === undefined
        ? []
        : [
            {
              sessionId: run.sessionId,
              turnId: run.turnId,
              state: run.state,
              task: run.task,
              startedAt: run.startedAt,
              pending: [...run.pending.values()].map((entry) => entry.request),
            },
          ],
    );
  }

  stateOf(sessionId: string): RunState | null {
    return this.runOf(sessionId)?.state ?? null;
  }

  isRunning(sessionId: string): boolean {
    return this.runOf(sessionId) !== undefined;
  }

  /** Stops every run and waits until each has ended and released its operator. */
  async close(): Promise<void> {
    const runs = [...this.runs];
    for (const run of runs) {
      run.state = 'stopping';
      run.controller.abort(new Error('Sightline is closing'));
    }
    await Promise.all(runs.map((run) => run.finished));
  }

  private relay(run: ActiveRun, event: AgentEvent): void {
    if (event.type === 'turn-started') {
      run.sessionId = event.sessionId;
      run.turnId = event.turnId;
    }
    this.bus.publish(event);
    if (event.type === 'turn-started') this.publishState(run);
  }

  private confirmationHandler(run: ActiveRun): ConfirmationHandler {
    return (request, signal) => {
      return this.waitForAnswer<boolean>(run, signal, (resolve) => ({
        request: { kind: 'confirmation', requestId: request.requestId, turnId: request.turnId, action: request.action, reason: request.reason },
        answer: { resolve },
      }));
    };
  }

  private questionHandler(run: ActiveRun): AskUserHandler {
    return (question, asked, signal) => {
      return this.waitForAnswer<string>(run, signal, (resolve) => ({
        request: { kind: 'question', requestId: asked.requestId, turnId: asked.turnId, question },
        answer: { resolve },
      }));
    };
  }

  private waitForAnswer<Answer>(run: ActiveRun, signal: AbortSignal, entryFor: (resolve: (answer: Answer) => void) => PendingEntry): Promise<Answer> {
    return new Promise<Answer>((resolve, reject) => {
      const onAbort = (): void => {
        run.pending.delete(entry.request.requestId);
        reject(signal.reason instanceof Error ? signal.reason : new Error('The run was stopped.'));
      };
      const entry = entryFor((answer) => {
        signal.removeEventListener('abort', onAbort);
        resolve(answer);
      });
      if (signal.aborted) return onAbort();
      run.pending.set(entry.request.requestId, entry);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  private takePending(requestId: string, kind: PendingRequest['kind']): PendingEntry | undefined {
    for (const run of this.runs) {
      const entry = run.pending.get(requestId);
      if (entry !== undefined && entry.request.kind === kind) {
        run.pending.delete(requestId);
        return entry;
      }
    }
    return undefined;
  }

  private untilResumed(run: ActiveRun, signal: AbortSignal | undefined): Promise<void> {
    if (run.state !== 'paused') return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        run.resumeWaiters.delete(resume);
        reject(signal?.reason instanceof Error ? signal.reason : new Error('The run was stopped while paused.'));
      };
      const resume = (): void => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      if (signal?.aborted === true) return onAbort();
      run.resumeWaiters.add(resume);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  private openGate(run: ActiveRun): void {
    const waiters = [...run.resumeWaiters];
    run.resumeWaiters.clear();
    for (const resume of waiters) resume();
  }

  private async finish(run: ActiveRun, turn: Promise<TurnOutcome>, close: () => Promise<void>): Promise<void> {
    try {
      await turn;
    } catch (error) {
      // A turn that could not begin (SessionUnavailableError) is reported to the caller of start; anything else here.
      if (!(error instanceof SessionUnavailableError)) {
        this.bus.publish({
          type: 'run-error',
          ...(run.sessionId === undefined ? {} : { sessionId: run.sessionId }),
          at: Date.now(),
          message: error instanceof Error ? error.message : String(error),
        });
      }
    } finally {
      this.runs.delete(run);
      await close().catch((error: unknown) => {
        console.error(`The operator did not close cleanly: ${error instanceof Error ? error.message : String(error)}`);
      });
      if (run.sessionId !== undefined) {
        this.bus.publish({ type: 'run-state', sessionId: run.sessionId, at: Date.now(), ...(run.turnId ? { turnId: run.turnId } : {}), state: 'ended' });
      }
    }
  }

  private publishState(run: ActiveRun): void {
    if (run.sessionId === undefined) return;
    this.bus.publish({
      type: 'run-state',
      sessionId: run.sessionId,
      at: Date.now(),
      ...(run.turnId === undefined ? {} : { turnId: run.turnId }),
      state: run.state,
    });
  }

  private runOf(sessionId: string): ActiveRun | undefined {
    for (const run of this.runs) if (run.sessionId === sessionId) return run;
    return undefined;
  }

  private requireRun(sessionId: string): ActiveRun {
    const run = this.runOf(sessionId);
    if (run === undefined) throw new AppApiError('not-found', `No task is running on session ${sessionId}.`);
    return run;
  }
}
