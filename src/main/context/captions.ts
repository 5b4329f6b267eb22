/**
 * What a folded image says in its place. A placeholder keeps the image's id (so the model can ask for it
 * back with get_history_image or crop_image) and one line of what the model needs to decide whether to:
 * the step that produced it, the action, the time and the size.
 *
 *   [Visual_Placeholder: img_3f9c0a12b7e4] step 4 · click (640, 412) · 14:03:22 · 1280×800
 *
 * Captions are a pure function of the image row and its turn's steps, so the compaction that stores one
 * and the request builder that renders a turn not yet compacted write the same bytes.
 */
import { describeAction } from '../../shared/action-descriptions.js';
import type { ImageRecord, StepRecord } from '../storage/index.js';

const PLACEHOLDER_PATTERN = /^\[Visual_Placeholder: (img_[0-9a-f]{12})\]/;
const IMAGE_ID_PATTERN = /\bimg_[0-9a-f]{12}\b/g;

export function placeholderText(imageId: string, caption: string): string {
  return `[Visual_Placeholder: ${imageId}] ${caption}`;
}

/** The image id of a placeholder text part, or undefined when the text is not one. */
export function placeholderImageId(text: string): string | undefined {
  return PLACEHOLDER_PATTERN.exec(text)?.[1];
}

/** One folded image in a turn's line of placeholders. */
export interface SheetEntry {
  imageId: string;
  errorFrame: boolean;
}

/**
 * The folded images of an older turn, named in one line instead of one line each (zone-rendering.ts):
 *
 *   [Visual_Placeholders: img_3f9c0a12b7e4 img_0c1d2e3f4a5b (error frame) img_9a8b7c6d5e4f] turn 12's images, oldest first
 *
 * The ids are what the model needs to get any of them back; the step each image belongs to is the order.
 */
export function placeholderSheetText(turnSequence: number, entries: readonly SheetEntry[]): string {
  const names = entries.map((entry) => (entry.errorFrame ? `${entry.imageId} (error frame)` : entry.imageId));
  return `[Visual_Placeholders: ${names.join(' ')}] turn ${turnSequence}'s images, oldest first`;
}

/** Every image id a text names, in order: placeholders, lines of placeholders, labels. */
export function imageIdsIn(text: string): string[] {
  return [...text.matchAll(IMAGE_ID_PATTERN)].map((match) => match[0]);
}

/** The image's stored caption, or the one compaction would store for it. */
export function captionOf(image: ImageRecord, turnSteps: readonly StepRecord[]): string {
  return image.caption ?? describeImage(image, turnSteps);
}

/** "step 4 · click (640, 412) · 14:03:22 · 1280×800"; times are UTC, as stored. */
export function describeImage(image: ImageRecord, turnSteps: readonly StepRecord[]): string {
  return [origin(image, turnSteps), image.createdAt.slice(11, 19), `${image.width}×${image.height}`].join(' · ');
}

/** The step after whose action the image was taken; else the step that was chosen looking at it. */
function origin(image: ImageRecord, turnSteps: readonly StepRecord[]): string {
  const producedBy = turnSteps.find((step) => resultScreenshotId(step.result) === image.id);
  if (producedBy !== undefined) return `step ${producedBy.sequence} · ${describeAction(producedBy.action)}`;
  const seenBy = turnSteps.find((step) => step.screenshotImageId === image.id);
  if (seenBy !== undefined) return `before step ${seenBy.sequence} · ${describeAction(seenBy.action)}`;
  return SOURCE_LABELS[image.source];
}

const SOURCE_LABELS: Record<ImageRecord['source'], string> = {
  screen: 'screenshot',
  browser: 'screenshot',
  crop: 'crop',
  user: 'attached by the user',
  tool: 'tool image',
};

function resultScreenshotId(result: unknown): string | undefined {
  if (typeof result !== 'object' || result === null) return undefined;
  const id = (result as { screenshotImageId?: unknown }).screenshotImageId;
  return typeof id === 'string' ? id : undefined;
}
