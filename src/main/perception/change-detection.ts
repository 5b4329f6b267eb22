/**
 * The local half of the dedup decision: where, if anywhere, two frames of the same size differ in a way a
 * person (or a vision model) would notice. A global hash cannot do this: a typed character, a checkbox mark
 * or a one-line error message moves no low-frequency energy, so their pHash distance is 0.
 *
 * The rule, and why (contrast in 0..255 per colour channel; the frame is cut into 16x16-pixel tiles):
 *
 * 1. Sharp change: some 2x2 pixel window whose mean colour moved by at least 64 in any channel.
 *    - Averaging over 2x2 windows removes the checkerboard-like error of JPEG re-encoding and resampling
 *      (it alternates in sign between neighbouring pixels: a q≈75 re-encode of a full-HD UI frame peaks at
 *      ~110 per pixel but under ~50 once averaged), while a glyph stroke, a checkbox mark or a radio dot
 *      keeps most of its contrast: a 2x2 window sits entirely inside any mark at least 2 px wide, and a
 *      1 px line (a caret, a thin border) keeps half its contrast.
 *    - Channels are compared separately, not as luminance: red error text replacing grey text of the same
 *      brightness is a change.
 *    - 64 is a quarter of the full scale: below that, a pixel-level change is a tint, not a new shape.
 *    - No minimum area: one window is enough. Dedup errs toward "changed" (a false "changed" costs tokens,
 *      a false "duplicate" blinds the agent), so a lone period typed into a field must count.
 * 2. Faint change over an area: a tile whose mean colour moved by at least 8 in any channel. This catches
 *    what rule 1 misses because it is low-contrast but spread out: a row highlight, a panel turning a
 *    shade darker, a progress bar filling in a pale colour. JPEG and resampling error averages to ~0 over
 *    a tile (it is zero-mean), so 8 (3% of the scale) is well above the noise.
 *
 * What remains folded is a change that is both faint (under 64 in every 2x2 window) and thin (under 8 on
 * average over every tile): re-encoding error, anti-aliasing and sub-pixel shadow shifts, a 1 px border
 * changing tint on hover. What is NOT folded, deliberately: a blinking caret (a full-contrast 1-2 px bar:
 * indistinguishable in two frames from a typed "l" or "|") and a spinner's next frame (a full-contrast
 * glyph-sized change: indistinguishable from "6" becoming "9" or a spinner becoming a check mark, which
 * is precisely the change an agent waits for). Folding those would need a rule that can hide real changes.
 */
import { BYTES_PER_PIXEL, assertRawImage, type RawImage, type Region } from './frame.js';
import { COLOR_MASK, pixelWords } from './pixel-words.js';

export interface ChangeDetectionOptions {
  /** Side of the square tiles, in frame pixels. */
  tileSize: number;
  /** Smallest mean channel change of a 2x2 window that counts as a sharp change (rule 1). */
  sharpContrast: number;
  /** Smallest mean channel change over a whole tile that counts as a faint area change (rule 2). */
  areaContrast: number;
}

export const DEFAULT_CHANGE_DETECTION: ChangeDetectionOptions = {
  tileSize: 16,
  sharpContrast: 64,
  areaContrast: 8,
};

const COLOR_CHANNELS = 3;

/**
 * The changed regions between two frames of the same size, as boxes in frame pixels, largest first.
 * Empty when nothing noticeable changed. Changed tiles that touch (including diagonally) form one region;
 * a region's box is tight around its sharply changed pixels, or covers whole tiles for faint changes.
 */
export function detectChangedRegions(
  before: RawImage,
  after: RawImage,
  options: ChangeDetectionOptions = DEFAULT_CHANGE_DETECTION,
): Region[] {
  assertRawImage(before);
  assertRawImage(after);
  if (before.width !== after.width || before.height !== after.height) {
    throw new Error(`cannot compare a ${before.width}x${before.height} image with a ${after.width}x${after.height} one`);
  }
  const grid = tileGrid(before.width, before.height, options.tileSize);
  const dirtyTiles = findDirtyTiles(before, after, grid);
  const changedBoxes = new Map<number, Region>();
  const pixels = { before: pixelWords(before.rgba), after: pixelWords(after.rgba) };
  const scratch = new Int16Array((options.tileSize + 1) * (options.tileSize + 1) * COLOR_CHANNELS);
  for (const tile of dirtyTiles) {
    const box = changedBoxInTile(pixels, grid, tile, options, scratch);
    if (box) changedBoxes.set(tile, box);
  }
  return mergeTouchingTiles(changedBoxes, grid);
}

