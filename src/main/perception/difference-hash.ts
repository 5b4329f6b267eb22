/**
 * dHash: a 9x8 luminance grid, one bit per horizontally adjacent pair: the right cell is brighter than the
 * left one. It encodes gradients, so a uniform brightness shift leaves it unchanged.
 */
import type { RawImage } from './frame.js';
import { bitsToHex } from './hash-bits.js';
import { luminanceGrid } from './luminance-grid.js';

const COLUMNS = 9;
const ROWS = 8;

export function differenceHash(image: RawImage): string {
  const grid = luminanceGrid(image, COLUMNS, ROWS);
  const bits: boolean[] = [];
  for (let row = 0; row < ROWS; row++) {
    for (let column = 0; column < COLUMNS - 1; column++) {
      bits.push(grid[row * COLUMNS + column + 1]! > grid[row * COLUMNS + column]!);
    }
  }
  return bitsToHex(bits);
}
