/**
 * The screenshots of a turn: capture, dedup against the last stored frame, store what changed, and tell
 * the timeline. It also remembers what the model was last shown (the view its coordinates refer to).
 *
 * One recorder serves one operator, so one turn at a time: the agent refuses a second concurrent turn.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { ImageSource, Storage } from '../storage/index.js';
import type { ModelView } from '../../shared/model-view.js';
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
  /** What the model's coordinates refer to: the last screenshot in its latest request. */
  private shown: { view: ModelView; imageId: string } | undefined;

  constructor(private readonly options: ScreenRecorderOptions) {}

  /** A new turn starts from a fresh screenshot: its first frame is always stored (an anchor for compaction). */
  beginTurn(scope: TurnScope): void {
    this.scope = scope;
    this.lastStored = undefined;
    this.shown = undefined;
  }

  /** Records what the latest request showed the model (from the request builder). */
  showModel(view: ModelView | undefined, imageId: string | undefined): void {
    this.shown = view === undefined || imageId === undefined ? undefined : { view, imageId };
  }

  /** The view of the screenshot the model last saw, for mapping its coordinates. */
  get modelView(): ModelView | undefined {
    return this.shown?.view;
  }

  get modelScreenshotId(): string | undefined {
    return this.shown?.imageId;
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
