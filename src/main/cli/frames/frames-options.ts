/** The flags of `sightline frames compare` and `frames hash`: a leaf, read when the CLI registers its commands. */
import type { HashAlgorithm } from '../../perception/hash-algorithms.js';

/** The largest hash distance --threshold accepts: a 64-bit hash differs in at most 64 bits. */
export const MAX_THRESHOLD = 64;

export interface CompareFlags {
  json?: boolean;
  algorithm?: HashAlgorithm;
  threshold?: string;
}

export interface HashFlags {
  json?: boolean;
  algorithm?: HashAlgorithm;
}
