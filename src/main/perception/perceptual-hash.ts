/**
 * pHash: a 32x32 luminance grid, its 2D DCT-II, and one bit per coefficient of the lowest 8x8 frequencies:
 * above their median. Low frequencies describe the layout of the screen, which is why this hash is blind to
 * a typed character or a checkbox mark (they live in high frequencies); change-detection.ts covers those.
 * Same construction as the `imagehash` Python package (DC term included in the 8x8 block and the median).
 */
import type { RawImage } from './frame.js';
import { bitsToHex } from './hash-bits.js';
import { luminanceGrid } from './luminance-grid.js';

const GRID_SIDE = 32;
const KEPT_FREQUENCIES = 8;

/** cosines[frequency * GRID_SIDE + position] = cos(pi * (2 * position + 1) * frequency / (2 * GRID_SIDE)). */
const cosines = (() => {
  const table = new Float64Array(KEPT_FREQUENCIES * GRID_SIDE);
  for (let frequency = 0; frequency < KEPT_FREQUENCIES; frequency++) {
    for (let position = 0; position < GRID_SIDE; position++) {
      table[frequency * GRID_SIDE + position] = Math.cos((Math.PI * (2 * position + 1) * frequency) / (2 * GRID_SIDE));
    }
  }
  return table;
})();

export function perceptualHash(image: RawImage): string {
  const coefficients = withoutRoundingNoise(lowFrequencyDct(luminanceGrid(image, GRID_SIDE, GRID_SIDE)));
  const median = medianOf(coefficients);
  return bitsToHex(Array.from(coefficients, (value) => value > median));
}

/**
 * The 8x8 lowest-frequency coefficients of the grid's 2D DCT-II, row-major. Separable: transform each
 * row (keeping 8 frequencies), then each of those 8 columns. Normalisation factors are left out: they
 * scale coefficients per frequency but only the comparison with the median matters, and imagehash's
 * scipy call (norm=None) leaves them out as well.
 */
function lowFrequencyDct(grid: Float64Array): Float64Array {
  const rowTransformed = new Float64Array(GRID_SIDE * KEPT_FREQUENCIES);
  for (let row = 0; row < GRID_SIDE; row++) {
    for (let frequency = 0; frequency < KEPT_FREQUENCIES; frequency++) {
      let sum = 0;
      for (let column = 0; column < GRID_SIDE; column++) {
        sum += grid[row * GRID_SIDE + column]! * cosines[frequency * GRID_SIDE + column]!;
      }
      rowTransformed[row * KEPT_FREQUENCIES + frequency] = sum;
    }
  }
  const coefficients = new Float64Array(KEPT_FREQUENCIES * KEPT_FREQUENCIES);
  for (let verticalFrequency = 0; verticalFrequency < KEPT_FREQUENCIES; verticalFrequency++) {
    for (let horizontalFrequency = 0; horizontalFrequency < KEPT_FREQUENCIES; horizontalFrequency++) {
      let sum = 0;
      for (let row = 0; row < GRID_SIDE; row++) {
        sum += rowTransformed[row * KEPT_FREQUENCIES + horizontalFrequency]! * cosines[verticalFrequency * GRID_SIDE + row]!;
      }
      coefficients[verticalFrequency * KEPT_FREQUENCIES + horizontalFrequency] = sum;
    }
  }
  return coefficients;
}

/**
 * Zeroes coefficients that are floating-point residue (a flat area's AC terms come out as ±1e-13, not 0).
 * Left alone, such residue decides the bits of a blank or flat screen at random.
 */
function withoutRoundingNoise(coefficients: Float64Array): Float64Array {
  const scale = Math.max(1, ...Array.from(coefficients, Math.abs));
  return coefficients.map((value) => (Math.abs(value) < scale * 1e-9 ? 0 : value));
}

function medianOf(values: Float64Array): number {
  const sorted = Float64Array.from(values).sort();
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 0 ? (sorted[middle - 1]! + sorted[middle]!) / 2 : sorted[middle]!;
}
