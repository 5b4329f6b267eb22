/**
 * Waiting for the screen to settle after an action by watching it, not by sleeping a fixed time.
 *
 * The rule: after a short first wait, capture frames until two consecutive ones are the same by the dedup
 * rule (compare-frames.ts: the global hash within the threshold AND no local change, so one typed
 * character or a ticked checkbox between two frames means "still changing"). The second frame of that pair
 * is the screenshot: it is not captured again. A screen that never settles (a video, a spinner, a caret the
 * page animates) is taken as it is when the cap is reached, and the result says so (`settled: false`).
 * A frame pixel-identical to one known to be this screen settled (`knownSettled`: the recording's settled frame
 * after a replayed action, the last settled frame at a turn's start) needs no second frame: it is settled at once.
 *
 * Only two frames are held at a time and none is stored: the caller stores the one returned, so watching
 * costs memory for two frames (16 MB at 1920x1080) and no disk.
 */
import type { DedupAlgorithm } from '../../shared/config.js';
import { compareFrames } from './compare-frames.js';
import type { Frame, RawImage } from './frame.js';
import type { FrameSource } from './frame-source.js';
import { computeHash } from './hashes.js';

export interface SettleSettings {
  /** The longest the whole watch may take, from the end of the action: no capture starts after it. */
  maxMs: number;
  /** Before the first frame: the time an input event takes to be handled and drawn (one or two frames). */
  firstWaitMs: number;
  /**
   * The least time between the starts of two compared captures: two captures closer than one drawn frame
   * of the screen would be the same picture even mid-animation.
   */
  frameIntervalMs: number;
  /**
   * While the screen still looks as it did before the action (`SettleWatch.before`), an equal pair is not yet
   * "settled" until this long after the action: the app may not have reacted yet. The old fixed sleep's
   * 500 ms, kept as the floor for actions that show nothing, so they are never looked at for less than before.
   */
  unchangedMinimumMs: number;
}

/** The first wait, the frame interval and the floor for unchanged screens; the cap comes from config (perception.settle.maxMs). */
export const SETTLE_TIMING = { firstWaitMs: 30, frameIntervalMs: 50, unchangedMinimumMs: 500 } as const;

export interface SettleComparison {
  algorithm: DedupAlgorithm;
  threshold: number;
}

export interface SettleClock {
  now(): number;
  /** Resolves after `milliseconds` (at once for 0 or less). */
  sleep(milliseconds: number): Promise<void>;
}

export const SYSTEM_CLOCK: SettleClock = {
  now: () => performance.now(),
  sleep: (milliseconds) => (milliseconds > 0 ? new Promise((resolve) => setTimeout(resolve, milliseconds)) : Promise.resolve()),
};

export interface SettleWatch {
  settings: SettleSettings;
  comparison: SettleComparison;
  clock?: SettleClock | undefined;
  /** The screen before the action (the last frame shown), with its hash by `comparison.algorithm` when known. */
  before?: { frame: Frame; hash?: string | undefined } | undefined;
  /**
   * What the source itself knows is still coming (a browser's navigation and network requests), waited for
   * after the first wait and before the first frame, for at most `remainingMs` (what is left of the cap).
   */
  waitForPendingWork?: ((remainingMs: number) => Promise<void>) | undefined;
  /**
   * A picture this screen is known to show once settled: the recording's settled frame after a replayed action,
   * or the frame the last watch settled on at a turn's start. A capture pixel-identical to it is settled at once,
   * without a second frame to pair it with (still not before the unchanged minimum while it also equals
   * `before`). Pixel equality only: a frame merely close to it is watched as any other.
   */
  knownSettled?: RawImage | undefined;
}

export interface SettledFrame {
  frame: Frame;
  /** The frame's hash by `comparison.algorithm`, computed once while watching (or for the result). */
  hash: string;
  algorithm: DedupAlgorithm;
  /** False when the cap was reached before two consecutive frames were the same. */
  settled: boolean;
  /** From the start of the watch to the frame's capture (the first wait and any pending work included). */
  waitedMs: number;
  /** How many frames were captured while watching, the returned one included. */
  frames: number;
}

