/**
 * A turn's beginning and end. It begins with a user request (a session is created or continued, a turn
 * row started, the request stored) and ends exactly once, whatever path the loop took: the turn row gets
 * its status, the session is idle again, the turn-end hooks run once, and `turn-ended` is emitted.
 */
import { textOfParts, type MessagePart, type UserMessage } from '../../shared/messages.js';
import type { StepKind, TurnAnswer } from '../../shared/answers.js';
import type { TurnReplay } from '../../shared/replay.js';
import type { TurnEndReason, TurnEndStatus } from '../../shared/statuses.js';
import { NO_COST, type CostTotals } from '../../shared/cost.js';
import type { TokenUsage } from '../../shared/token-usage.js';
import { decodeImageBytes } from '../perception/image-encoding.js';
import type { SessionRecord, Storage } from '../storage/index.js';
import type { TurnEndHook, TurnOutcome } from './agent-contract.js';
import type { Emit } from './event-emitter.js';

export interface TurnEnding {
  status: TurnEndStatus;
  reason: TurnEndReason;
  summary?: string;
  /** The model's validated answer, for a turn that asked a question. */
  answer?: TurnAnswer;
  /** What the turn's replay came to, for a turn with a replay key. */
  replay?: TurnReplay;
}

/** The request names a session that cannot take a turn: the caller's mistake, before any turn exists. */
export class SessionUnavailableError extends Error {
  override name = 'SessionUnavailableError';
}

const TITLE_LENGTH = 80;

export interface TurnBeginning {
  request: UserMessage;
  sessionId: string | undefined;
  operatorKind: string;
  modelName: string;
  /** The kind of flow step the turn runs for, stored with it. */
  stepKind?: StepKind | undefined;
  /** A new session is named for the flow that runs it. */
  flowName?: string | undefined;
  /** The key the step's recording is found by (shared/replay.ts). */
  replayKey?: string | undefined;
}

export class TurnLifecycle {
  private ended: TurnOutcome | undefined;

  private constructor(
    private readonly storage: Storage,
    private readonly emit: Emit,
    readonly sessionId: string,
    readonly turnId: string,
  ) {}

  /** Starts the turn: session, turn row, `turn-started`. The request itself is stored by `storeRequest`. */
  static begin(storage: Storage, emit: Emit, beginning: TurnBeginning): TurnLifecycle {
    const requestText = textOfParts(beginning.request.parts);
    const started = storage.transaction(() => {
      const session = resolveSession(storage, beginning, requestText);
      const turn = storage.turns.start({ sessionId: session.id, userRequest: requestText, stepKind: beginning.stepKind, replayKey: beginning.replayKey });
      storage.sessions.setStatus(session.id, 'running');
      return turn;
    });
    emit({
      type: 'turn-started',
      sessionId: started.sessionId,
      turnId: started.id,
      at: Date.now(),
      request: requestText,
      sequence: started.sequence,
    });
    return new TurnLifecycle(storage, emit, started.sessionId, started.id);
  }

  /** Stores the user's request; images that came with pixels go to the image store first (rows keep ids). */
  async storeRequest(request: UserMessage): Promise<void> {
    const parts: MessagePart[] = [];
    for (const part of request.parts) {
      if (part.type === 'image' && part.data !== undefined && part.mime !== undefined) {
        const bytes = Buffer.from(part.data, 'base64');
        const size = await decodeImageBytes(bytes);
        const record = await this.storage.images.put({
          sessionId: this.sessionId,
          turnId: this.turnId,
          bytes,
          mime: part.mime,
          width: size.width,
          height: size.height,
          source: 'user',
        });
        parts.push({ type: 'image', imageId: record.id });
      } else {
        parts.push(part);
      }
    }
    this.storage.messages.append({ sessionId: this.sessionId, turnId: this.turnId, message: { role: 'user', parts } });
  }

  get isEnded(): boolean {
    return this.ended !== undefined;
  }

  /**
   * Ends the turn once; later calls return the first outcome. Each hook runs once; a hook that fails is
   * reported as a warning and does not keep the others from running.
   */
  async end(ending: TurnEnding, usage: TokenUsage, hooks: readonly TurnEndHook[], cost: CostTotals = NO_COST): Promise<TurnOutcome> {
    if (this.ended !== undefined) return this.ended;
    const steps = this.storage.steps.listByTurn(this.turnId).length;
    const outcome: TurnOutcome = {
      sessionId: this.sessionId,
      turnId: this.turnId,
      status: ending.status,
      reason: ending.reason,
      ...(ending.summary === undefined ? {} : { summary: ending.summary }),
      ...(ending.answer === undefined ? {} : { answer: ending.answer }),
      ...(ending.replay === undefined ? {} : { replay: ending.replay }),
      steps,
      usage,
      cost,
    };
    this.ended = outcome;
    this.storage.transaction(() => {
      this.storage.turns.end(this.turnId, ending.status, ending.answer, ending.replay);
      this.storage.sessions.setStatus(this.sessionId, 'idle');
    });
    for (const hook of hooks) {
      try {
        await hook({ sessionId: this.sessionId, turnId: this.turnId, status: ending.status });
      } catch (error) {
        this.emit({
          type: 'warning',
          sessionId: this.sessionId,
          turnId: this.turnId,
          at: Date.now(),
          message: `A turn-end hook failed: ${error instanceof Error ? error.message : String(error)}`,
        });
      }
    }
    this.emit({
      type: 'turn-ended',
      sessionId: this.sessionId,
      turnId: this.turnId,
      at: Date.now(),
      status: ending.status,
      reason: ending.reason,
      ...(ending.summary === undefined ? {} : { summary: ending.summary }),
      ...(ending.replay === undefined ? {} : { replay: ending.replay }),
      steps,
      usage,
      cost,
    });
    return outcome;
  }
}

function resolveSession(storage: Storage, beginning: TurnBeginning, requestText: string): SessionRecord {
  if (beginning.sessionId === undefined) {
    return storage.sessions.create({
      title: sessionTitle(beginning.flowName ?? requestText),
      operator: beginning.operatorKind,
      model: beginning.modelName,
      flowName: beginning.flowName ?? null,
    });
  }
  const session = storage.sessions.get(beginning.sessionId);
  if (session === undefined) throw new SessionUnavailableError(`There is no session ${beginning.sessionId}.`);
  if (session.status === 'closed') {
    throw new SessionUnavailableError(`Session ${beginning.sessionId} is closed and cannot take a new request.`);
  }
  return session;
}

function sessionTitle(requestText: string): string {
  const oneLine = requestText.replace(/\s+/g, ' ').trim();
  if (oneLine === '') return 'Untitled session';
  return oneLine.length <= TITLE_LENGTH ? oneLine : `${oneLine.slice(0, TITLE_LENGTH - 1)}…`;
}