interface TileGrid {
  width: number;
  height: number;
  tileSize: number;
  columns: number;
  rows: number;
}

function tileGrid(width: number, height: number, tileSize: number): TileGrid {
  return { width, height, tileSize, columns: Math.ceil(width / tileSize), rows: Math.ceil(height / tileSize) };
}

/**
 * Tiles holding at least one pixel whose colour differs at all. Identical rows are skipped by a native
 * comparison and the others scanned as 32-bit words, so on a typical pair of screens (a few changed
 * tiles) this pass is cheap and spares the costly one everywhere else.
 */
function findDirtyTiles(before: RawImage, after: RawImage, grid: TileGrid): number[] {
  const beforeWords = pixelWords(before.rgba);
  const afterWords = pixelWords(after.rgba);
  const dirty = new Uint8Array(grid.columns * grid.rows);
  const { width, height, tileSize, columns } = grid;
  const rowBytes = width * BYTES_PER_PIXEL;
  for (let y = 0; y < height; y++) {
    const rowStart = y * rowBytes;
    if (before.rgba.compare(after.rgba, rowStart, rowStart + rowBytes, rowStart, rowStart + rowBytes) === 0) continue;
    const tileRowOffset = Math.floor(y / tileSize) * columns;
    const firstWord = y * width;
    for (let x = 0; x < width; x++) {
      if (((beforeWords[firstWord + x]! ^ afterWords[firstWord + x]!) & COLOR_MASK) !== 0) {
        const tileColumn = Math.floor(x / tileSize);
        dirty[tileRowOffset + tileColumn] = 1;
        // The rest of this tile's row segment cannot make it dirtier: jump to the next tile.
        x = (tileColumn + 1) * tileSize - 1;
      }
    }
  }
  const tiles: number[] = [];
  for (let tile = 0; tile < dirty.length; tile++) if (dirty[tile]) tiles.push(tile);
  return tiles;
}

interface PixelPair {
  before: Int32Array;
  after: Int32Array;
}

/**
 * Applies both rules to one tile. Every 2x2 window anchored at a pixel of the tile is tested (windows reach
 * one pixel into the next tile; at the right and bottom edges of the frame they are clamped), so a mark
 * that straddles tiles is still seen whole by the window anchored at its top-left pixel. The signed
 * per-channel differences of the tile plus that one-pixel margin are computed once into `scratch`.
 */
