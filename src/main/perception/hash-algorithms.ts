/**
 * The hash algorithms' names, apart from the hashes: `sightline frames` offers them as choices when the CLI starts,
 * and every start must not load the hashing (image-hash) to list four words.
 */
import { DEDUP_ALGORITHMS, type DedupAlgorithm } from '../../shared/config.js';

export const HASH_ALGORITHMS = [...DEDUP_ALGORITHMS, 'blockhash'] as const;
export type HashAlgorithm = DedupAlgorithm | 'blockhash';
