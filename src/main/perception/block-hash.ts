/**
 * blockhash (Yang, Gu & Niu), through the image-hash package: kept to compare our hashes against a
 * well-known implementation (`sightline frames hash --algorithm blockhash`, `npm run bench`), not used
 * for dedup. We call its block-hash module on raw pixels, with 8 bits a side (64 bits, like our hashes)
 * and its precise method.
 */
import imageHashBlockHash from 'image-hash/lib/block-hash.js';
import { assertRawImage, type RawImage } from './frame.js';

const BITS_PER_SIDE = 8;
const PRECISE_METHOD = 2;

type BlockHashFunction = (image: { width: number; height: number; data: Uint8Array }, bits: number, method: number) => string;

// The package is CommonJS compiled from TypeScript: under Node's ESM loader the function sits on `.default`.
const blockHashFunction: BlockHashFunction =
  (imageHashBlockHash as unknown as { default?: BlockHashFunction }).default ?? (imageHashBlockHash as unknown as BlockHashFunction);

export function blockHash(image: RawImage): string {
  assertRawImage(image);
  return blockHashFunction({ width: image.width, height: image.height, data: image.rgba }, BITS_PER_SIDE, PRECISE_METHOD);
}
