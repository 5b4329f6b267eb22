/**
 * Which images of a finished turn stay whole when it is compacted: its anchors. The first screenshot (where
 * the turn started), the last (where it left the screen), and every error frame: the screen after a failed
 * step (or, when it took none, the screen its action was tried on), an image in a tool result that was an
 * error, an image already flagged as one.
 *
 * A pure function of rows that compaction does not change (image rows, steps, tool messages whose anchor
 * images stay in place), so it chooses the same anchors before, during and after a compaction.
 */
import type { Message } from '../../shared/messages.js';
import type { ImageRecord, StepRecord } from '../storage/index.js';

export type AnchorReason = 'first' | 'last' | 'error';

export interface TurnContent {
  /** The turn's images, oldest first. */
  images: readonly ImageRecord[];
  steps: readonly StepRecord[];
  messages: readonly Message[];
}

export function isScreenshot(image: Pick<ImageRecord, 'source'>): boolean {
  return image.source === 'screen' || image.source === 'browser';
}

/** The anchors of a turn, by image id; ids outside the turn's own images are never anchors. */
export function chooseAnchors(content: TurnContent): Map<string, AnchorReason[]> {
  const own = new Set(content.images.map((image) => image.id));
  const anchors = new Map<string, AnchorReason[]>();
  const add = (imageId: string | null | undefined, reason: AnchorReason) => {
    if (imageId === null || imageId === undefined || !own.has(imageId)) return;
    const reasons = anchors.get(imageId) ?? [];
    if (!reasons.includes(reason)) reasons.push(reason);
    anchors.set(imageId, reasons);
  };
  const screenshots = content.images.filter(isScreenshot);
  add(screenshots[0]?.id, 'first');
  add(screenshots.at(-1)?.id, 'last');
  for (const imageId of errorFrameIds(content)) add(imageId, 'error');
  return anchors;
}

/** Images that show an error, in the order found (flagged rows, failed steps, error tool results). */
export function errorFrameIds(content: TurnContent): string[] {
  const ids: string[] = content.images.filter((image) => image.isErrorFrame).map((image) => image.id);
  for (const step of content.steps) {
    if (!stepFailed(step)) continue;
    // The screen after the failed action when there is one, else the screen it was tried on.
    const shown = resultScreenshotId(step.result) ?? step.screenshotImageId;
    if (shown !== null) ids.push(shown);
  }
  for (const message of content.messages) {
    if (message.role !== 'tool' || message.isError !== true) continue;
    for (const part of message.parts) if (part.type === 'image' && part.imageId !== undefined) ids.push(part.imageId);
  }
  return [...new Set(ids)];
}

function resultScreenshotId(result: unknown): string | undefined {
  if (typeof result !== 'object' || result === null) return undefined;
  const id = (result as { screenshotImageId?: unknown }).screenshotImageId;
  return typeof id === 'string' ? id : undefined;
}

function stepFailed(step: StepRecord): boolean {
  if (step.error !== null) return true;
  const result = step.result;
  return typeof result === 'object' && result !== null && (result as { ok?: unknown }).ok === false;
}
