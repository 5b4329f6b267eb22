/**
 * How many input tokens an image costs, per provider family. The context layer uses these to budget a
 * request before sending it (the provider's own count arrives only afterwards, in the usage).
 *
 * The formulas follow the providers' published descriptions:
 * - OpenAI tiles (gpt-4o, gpt-4.1, gpt-5, o3): fit within 2048×2048, then shrink so the shortest side is
 *   at most 768, count 512 px tiles; tokens = base + tiles × per-tile (85 + 170 × tiles for gpt-4o).
 *   Low detail costs the base alone.
 * - OpenAI patches (gpt-4.1-mini/nano, gpt-5-mini/nano, o4-mini): 32 px patches, at most 1536 (the image
 *   is shrunk to fit), times a per-model multiplier.
 * - Anthropic: the long edge is resized to at most 1568 px, then tokens ≈ width × height / 750.
 * - Patch-based open models (Qwen-VL: 28 px after merging; Gemini: 768 px tiles of 258 tokens): the image
 *   is rounded to whole patches, within a minimum and a maximum patch count.
 */

export type ImageTokenFormula =
  | { kind: 'openai-tiles'; baseTokens: number; tileTokens: number }
  | { kind: 'openai-patches'; multiplier: number }
  | { kind: 'anthropic-pixels' }
  | {
      kind: 'patches';
      patchSize: number;
      tokensPerPatch: number;
      /** How partial patches count: Qwen rounds to the nearest whole patch, tilers count any part. */
      rounding: 'nearest' | 'up';
      minPatches: number;
      maxPatches: number;
    };

export interface ImageSize {
  width: number;
  height: number;
  /** OpenAI's detail setting; only the tile formula distinguishes it. */
  detail?: 'low' | 'high' | 'auto';
}

export function estimateImageTokens(formula: ImageTokenFormula, size: ImageSize): number {
  assertPositiveSize(size);
  switch (formula.kind) {
    case 'openai-tiles':
      return openAiTileTokens(formula.baseTokens, formula.tileTokens, size);
    case 'openai-patches':
      return Math.ceil(openAiPatchCount(size) * formula.multiplier);
    case 'anthropic-pixels':
      return anthropicPixelTokens(size);
    case 'patches':
      return patchCount(formula, size) * formula.tokensPerPatch;
  }
}

const OPENAI_TILE_FIT_EDGE = 2048;
const OPENAI_TILE_SHORT_SIDE = 768;
const OPENAI_TILE_SIZE = 512;

function openAiTileTokens(baseTokens: number, tileTokens: number, size: ImageSize): number {
  if (size.detail === 'low') return baseTokens;
  let { width, height } = size;
  const fitScale = Math.min(1, OPENAI_TILE_FIT_EDGE / Math.max(width, height));
  width *= fitScale;
  height *= fitScale;
  const shortSideScale = Math.min(1, OPENAI_TILE_SHORT_SIDE / Math.min(width, height));
  width *= shortSideScale;
  height *= shortSideScale;
  const tiles = ceilTolerant(width / OPENAI_TILE_SIZE) * ceilTolerant(height / OPENAI_TILE_SIZE);
  return baseTokens + tileTokens * tiles;
}

const OPENAI_PATCH_SIZE = 32;
const OPENAI_MAX_PATCHES = 1536;

function openAiPatchCount({ width, height }: ImageSize): number {
  const rawPatches = Math.ceil(width / OPENAI_PATCH_SIZE) * Math.ceil(height / OPENAI_PATCH_SIZE);
  if (rawPatches <= OPENAI_MAX_PATCHES) return rawPatches;
  // Shrink to the patch budget, then a little more so that whole patches fit along both sides.
  const areaScale = Math.sqrt((OPENAI_PATCH_SIZE * OPENAI_PATCH_SIZE * OPENAI_MAX_PATCHES) / (width * height));
  const widthInPatches = (width * areaScale) / OPENAI_PATCH_SIZE;
  const heightInPatches = (height * areaScale) / OPENAI_PATCH_SIZE;
  const wholePatchScale = Math.min(
    Math.floor(widthInPatches) / widthInPatches,
    Math.floor(heightInPatches) / heightInPatches,
  );
  const patches = ceilTolerant(widthInPatches * wholePatchScale) * ceilTolerant(heightInPatches * wholePatchScale);
  return Math.min(patches, OPENAI_MAX_PATCHES);
}

const ANTHROPIC_MAX_LONG_EDGE = 1568;
const ANTHROPIC_PIXELS_PER_TOKEN = 750;

function anthropicPixelTokens({ width, height }: ImageSize): number {
  const scale = Math.min(1, ANTHROPIC_MAX_LONG_EDGE / Math.max(width, height));
  const resizedWidth = Math.round(width * scale);
  const resizedHeight = Math.round(height * scale);
  return Math.ceil((resizedWidth * resizedHeight) / ANTHROPIC_PIXELS_PER_TOKEN);
}

function patchCount(formula: Extract<ImageTokenFormula, { kind: 'patches' }>, { width, height }: ImageSize): number {
  const round = formula.rounding === 'nearest' ? Math.round : ceilTolerant;
  const count = (scale: number) =>
    Math.max(1, round((width * scale) / formula.patchSize)) * Math.max(1, round((height * scale) / formula.patchSize));
  const patches = count(1);
  if (patches > formula.maxPatches) {
    // Shrink by area until the patch grid fits (as Qwen's smart_resize does, flooring each side).
    const scale = Math.sqrt((formula.maxPatches * formula.patchSize * formula.patchSize) / (width * height));
    return Math.min(
      formula.maxPatches,
      Math.max(1, Math.floor((width * scale) / formula.patchSize)) *
        Math.max(1, Math.floor((height * scale) / formula.patchSize)),
    );
  }
  return Math.max(formula.minPatches, patches);
}

/** Math.ceil that ignores floating-point dust (33.0000000001 is 33 patches, not 34). */
function ceilTolerant(value: number): number {
  return Math.ceil(value - 1e-9);
}

function assertPositiveSize({ width, height }: ImageSize): void {
  if (!(width > 0 && height > 0) || !Number.isFinite(width) || !Number.isFinite(height)) {
    throw new RangeError(`An image size must be positive, got ${width}×${height}`);
  }
}
