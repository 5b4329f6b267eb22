/** aHash: an 8x8 luminance grid, one bit per cell: brighter than the grid's mean. Cheapest, least robust. */
import type { RawImage } from './frame.js';
import { bitsToHex } from './hash-bits.js';
import { luminanceGrid } from './luminance-grid.js';

const SIDE = 8;

export function averageHash(image: RawImage): string {
  const grid = luminanceGrid(image, SIDE, SIDE);
  let total = 0;
  for (const value of grid) total += value;
  const mean = total / grid.length;
  return bitsToHex(Array.from(grid, (value) => value > mean));
}
