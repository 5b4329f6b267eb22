/**
 * The screenshots of a turn: capture, dedup against the last stored frame, store what changed, and tell
 * the timeline. What the model was shown is not kept here: it travels with each call as a value (the
 * call scope's `shown`), from the request or the MCP result that showed it.
 *
 * One recorder serves one operator, so one turn at a time: the agent refuses a second concurrent turn.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { ImageSource } from '../../shared/images.js';
import type { Storage } from '../storage/index.js';
import type { Operator } from '../operators/operator.js';
import { captureWithDedup, type DedupSettings, type PreviousImage } from '../perception/capture-with-dedup.js';
import { encodeLossless } from '../perception/image-encoding.js';
import type { Emit } from './event-emitter.js';

export type ScreenCapture =
  | { kind: 'new'; imageId: string; width: number; height: number }
  | { kind: 'unchanged'; sameAs: string; width: number; height: number };

export interface ScreenRecorderOptions {
  operator: Operator;
  storage: Storage;
  dedup: DedupSettings;
  emit: Emit;
  settleDelayMs: number;
}

interface TurnScope {
  sessionId: string;
  turnId: string;
}

export class ScreenRecorder {
  private scope: TurnScope | undefined;
  private lastStored: PreviousImage | undefined;

  constructor(private readonly options: ScreenRecorderOptions) {}

  /** A new turn starts from a fresh screenshot: its first frame is always stored (an anchor for compaction). */
  beginTurn(scope: TurnScope): void {
    this.scope = scope;
    this.lastStored = undefined;
  }

  /** The screen now; after an action, waits for it to settle first. */
  async capture(afterAction: boolean): Promise<ScreenCapture> {
    const scope = this.requireScope();
    if (afterAction && this.options.settleDelayMs > 0) await sleep(this.options.settleDelayMs);
    const result = await captureWithDedup(this.options.operator, this.lastStored, this.options.dedup);
    if (result.kind === 'unchanged') {
      const previous = this.lastStored!.frame;
      this.options.emit({
        type: 'screenshot',
        sessionId: scope.sessionId,
        turnId: scope.turnId,
        at: Date.now(),
        imageId: result.sameAs,
        unchangedFrom: result.sameAs,
        width: previous.width,
        height: previous.height,
      });
      return { kind: 'unchanged', sameAs: result.sameAs, width: previous.width, height: previous.height };
    }
    const { frame } = result;
    const record = await this.options.storage.images.put({
      sessionId: scope.sessionId,
      turnId: scope.turnId,
      bytes: await encodeLossless(frame),
      mime: 'image/png',
      width: frame.width,
      height: frame.height,
      phash: result.hash,
      hashAlgorithm: result.algorithm,
      source: this.imageSource(),
      ...(frame.displayId === null ? {} : { displayId: frame.displayId }),
      scaleFactor: frame.scaleFactor,
    });
    this.lastStored = { frame, imageId: record.id, hash: result.hash, hashAlgorithm: result.algorithm };
    this.options.emit({
      type: 'screenshot',
      sessionId: scope.sessionId,
      turnId: scope.turnId,
      at: Date.now(),
      imageId: record.id,
      width: frame.width,
      height: frame.height,
    });
    return { kind: 'new', imageId: record.id, width: frame.width, height: frame.height };
  }

  private imageSource(): ImageSource {
    return this.options.operator.describe().kind === 'browser' ? 'browser' : 'screen';
  }

  private requireScope(): TurnScope {
    if (this.scope === undefined) throw new Error('The screen recorder has no turn: call beginTurn first.');
    return this.scope;
  }
}
