/**
 * The dedup decision for two frames of the same size: a global hash distance AND a local change check.
 * Two frames are duplicates only when both agree: the hashes are within the threshold and no region
 * changed noticeably (change-detection.ts). The hash alone would fold a typed character (distance 0).
 */
import type { RawImage, Region } from './frame.js';
import { hammingDistance } from './hash-bits.js';
import { computeHash, type HashAlgorithm } from './hashes.js';
import { detectChangedRegions } from './change-detection.js';

export interface CompareOptions {
  algorithm: HashAlgorithm;
  /** Largest Hamming distance that can still count as a duplicate (config: perception.dedup.threshold). */
  threshold: number;
  /** Hashes already computed (e.g. the one stored on the image row), to skip recomputing them. */
  knownHashes?: { before?: string; after?: string };
}

export interface FrameComparison {
  duplicate: boolean;
  distance: number;
  algorithm: HashAlgorithm;
  /** What changed, in frame pixels; empty for duplicates. */
  regions: Region[];
}

export class FrameSizeMismatchError extends Error {
  constructor(
    readonly before: { width: number; height: number },
    readonly after: { width: number; height: number },
  ) {
    super(`the images have different sizes: ${before.width}x${before.height} and ${after.width}x${after.height}`);
    this.name = 'FrameSizeMismatchError';
  }
}

export function compareFrames(before: RawImage, after: RawImage, options: CompareOptions): FrameComparison {
  if (before.width !== after.width || before.height !== after.height) throw new FrameSizeMismatchError(before, after);
  // The same pixels have the same hash (distance 0) and no changed region: one memcmp instead of two hashes and
  // a pass of change detection over every pixel. Most frames a settle watch or a replay compares are this case.
  if (before.rgba.equals(after.rgba)) return { duplicate: true, distance: 0, algorithm: options.algorithm, regions: [] };
  const beforeHash = options.knownHashes?.before ?? computeHash(before, options.algorithm);
  const afterHash = options.knownHashes?.after ?? computeHash(after, options.algorithm);
  const distance = hammingDistance(beforeHash, afterHash);
  const regions = detectChangedRegions(before, after);
  return { duplicate: distance <= options.threshold && regions.length === 0, distance, algorithm: options.algorithm, regions };
}
