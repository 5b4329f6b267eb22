/**
 * Whether the screen in front of a replay is the one a recorded action was chosen on (docs/flows.md, "Replay").
 * A replay acts without looking, so this rule is what stands between a recorded click and the wrong control:
 * it errs toward "diverged" (a false divergence costs one healing model call; a false "same" clicks blind).
 *
 * Two frames of the same size are the same for a replay when all of these hold:
 *
 * 1. The global hash distance is within the dedup threshold: a banner that moves everything down, another page
 *    or a dark theme moves low-frequency energy and diverges here.
 * 2. No changed region (change-detection.ts: the local rule that never hides a typed character) touches the
 *    target's neighbourhood: the target's row, a quarter of the frame's width either side of it and a band of
 *    6% of its height (at least 48 px) above and below. A label decides what a button does, and labels sit in
 *    the button's row or just above it: two rows whose labels are swapped, with the same buttons at the same
 *    places, change only the labels, a few hundred pixels left of the point.
 * 3. Every other changed region is small enough to be explained by something that changes on its own: one line
 *    of text at most (a clock, a counter, a caret) and, all together, a sliver of the frame. A popup, a toast, a
 *    panel, or many small changes at once are not explained, and diverge.
 *
 * `strictlyIdentical` is the dedup rule itself (compare-frames.ts): the bar a recorded verdict must clear to be
 * reused without asking the model.
 */
import { compareFrames } from './compare-frames.js';
import type { RawImage, Region } from './frame.js';
import type { HashAlgorithm } from './hashes.js';
import { textVerdict, type TextRun } from './replay-text.js';

export interface ReplayComparisonSettings {
  algorithm: HashAlgorithm;
  /** The dedup threshold (perception.dedup.threshold). */
  threshold: number;
}

/** A point or a box in frame pixels, where the action lands; none for an action without a place (type, key). */
export type ReplayTarget = { x: number; y: number } | Region | undefined;

export type ReplayJudgement =
  | { same: true; distance: number; regions: Region[]; identical: boolean }
  | {
      same: false;
      distance: number | null;
      /** What differs, in one line: "the region at 96,130 72×30 near the target changed". */
      reason: string;
      /** The region that made the difference (frame pixels), when one region did. */
      region: Region | undefined;
      regions: Region[];
    };

/** One line of text at most: taller changes elsewhere are not explained by a clock or a caret. */
const EXPLAINED_HEIGHT = 40;
/** A clock's or a counter's width at most. */
const EXPLAINED_WIDTH = 200;
/** All the explained changes together: at most this share of the frame. */
const EXPLAINED_SHARE = 0.01;
/** At most this many separate explained changes (a clock and a caret, say). */
const EXPLAINED_COUNT = 3;

export interface ReplayReading {
  /**
   * A box whose own changes are not counted (the recorded element's, at a replay's last look before a press, where
   * the pointer's hover shows on it; the element there is checked by identity instead).
   */
  excused?: Region | undefined;
  /** The page's text recorded and now (replay-text.ts), where the operator reads it: each changed region is read with it. */
  texts?: { recorded: readonly TextRun[]; present: readonly TextRun[]; scale: number } | undefined;
}

/**
 * With `reading.texts`, a changed region whose text is the same (moved a few pixels at most) or differs only in a
 * time of day is explained whatever its size, and one whose words or numbers differ is a divergence wherever it is:
 * a change of meaning. Regions without text keep the size rules.
 */