function changedBoxInTile(
  pixels: PixelPair,
  grid: TileGrid,
  tile: number,
  options: ChangeDetectionOptions,
  scratch: Int16Array,
): Region | undefined {
  const { width, height, tileSize, columns } = grid;
  const left = (tile % columns) * tileSize;
  const top = Math.floor(tile / columns) * tileSize;
  const tileWidth = Math.min(tileSize, width - left);
  const tileHeight = Math.min(tileSize, height - top);
  const span = tileWidth + 1;

  for (let row = 0; row <= tileHeight; row++) {
    const y = Math.min(top + row, height - 1);
    for (let column = 0; column <= tileWidth; column++) {
      const x = Math.min(left + column, width - 1);
      const beforeWord = pixels.before[y * width + x]!;
      const afterWord = pixels.after[y * width + x]!;
      const at = (row * span + column) * COLOR_CHANNELS;
      // Little-endian RGBA words: red is the lowest byte.
      scratch[at] = (afterWord & 0xff) - (beforeWord & 0xff);
      scratch[at + 1] = ((afterWord >>> 8) & 0xff) - ((beforeWord >>> 8) & 0xff);
      scratch[at + 2] = ((afterWord >>> 16) & 0xff) - ((beforeWord >>> 16) & 0xff);
    }
  }

  const sharpWindowSum = options.sharpContrast * 4;
  const rightStep = COLOR_CHANNELS;
  const downStep = span * COLOR_CHANNELS;
  let redSum = 0;
  let greenSum = 0;
  let blueSum = 0;
  let minColumn = Infinity;
  let minRow = Infinity;
  let maxColumn = -Infinity;
  let maxRow = -Infinity;
  for (let row = 0; row < tileHeight; row++) {
    for (let column = 0; column < tileWidth; column++) {
      const red = (row * span + column) * COLOR_CHANNELS;
      const green = red + 1;
      const blue = red + 2;
      redSum += scratch[red]!;
      greenSum += scratch[green]!;
      blueSum += scratch[blue]!;
      // The channels are unrolled: this is the hottest loop of the dedup decision.
      const redWindow = scratch[red]! + scratch[red + rightStep]! + scratch[red + downStep]! + scratch[red + downStep + rightStep]!;
      const greenWindow =
        scratch[green]! + scratch[green + rightStep]! + scratch[green + downStep]! + scratch[green + downStep + rightStep]!;
      const blueWindow =
        scratch[blue]! + scratch[blue + rightStep]! + scratch[blue + downStep]! + scratch[blue + downStep + rightStep]!;
      const windowIsSharp =
        redWindow >= sharpWindowSum || redWindow <= -sharpWindowSum ||
        greenWindow >= sharpWindowSum || greenWindow <= -sharpWindowSum ||
        blueWindow >= sharpWindowSum || blueWindow <= -sharpWindowSum;
      if (windowIsSharp) {
        // The box covers the pixels of the window that changed at all, not the whole window.
        for (let corner = 0; corner < 4; corner++) {
          const cornerColumn = column + (corner & 1);
          const cornerRow = row + (corner >> 1);
          const cornerIndex = (cornerRow * span + cornerColumn) * COLOR_CHANNELS;
          if (scratch[cornerIndex] !== 0 || scratch[cornerIndex + 1] !== 0 || scratch[cornerIndex + 2] !== 0) {
            minColumn = Math.min(minColumn, cornerColumn);
            minRow = Math.min(minRow, cornerRow);
            maxColumn = Math.max(maxColumn, cornerColumn);
            maxRow = Math.max(maxRow, cornerRow);
          }
        }
      }
    }
  }
  if (minColumn !== Infinity) {
    // Windows reach one pixel right and down, clamped at the frame's edge: the box must stay inside it.
    const right = Math.min(left + maxColumn, width - 1);
    const bottom = Math.min(top + maxRow, height - 1);
    return { x: left + minColumn, y: top + minRow, width: right - left - minColumn + 1, height: bottom - top - minRow + 1 };
  }
  const pixelCount = tileWidth * tileHeight;
  const areaIsFaintlyChanged = Math.max(Math.abs(redSum), Math.abs(greenSum), Math.abs(blueSum)) / pixelCount >= options.areaContrast;
  return areaIsFaintlyChanged ? { x: left, y: top, width: tileWidth, height: tileHeight } : undefined;
}

/** Groups changed tiles that touch (8-neighbourhood) and returns each group's bounding box, largest first. */
function mergeTouchingTiles(changedBoxes: Map<number, Region>, grid: TileGrid): Region[] {
  const visited = new Set<number>();
  const regions: Region[] = [];
  for (const start of changedBoxes.keys()) {
    if (visited.has(start)) continue;
    visited.add(start);
    const pending = [start];
    let box = changedBoxes.get(start)!;
    while (pending.length > 0) {
      const tile = pending.pop()!;
      box = unionOf(box, changedBoxes.get(tile)!);
      for (const neighbour of neighboursOf(tile, grid)) {
        if (changedBoxes.has(neighbour) && !visited.has(neighbour)) {
          visited.add(neighbour);
          pending.push(neighbour);
        }
      }
    }
    regions.push(box);
  }
  return regions.sort((first, second) => second.width * second.height - first.width * first.height);
}

function neighboursOf(tile: number, grid: TileGrid): number[] {
  const column = tile % grid.columns;
  const row = Math.floor(tile / grid.columns);
  const neighbours: number[] = [];
  for (let rowStep = -1; rowStep <= 1; rowStep++) {
    for (let columnStep = -1; columnStep <= 1; columnStep++) {
      const neighbourColumn = column + columnStep;
      const neighbourRow = row + rowStep;
      if ((rowStep !== 0 || columnStep !== 0) && neighbourColumn >= 0 && neighbourColumn < grid.columns && neighbourRow >= 0 && neighbourRow < grid.rows) {
        neighbours.push(neighbourRow * grid.columns + neighbourColumn);
      }
    }
  }
  return neighbours;
}

function unionOf(first: Region, second: Region): Region {
  const x = Math.min(first.x, second.x);
  const y = Math.min(first.y, second.y);
  const right = Math.max(first.x + first.width, second.x + second.width);
  const bottom = Math.max(first.y + first.height, second.y + second.height);
  return { x, y, width: right - x, height: bottom - y };
}
