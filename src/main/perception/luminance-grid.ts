/**
 * The first step of every global hash: the frame reduced to a small grid of mean luminance values, read
 * straight from raw RGBA (no PNG round trip). Each grid cell is the mean of the frame pixels that fall in
 * it (area averaging), so thin text and hairlines contribute in proportion to their area instead of being
 * hit or missed by point sampling.
 */
import { assertRawImage, type RawImage } from './frame.js';
import { pixelWords } from './pixel-words.js';

// Rec. 601 luma weights in fixed point (sum 256): integer arithmetic keeps the hot loop fast.
const RED_WEIGHT = 77;
const GREEN_WEIGHT = 150;
const BLUE_WEIGHT = 29;

/** Mean luminance (0..255) of each cell of a `columns` x `rows` grid laid over the image, row-major. */
export function luminanceGrid(image: RawImage, columns: number, rows: number): Float64Array {
  assertRawImage(image);
  const { width, height } = image;
  const words = pixelWords(image.rgba);
  // Column c of the grid covers image columns columnStarts[c] .. columnStarts[c + 1] - 1, as equal as
  // integer widths allow. Summing each run with a local accumulator keeps the hot loop free of lookups.
  const columnStarts = new Int32Array(columns + 1);
  for (let column = 0; column <= columns; column++) columnStarts[column] = Math.ceil((column * width) / columns);
  const sums = new Float64Array(columns * rows);
  const pixelsPerRow = new Float64Array(rows);
  // A run's sum cannot overflow 32 bits: 255 * 256 * width < 2^31 for any width under 32 000.
  const rowSums = new Int32Array(columns);
  for (let y = 0; y < height; y++) {
    const rowStart = y * width;
    for (let column = 0; column < columns; column++) {
      let runSum = 0;
      const end = rowStart + columnStarts[column + 1]!;
      for (let index = rowStart + columnStarts[column]!; index < end; index++) {
        const word = words[index]!;
        // Little-endian RGBA: red is the lowest byte.
        runSum += RED_WEIGHT * (word & 0xff) + GREEN_WEIGHT * ((word >> 8) & 0xff) + BLUE_WEIGHT * ((word >> 16) & 0xff);
      }
      rowSums[column] = runSum;
    }
    const gridRow = Math.floor((y * rows) / height);
    pixelsPerRow[gridRow]! += 1;
    const offset = gridRow * columns;
    for (let column = 0; column < columns; column++) sums[offset + column]! += rowSums[column]!;
  }
  const grid = new Float64Array(columns * rows);
  for (let row = 0; row < rows; row++) {
    for (let column = 0; column < columns; column++) {
      const count = pixelsPerRow[row]! * (columnStarts[column + 1]! - columnStarts[column]!);
      // A grid larger than the image leaves empty cells; they read as black rather than NaN.
      grid[row * columns + column] = count > 0 ? sums[row * columns + column]! / count / 256 : 0;
    }
  }
  return grid;
}
