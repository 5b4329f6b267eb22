/**
 * The screenshots of a turn: capture, dedup against the last stored frame, store what changed, and tell
 * the timeline. What the model was shown is not kept here: it travels with each call as a value (the
 * call scope's `shown`), from the request or the MCP result that showed it.
 *
 * One recorder serves one operator, so one turn at a time: the agent refuses a second concurrent turn.
 */
import type { ImageSource } from '../../shared/images.js';
import type { Storage } from '../storage/index.js';
import type { Operator } from '../operators/operator.js';
import type { Frame, RawImage } from '../perception/frame.js';
import type { FrameSource } from '../perception/frame-source.js';
import { dedupFrame, type DedupSettings, type PreviousImage } from '../perception/capture-with-dedup.js';
import { computeHash } from '../perception/hashes.js';
import { encodeLossless } from '../perception/image-encoding.js';
import { watchUntilSettled, type SettleClock, type SettleSettings } from '../perception/settle-watch.js';
import { sleepUnlessAborted } from '../operators/pause.js';
import type { Emit } from './event-emitter.js';

/** How the screen settled after an action (absent when the screenshot was taken at once). */
export interface SettleOutcome {
  /** False when the screen was still changing at the cap: the screenshot is the last frame seen. */
  settled: boolean;
  /** From the end of the action to the capture of the screenshot. */
  waitedMs: number;
  /** Frames captured while watching, the screenshot included; only the screenshot is stored. */
  frames: number;
  /** The cap it was watched under (perception.settle.maxMs). */
  maxMs: number;
}

export type ScreenCapture =
  | { kind: 'new'; imageId: string; width: number; height: number; settle?: SettleOutcome }
  | { kind: 'unchanged'; sameAs: string; width: number; height: number; settle?: SettleOutcome };

export interface ScreenRecorderOptions {
  operator: Operator;
  storage: Storage;
  dedup: DedupSettings;
  emit: Emit;
  /** How to watch the screen settle after an action; absent, the screenshot is taken at once (tests). */
  settle?: SettleSettings | undefined;
  /** Test seam for the watch's time. */
  settleClock?: SettleClock | undefined;
}

interface TurnScope {
  sessionId: string;
  turnId: string;
}

export class ScreenRecorder {
  private scope: TurnScope | undefined;
  private lastStored: PreviousImage | undefined;
  private lastSeen: Frame | undefined;
  /**
   * The frame the last watch settled on, kept across turns: the next turn's first watch takes a capture
   * pixel-identical to it as settled at once, instead of watching again what the last action's watch already saw
   * settle. Any change since shows as a pixel, and is watched as usual.
   */
  private lastSettled: Frame | undefined;
  /** The recording's settled frame after the action about to be replayed (expectSettledFrame); one action only. */
  private expected: RawImage | undefined;
  /** PNGs of the latest watch's last frames, started as each was captured (encodingSource). */
  private encodings: Array<{ frame: Frame; png: Promise<Buffer> }> = [];

  constructor(private readonly options: ScreenRecorderOptions) {}

  /** A new turn starts from a fresh screenshot: its first frame is always stored (an anchor for compaction). */
  beginTurn(scope: TurnScope): void {
    this.scope = scope;
    this.lastStored = undefined;
    this.expected = undefined;
  }

  /**
   * What the next watched capture may settle on at its first frame: the screen a replayed action led to when it
   * was recorded. Only for an action the recording shows changed the screen: one that changed nothing keeps the
   * unchanged minimum (the app may not have reacted yet). Used by the next capture after an action, then dropped.
   */
  expectSettledFrame(frame: RawImage | undefined): void {
    this.expected = frame;
  }

