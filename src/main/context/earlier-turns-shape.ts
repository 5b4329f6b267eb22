/**
 * How ended turns are shown (ARCHITECTURE.md, "Zones"; the arithmetic is in
 * docs/decisions/0034-earlier-turns-by-price.md). The latest `anchorTurns` of them keep their anchors (first and last screen,
 * error frames) and their images' placeholders inline; older ones name all their folded images in one line.
 * Whether the anchors go whole or as reduced views follows the price table, as the active zone's shape does.
 *
 * Pure arithmetic on the profile's pricing: the same profile always gives the same shape, so a turn's
 * requests are planned alike and each stays a pure function of the rows.
 */
import { cachedInputShare, type ModelPricing } from '../../shared/pricing.js';
import { REDUCED_VIEW_SHARE } from './active-zone-shape.js';

export type AnchorResolution = 'whole' | 'reduced';

export interface EarlierTurnsShape {
  /** How many of the latest ended turns keep their anchors shown and their placeholders inline. */
  anchorTurns: number;
  /** How their first and last screens are shown; error frames always go whole. */
  anchorResolution: AnchorResolution;
}

/** The most that showing a turn's two screen anchors whole, rather than reduced, may add to a request. */
export const WHOLE_ANCHORS_MAX_EXTRA_SCREENSHOTS = 1 / 2;

/** The screen anchors of a turn: its first and its last screen. */
const SCREEN_ANCHORS = 2;

/**
 * Whole where the cache makes them cheap. The anchors sit in the stable prefix, so after a turn's first
 * request each is read from the cache at `c` (the cached input share; 1 without a cache or a price). Whole
 * rather than reduced, two anchors add 2 · c · (1 − REDUCED_VIEW_SHARE) full screenshots to every request;
 * they stay whole while that is at most WHOLE_ANCHORS_MAX_EXTRA_SCREENSHOTS (c ≤ 0.29: the 25% and 10% tables
 * and Anthropic's reads), and go reduced where a cache read costs half or more, or nothing is cached.
 */
export function anchorResolutionFor(pricing: ModelPricing | undefined): AnchorResolution {
  const cached = cachedInputShare(pricing);
  const extra = SCREEN_ANCHORS * cached * (1 - REDUCED_VIEW_SHARE);
  return extra <= WHOLE_ANCHORS_MAX_EXTRA_SCREENSHOTS ? 'whole' : 'reduced';
}

export function earlierTurnsShape(pricing: ModelPricing | undefined, anchorTurns: number): EarlierTurnsShape {
  return { anchorTurns, anchorResolution: anchorResolutionFor(pricing) };
}