export function judgeReplayFrame(recorded: RawImage, present: RawImage, target: ReplayTarget, settings: ReplayComparisonSettings, reading: ReplayReading = {}): ReplayJudgement {
  if (recorded.width !== present.width || recorded.height !== present.height) {
    return {
      same: false,
      distance: null,
      reason: `the screen is ${present.width}×${present.height}, recorded at ${recorded.width}×${recorded.height}`,
      region: undefined,
      regions: [],
    };
  }
  const comparison = compareFrames(recorded, present, settings);
  const { distance } = comparison;
  if (comparison.duplicate) return { same: true, distance, regions: [], identical: true };
  const { excused, texts } = reading;
  const changed = excused === undefined ? comparison.regions : comparison.regions.filter((region) => !within(region, excused));
  const verdicts = changed.map((region) => (texts === undefined ? 'none' : textVerdict(region, texts.recorded, texts.present, texts.scale)));
  // Same words where they were, or a clock: explained, whatever the pixels did.
  const regions = changed.filter((_, index) => verdicts[index] === 'none' || verdicts[index] === 'changed');
  if (regions.length === 0) return { same: true, distance, regions: [], identical: false };
  if (distance > settings.threshold) {
    const largest = regions[0];
    return {
      same: false,
      distance,
      reason: `the whole screen changed (hash distance ${distance} over ${settings.threshold})${largest === undefined ? '' : `, most at ${describeRegion(largest)}`}`,
      region: largest,
      regions,
    };
  }
  const neighbourhood = target === undefined ? undefined : neighbourhoodOf(target, present);
  const nearTarget = neighbourhood === undefined ? undefined : regions.find((region) => overlaps(region, neighbourhood));
  if (nearTarget !== undefined) {
    return { same: false, distance, reason: `${describeRegion(nearTarget)} changed near the target`, region: nearTarget, regions };
  }
  const meaning = changed.find((_, index) => verdicts[index] === 'changed');
  if (meaning !== undefined) {
    return { same: false, distance, reason: `${describeRegion(meaning)} shows other words or numbers than the recording`, region: meaning, regions };
  }
  const unexplained = regions.find((region) => region.height > EXPLAINED_HEIGHT || region.width > EXPLAINED_WIDTH);
  if (unexplained !== undefined) {
    return { same: false, distance, reason: `${describeRegion(unexplained)} changed (larger than a line of text)`, region: unexplained, regions };
  }
  const changedArea = regions.reduce((sum, region) => sum + region.width * region.height, 0);
  if (regions.length > EXPLAINED_COUNT || changedArea > EXPLAINED_SHARE * present.width * present.height) {
    return { same: false, distance, reason: `${regions.length} places changed at once`, region: regions[0], regions };
  }
  return { same: true, distance, regions, identical: false };
}

/** The dedup rule: no noticeable change at all. A recorded verdict is reused only on such a frame. */
export function strictlyIdentical(recorded: RawImage, present: RawImage, settings: ReplayComparisonSettings): boolean {
  if (recorded.width !== present.width || recorded.height !== present.height) return false;
  return compareFrames(recorded, present, settings).duplicate;
}

/** "the region at 96,130 72×30": how a region is named in a divergence's reason and in reports. */
export function describeRegion(region: Region): string {
  return `the region at ${region.x},${region.y} ${region.width}×${region.height}`;
}

/** The target's row: a quarter of the frame's width either side, 6% of its height (48 px at least) above and below. */
export function neighbourhoodOf(target: NonNullable<ReplayTarget>, frame: { width: number; height: number }): Region {
  const box: Region = 'width' in target ? target : { x: target.x, y: target.y, width: 1, height: 1 };
  const across = Math.round(frame.width / 4);
  const band = Math.max(48, Math.round(frame.height * 0.06));
  const left = Math.max(0, Math.floor(box.x - across));
  const top = Math.max(0, Math.floor(box.y - band));
  const right = Math.min(frame.width, Math.ceil(box.x + box.width + across));
  const bottom = Math.min(frame.height, Math.ceil(box.y + box.height + band));
  return { x: left, y: top, width: right - left, height: bottom - top };
}

function within(inner: Region, outer: Region): boolean {
  return inner.x >= outer.x && inner.y >= outer.y && inner.x + inner.width <= outer.x + outer.width && inner.y + inner.height <= outer.y + outer.height;
}

function overlaps(first: Region, second: Region): boolean {
  return first.x < second.x + second.width && second.x < first.x + first.width && first.y < second.y + second.height && second.y < first.y + first.height;
}
