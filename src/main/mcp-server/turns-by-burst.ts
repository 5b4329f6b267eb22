/**
 * An MCP client's calls, grouped into turns by bursts. One session per host (per server process), titled
 * "MCP: <client name>", created at the first call (a connection that calls nothing leaves nothing behind).
 * A turn begins with a call and ends once no call has come for `idleTurnEndMs` (or when the host closes).
 * Not a turn per call: the screen recorder dedups within a turn, so a turn per call would store every
 * screenshot again, and the timeline would show a one-step turn per click. Not one turn for the whole
 * process either: a turn that ends only at exit would stay "running" for hours and never be compacted.
 *
 * Calls run one at a time, in the order they came: one operator has one screen and one pointer, as the
 * agent runs one turn at a time. A turn's end waits in the same queue, so it never cuts a call short.
 */
import { userText } from '../../shared/messages.js';
import type { HostedTools, ToolTurn, TurnEndHook } from '../agent/index.js';
import type { Operator } from '../operators/operator.js';
import type { Storage } from '../storage/index.js';

export interface TurnsByBurstOptions {
  tools: HostedTools;
  storage: Storage;
  /** Its kind goes on the session row. */
  operator: Operator;
  idleTurnEndMs: number;
  turnEndHooks: readonly TurnEndHook[];
}

const UNKNOWN_CLIENT = 'an MCP client';

export class TurnsByBurst {
  private clientName = UNKNOWN_CLIENT;
  private sessionId: string | undefined;
  private turn: ToolTurn | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;

  constructor(private readonly options: TurnsByBurstOptions) {}

  /** Names the session and its turns after the client (from the initialize handshake). */
  setClientName(name: string | undefined): void {
    if (name !== undefined && name.trim() !== '') this.clientName = name.trim();
  }

  /** The session the calls are recorded into, once the first call has made it. */
  get currentSessionId(): string | undefined {
    return this.sessionId;
  }

  /**
   * Runs one call's work after the calls before it, in the open turn (a turn begins when none is open),
   * and lets the turn end if no call follows in time. Undefined, and nothing run, once closed.
   */
  run<T>(work: (turn: ToolTurn) => Promise<T>): Promise<T | undefined> {
    return this.enqueue(async () => {
      if (this.closed) return undefined;
      clearTimeout(this.idleTimer);
      try {
        return await work(await this.openTurn());
      } finally {
        this.scheduleEnd();
      }
    });
  }

  /** Ends the open turn (its calls stay recorded); later calls are not run. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.idleTimer);
    await this.enqueue(() => this.endTurn());
  }

  private enqueue<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => {});
    return next;
  }

  private async openTurn(): Promise<ToolTurn> {
    if (this.turn !== undefined) return this.turn;
    const { storage, operator, tools } = this.options;
    this.sessionId ??= storage.sessions.create({ title: `MCP: ${this.clientName}`, operator: operator.describe().kind }).id;
    this.turn = await tools.beginTurn(this.sessionId, userText(`Tool calls from ${this.clientName} over MCP.`));
    return this.turn;
  }

  private scheduleEnd(): void {
    if (this.closed) return;
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => void this.enqueue(() => this.endTurn()), this.options.idleTurnEndMs);
    // A pending turn end must not keep the process alive once the client has gone.
    this.idleTimer.unref();
  }

  private async endTurn(): Promise<void> {
    const turn = this.turn;
    if (turn === undefined) return;
    this.turn = undefined;
    const calls = this.options.storage.steps.listByTurn(turn.turnId).length;
    const summary = `${calls} call${calls === 1 ? '' : 's'} from ${this.clientName} over MCP.`;
    await turn.end({ status: 'finished', reason: 'finished', summary }, this.options.turnEndHooks);
  }
}