export async function watchUntilSettled(source: FrameSource, watch: SettleWatch): Promise<SettledFrame> {
  const { settings, comparison } = watch;
  const clock = watch.clock ?? SYSTEM_CLOCK;
  const start = clock.now();
  const deadline = start + settings.maxMs;
  await clock.sleep(Math.min(settings.firstWaitMs, settings.maxMs));
  if (watch.waitForPendingWork !== undefined) await watch.waitForPendingWork(Math.max(0, deadline - clock.now()));

  let previous = await captureHashed(source, clock, comparison.algorithm);
  let frames = 1;
  if (isKnownSettled(previous)) return result(previous, true);
  for (;;) {
    const nextStart = Math.max(clock.now(), previous.startedAt + settings.frameIntervalMs);
    if (nextStart >= deadline) return result(previous, false);
    await clock.sleep(nextStart - clock.now());
    const current = await captureHashed(source, clock, comparison.algorithm);
    frames += 1;
    const settledHere = (isKnownSettled(current) || sameByDedupRule(previous, current, comparison)) && !tooSoonToCallUnchanged(current);
    if (settledHere) return result(current, true);
    previous = current;
  }

  function isKnownSettled(current: HashedFrame): boolean {
    const known = watch.knownSettled;
    if (known === undefined || known.width !== current.frame.width || known.height !== current.frame.height) return false;
    return known.rgba.equals(current.frame.rgba) && !tooSoonToCallUnchanged(current);
  }

  function tooSoonToCallUnchanged(current: HashedFrame): boolean {
    if (watch.before === undefined || current.startedAt - start >= settings.unchangedMinimumMs) return false;
    const before = hashedLazily(watch.before.frame, start, comparison.algorithm, watch.before.hash);
    return sameByDedupRule(before, current, comparison);
  }

  function result(last: HashedFrame, settled: boolean): SettledFrame {
    return { frame: last.frame, hash: last.hash(), algorithm: comparison.algorithm, settled, waitedMs: last.startedAt - start, frames };
  }
}

/**
 * A frame watched, with its hash computed at its first use and kept: a settled pair is most often the same
 * pixels twice, and then only the returned frame's hash is ever needed (a hash of a 1920x1080 frame reads
 * every pixel).
 */
interface HashedFrame {
  frame: Frame;
  hash(): string;
  startedAt: number;
}

function hashedLazily(frame: Frame, startedAt: number, algorithm: DedupAlgorithm, known?: string): HashedFrame {
  let hash = known;
  return { frame, startedAt, hash: () => (hash ??= computeHash(frame, algorithm)) };
}

async function captureHashed(source: FrameSource, clock: SettleClock, algorithm: DedupAlgorithm): Promise<HashedFrame> {
  const startedAt = clock.now();
  const frame = await source.capture();
  return hashedLazily(frame, startedAt, algorithm);
}

function sameByDedupRule(before: HashedFrame, after: HashedFrame, comparison: SettleComparison): boolean {
  // A resized page or another display: not settled yet, whatever the pixels.
  if (before.frame.width !== after.frame.width || before.frame.height !== after.frame.height) return false;
  // The same pixels have the same hash and no changed region: what compareFrames would find, without the hashes.
  if (before.frame.rgba.equals(after.frame.rgba)) return true;
  return compareFrames(before.frame, after.frame, {
    algorithm: comparison.algorithm,
    threshold: comparison.threshold,
    knownHashes: { before: before.hash(), after: after.hash() },
  }).duplicate;
}

/** What the model is told when the screenshot was taken at the cap, e.g. "after 3 s". */
export function unsettledNotice(maxMs: number): string {
  const after = maxMs % 1000 === 0 ? `${maxMs / 1000} s` : `${maxMs} ms`;
  return (
    `the screen was still changing after ${after} (a video, an animation or a page still loading?): this screenshot ` +
    'may show it mid-change; wait or take another screenshot if you need the end state'
  );
}
