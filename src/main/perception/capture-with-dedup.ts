/**
 * One capture, deduplicated against the last image the agent stored. When nothing noticeable changed, the
 * agent tells the model "unchanged: same as img_<id>" in a line of text instead of sending the image again.
 *
 * Compare against the last STORED frame (the one `previous.imageId` names), not the last capture: if each
 * capture were compared with the one before it, a slow drift (a progress bar creeping a pixel per step)
 * could stay under the noise floor at every step and never be shown.
 */
import type { DedupAlgorithm } from '../../shared/config.js';
import type { Frame, Region } from './frame.js';
import type { FrameSource } from './frame-source.js';
import { compareFrames } from './compare-frames.js';
import { computeHash } from './hashes.js';

export interface DedupSettings {
  enabled: boolean;
  threshold: number;
  algorithm: DedupAlgorithm;
}

export interface PreviousImage {
  frame: Frame;
  imageId: string;
  /** Its stored hash, if it was computed with the same algorithm; recomputed otherwise. */
  hash?: string;
  hashAlgorithm?: DedupAlgorithm;
}

export type DedupResult =
  | { kind: 'new'; frame: Frame; hash: string; algorithm: DedupAlgorithm; distance: number | null; regions: Region[] }
  | { kind: 'unchanged'; sameAs: string; distance: number };

export async function captureWithDedup(
  source: FrameSource,
  previous: PreviousImage | undefined,
  settings: DedupSettings,
): Promise<DedupResult> {
  const frame = await source.capture();
  return dedupFrame({ frame, hash: computeHash(frame, settings.algorithm) }, previous, settings);
}

/** The dedup decision for a frame already captured and hashed (by `settings.algorithm`), e.g. a settled one. */
export function dedupFrame(
  captured: { frame: Frame; hash: string },
  previous: PreviousImage | undefined,
  settings: DedupSettings,
): DedupResult {
  const { frame, hash } = captured;
  const isNewOnly: DedupResult = { kind: 'new', frame, hash, algorithm: settings.algorithm, distance: null, regions: [] };
  if (!settings.enabled || previous === undefined) return isNewOnly;
  // Another display or a resized page: nothing to compare with, the frame is new.
  if (previous.frame.width !== frame.width || previous.frame.height !== frame.height) return isNewOnly;

  const previousHash = previous.hashAlgorithm === settings.algorithm ? previous.hash : undefined;
  const comparison = compareFrames(previous.frame, frame, {
    algorithm: settings.algorithm,
    threshold: settings.threshold,
    knownHashes: { before: previousHash, after: hash },
  });
  if (comparison.duplicate) return { kind: 'unchanged', sameAs: previous.imageId, distance: comparison.distance };
  return { kind: 'new', frame, hash, algorithm: settings.algorithm, distance: comparison.distance, regions: comparison.regions };
}

/** The line of text that stands in for an unchanged screenshot in the model's context. */
export function unchangedNotice(sameAs: string): string {
  return `unchanged: same as ${sameAs}`;
}
