/**
 * The hash algorithms by name. `phash`, `dhash` and `ahash` are ours and can drive dedup
 * (`perception.dedup.algorithm`); `blockhash` is image-hash's, for comparison only.
 */
import type { RawImage } from './frame.js';
import { averageHash } from './average-hash.js';
import { blockHash } from './block-hash.js';
import { differenceHash } from './difference-hash.js';
import { perceptualHash } from './perceptual-hash.js';
import { HASH_ALGORITHMS, type HashAlgorithm } from './hash-algorithms.js';

export { HASH_ALGORITHMS, type HashAlgorithm };

const hashFunctions: Record<HashAlgorithm, (image: RawImage) => string> = {
  phash: perceptualHash,
  dhash: differenceHash,
  ahash: averageHash,
  blockhash: blockHash,
};

/** The image's 64-bit hash under the algorithm, as 16 hex characters. */
export function computeHash(image: RawImage, algorithm: HashAlgorithm): string {
  return hashFunctions[algorithm](image);
}

export function isHashAlgorithm(name: string): name is HashAlgorithm {
  return (HASH_ALGORITHMS as readonly string[]).includes(name);
}
