/**
 * The size of the copy of a frame that the model is shown, without encoding it: the longest edge at most
 * `maxEdge`, never enlarged, rounded (the same arithmetic as perception's encodeForModel); then, for a model
 * that resizes every image itself (Qwen2.5-VL, UI-TARS-1.5: the profile's `imageSizing`), the size its own
 * resize would choose for that. Sent at that size, the model's resize leaves the image as it is, so the
 * points it names are pixels of the image sent and the one coordinate mapping applies unchanged. The system
 * prompt states this size before the first image is encoded; a test holds the two in step.
 */
import { FIT_EDGE, type ImageSizing } from '../llm/model-profiles.js';
import { smartResize } from '../llm/smart-resize.js';

export function modelImageSize(
  width: number,
  height: number,
  maxEdge: number,
  sizing: ImageSizing = FIT_EDGE,
): { width: number; height: number } {
  const scale = Math.min(1, maxEdge / Math.max(width, height));
  const fitted = { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
  return sizing.kind === 'smart-resize' ? smartResize(fitted, sizing) : fitted;
}

/** The longest image edge worth sending: the model profile's limit or the configured one, whichever is smaller. */
export function effectiveMaxImageEdge(profileMaxEdge: number, configuredMaxEdge: number): number {
  return Math.min(profileMaxEdge, configuredMaxEdge);
}

/** Names a sizing in cache keys: two sizings with the same key give the same image size. */
export function imageSizingKey(sizing: ImageSizing): string {
  return sizing.kind === 'fit-edge' ? 'fit' : `smart:${sizing.factor}:${sizing.minPixels}:${sizing.maxPixels}`;
}