  /** The screen now; after an action, once it has settled (or at the cap). */
  async capture(afterAction: boolean): Promise<ScreenCapture> {
    const scope = this.requireScope();
    const { frame, hash, settle } = await this.captureFrame(afterAction);
    this.lastSeen = frame;
    const result = dedupFrame({ frame, hash }, this.lastStored, this.options.dedup);
    const settleField = settle === undefined ? {} : { settle };
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
      return { kind: 'unchanged', sameAs: result.sameAs, width: previous.width, height: previous.height, ...settleField };
    }
    const record = await this.options.storage.images.put({
      sessionId: scope.sessionId,
      turnId: scope.turnId,
      bytes: await this.pngOf(frame),
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
    return { kind: 'new', imageId: record.id, width: frame.width, height: frame.height, ...settleField };
  }

  /**
   * The pixels of the latest capture, stored or found unchanged: what a replay compares with its recording
   * (an unchanged capture's own pixels, not the stored frame it repeats).
   */
  latestFrame(): Frame | undefined {
    return this.lastSeen;
  }

  /**
   * The id of the turn's latest stored frame: the screen as Sightline last recorded it (a later capture found
   * unchanged repeats it). What Claude's zoom cuts from, so a zoom needs no capture of its own.
   */
  latestStoredImageId(): string | undefined {
    return this.lastStored?.imageId;
  }

  /**
   * Waits, looking at the screen every `pollMs`, until it differs from the last stored frame by the dedup rule
   * (the same rule that decides what is stored), then records it as after an action: settled, deduplicated,
   * stored. Undefined when the deadline passes first. A frame looked at and found the same is dropped, so a
   * screen that does not change costs one capture per poll and nothing else (a wait_for asks the model again
   * only when this returns). The dedup rule applies here even where dedup is off for storing.
   */
  async waitForChange(options: { deadline: number; pollMs: number; signal: AbortSignal; now?: () => number }): Promise<{ imageId: string; width: number; height: number } | undefined> {
    const now = options.now ?? Date.now;
    const { operator, dedup } = this.options;
    for (;;) {
      const left = options.deadline - now();
      if (left <= 0) return undefined;
      await sleepUnlessAborted(Math.min(options.pollMs, left), options.signal);
      if (options.signal.aborted) throw new Error('The wait was stopped.');
      const frame = await operator.capture();
      const looked = dedupFrame({ frame, hash: computeHash(frame, dedup.algorithm) }, this.lastStored, { ...dedup, enabled: true });
      if (looked.kind === 'unchanged') continue;
      const recorded = await this.capture(true);
      // A change that went back before it settled is no change.
      if (recorded.kind === 'new') return { imageId: recorded.imageId, width: recorded.width, height: recorded.height };
    }
  }

  /**
   * The frame's PNG for the blob: the source's own when it gave one (Chromium's, stored as it came), else one
   * encoded while the watch waited for its next frame (of this frame or an earlier one with the same pixels),
   * else encoded now.
   */
  private async pngOf(frame: Frame): Promise<Buffer> {
    if (frame.png !== undefined) return frame.png;
    const early = this.encodings.find((encoding) => encoding.frame === frame) ?? this.encodings.find((encoding) => encoding.frame.width === frame.width && encoding.frame.height === frame.height && encoding.frame.rgba.equals(frame.rgba));
    this.encodings = [];
    return (await early?.png.catch(() => undefined)) ?? encodeLossless(frame);
  }

  /**
   * The operator as the watch sees it: each frame's PNG starts to be encoded (off the main thread, in sharp's
   * pool) as soon as it is captured, while the watch sleeps until its next frame. A settled pair is most often
   * the same pixels twice, so the PNG of the pair's first frame is ready when the second is stored. Only the
   * last two are kept; an encoding no frame uses is dropped.
   */
  private encodingSource(): FrameSource {
    const { operator } = this.options;
    this.encodings = [];
    return {
      capture: async () => {
        const frame = await operator.capture();
        if (frame.png === undefined) {
          const png = encodeLossless(frame);
          png.catch(() => undefined);
          this.encodings = [...this.encodings.slice(-1), { frame, png }];
        }
        return frame;
      },
    };
  }

  /** One frame, hashed; after an action, the settled one, from frames that are compared and dropped. */
  private async captureFrame(afterAction: boolean): Promise<{ frame: Frame; hash: string; settle?: SettleOutcome }> {
    const { operator, dedup, settle } = this.options;
    const expected = this.expected;
    this.expected = undefined;
    if (!afterAction || settle === undefined || settle.maxMs === 0) {
      const frame = await operator.capture();
      return { frame, hash: computeHash(frame, dedup.algorithm) };
    }
    // At a turn's start nothing was just done: the screen the last watch settled on, still there to the pixel, is settled.
    const turnStart = this.lastStored === undefined;
    const knownSettled = turnStart ? this.lastSettled : expected;
    const source = this.encodingSource();
    const watch = () => watchUntilSettled(source, {
      settings: turnStart && knownSettled !== undefined ? { ...settle, firstWaitMs: 0 } : settle,
      knownSettled,
      comparison: { algorithm: dedup.algorithm, threshold: dedup.threshold },
      clock: this.options.settleClock,
      before: this.lastStored === undefined ? undefined : { frame: this.lastStored.frame, hash: this.lastStored.hashAlgorithm === dedup.algorithm ? this.lastStored.hash : undefined },
      waitForPendingWork: operator.waitForPendingWork === undefined ? undefined : (remainingMs) => operator.waitForPendingWork!(remainingMs),
    });
    const settled = operator.aroundCaptures === undefined ? await watch() : await operator.aroundCaptures(watch);
    this.lastSettled = settled.settled ? settled.frame : undefined;
    return {
      frame: settled.frame,
      hash: settled.hash,
      settle: { settled: settled.settled, waitedMs: Math.round(settled.waitedMs), frames: settled.frames, maxMs: settle.maxMs },
    };
  }

  private imageSource(): ImageSource {
    return this.options.operator.describe().kind === 'browser' ? 'browser' : 'screen';
  }

  private requireScope(): TurnScope {
    if (this.scope === undefined) throw new Error('The screen recorder has no turn: call beginTurn first.');
    return this.scope;
  }
}
