/**
 * How the running turn's screens are shown (ARCHITECTURE.md, "Zones"; the arithmetic is in
 * docs/decisions/0032-running-turn-reduced-views.md): the present screen at full detail, the screens just before it as reduced views, older ones
 * folded to placeholders in chunks. How many, how small and how large a chunk follow from the model's price
 * table and image-token formula, so the same rules give the cheapest request under every provider's prices.
 *
 * Pure arithmetic on the profile: the same profile and image edge always give the same shape, so every
 * request of a turn is planned alike and the request stays a pure function of the rows.
 */
import { cachedInputShare, type ModelPricing } from '../../shared/pricing.js';
import { estimateImageTokens, type ImageTokenFormula } from '../llm/image-token-estimates.js';
import type { ImageSizing, ModelProfile } from '../llm/model-profiles.js';
import { modelImageSize } from './model-image-size.js';

export interface ActiveZoneShape {
  /** Screens just before the present one that are always shown as reduced views (never folded). */
  recentReducedViews: number;
  /** How many older screens fold at once: the request prefix changes once per chunk, not at every step. */
  foldChunk: number;
  /** Longest edge of a reduced view's copy (never more than the full image's edge). */
  reducedImageEdge: number;
  /**
   * Every screen of the running turn stays as it was first sent (whole; neither reduced nor folded), so each
   * request of the turn extends the one before it: for a model whose thinking is bound to the history before it
   * (the profile's boundThinking), where any change before the last reply costs that reply's thinking. Only the
   * token budget may still fold, when the window is full.
   */
  keepsSentScreens?: true;
}

/**
 * Every request shows the three latest screens (issue 15's aim): the present one whole and the two before it
 * at least reduced. More reduced views never lower a request's cost, so this floor is also the count.
 */
export const RECENT_REDUCED_VIEWS = 2;

/** What a reduced view may cost, as a share of the full screenshot it stands for. */
export const REDUCED_VIEW_SHARE = 1 / 8;

/** OpenAI's low detail looks at a copy of at most 512 × 512 px and bills the formula's base tokens alone. */
export const LOW_DETAIL_EDGE = 512;

/** Below this a screen says little; a formula whose floor is higher than the share allows gets this edge. */
export const MINIMUM_REDUCED_EDGE = 256;

/**
 * Anthropic reads a cached prefix only up to 20 blocks before one of a request's breakpoints. A step is about
 * three blocks (the reply's text and tool call, the result), so the end of the previous chunk stays within
 * reach of the new chunk's end for chunks of six steps or fewer.
 */
export const MAX_FOLD_CHUNK_WITH_BREAKPOINTS = 6;

/** Beyond this the reduced views a chunk holds cost more than any cache saving can return. */
export const MAX_FOLD_CHUNK = 8;

const REDUCED_EDGE_STEP = 8;

export function activeZoneShape(
  profile: Pick<ModelProfile, 'imageTokens' | 'imageSizing' | 'pricing' | 'boundThinking'>,
  maxImageEdge: number,
): ActiveZoneShape {
  return {
    recentReducedViews: RECENT_REDUCED_VIEWS,
    foldChunk: foldChunkFor(profile.pricing, RECENT_REDUCED_VIEWS),
    reducedImageEdge: reducedImageEdgeFor(profile.imageTokens, maxImageEdge, profile.imageSizing),
    ...(profile.boundThinking === true ? { keepsSentScreens: true as const } : {}),
  };
}

/**
 * The chunk size with the lowest cost per step, in reduced views' tokens (docs/decisions/0032-running-turn-reduced-views.md):
 *
 *   cost(C) = u · (R + C − 1) / C  +  c · ((R − 1)(C − 1) / C + (C − 1) / 2)
 *
 * u is what a token the cache did not hold costs (1, or the write premium where the request's breakpoints
 * write it), c what a cached one costs (1 without a cache), R the recent reduced views. The first term is the
 * reduced views read again after each fold, spread over its chunk; the second the extra reduced views a chunk
 * keeps until it folds, read from the cache. Ties go to the smaller chunk (fewer tokens).
 */
export function foldChunkFor(pricing: ModelPricing | undefined, recentReducedViews: number): number {
  const cached = cachedInputShare(pricing);
  const uncached = pricing?.cache === 'breakpoints' ? pricing.cacheWriteMultiplier : 1;
  const largest = pricing?.cache === 'breakpoints' ? MAX_FOLD_CHUNK_WITH_BREAKPOINTS : MAX_FOLD_CHUNK;
  let best = 1;
  let bestCost = Number.POSITIVE_INFINITY;
  for (let chunk = 1; chunk <= largest; chunk += 1) {
    const cost = chunkCost(chunk, recentReducedViews, cached, uncached);
    if (cost < bestCost - 1e-9) {
      best = chunk;
      bestCost = cost;
    }
  }
  return best;
}

export function chunkCost(chunk: number, recentReducedViews: number, cached: number, uncached: number): number {
  const reread = (uncached * (recentReducedViews + chunk - 1)) / chunk;
  const held = cached * (((recentReducedViews - 1) * (chunk - 1)) / chunk + (chunk - 1) / 2);
  return reread + held;
}

/**
 * The longest edge of a reduced view: OpenAI's low-detail copy where the tile formula has low detail; else the
 * largest edge at which a 16:10 screen costs at most REDUCED_VIEW_SHARE of the same screen at the full edge,
 * by the profile's own formula and sizing.
 */
export function reducedImageEdgeFor(formula: ImageTokenFormula, maxImageEdge: number, sizing: ImageSizing): number {
  if (formula.kind === 'openai-tiles') return Math.min(maxImageEdge, LOW_DETAIL_EDGE);
  const frame = { width: maxImageEdge, height: Math.max(1, Math.round((maxImageEdge * 10) / 16)) };
  const costAt = (edge: number) => estimateImageTokens(formula, modelImageSize(frame.width, frame.height, edge, sizing));
  const allowed = costAt(maxImageEdge) * REDUCED_VIEW_SHARE;
  const floor = Math.min(maxImageEdge, MINIMUM_REDUCED_EDGE);
  for (let edge = maxImageEdge; edge > floor; edge -= REDUCED_EDGE_STEP) {
    if (costAt(edge) <= allowed) return edge;
  }
  return floor;
}
