/**
 * How a step reads in the timeline: a short label for its action, whether it went wrong (an error, or an
 * action a person refused), whether the screen stayed the same, and whether its screenshot is shown whole
 * or as a placeholder card for a folded image.
 */
import type { ImageSummary, Step } from '../../../shared/app-api.js';
import type { TimelineImageZone } from '../../../shared/images.js';
import { describeAction, describeForApproval } from '../../../shared/action-descriptions.js';
import { isComputerAction, type ComputerAction, type StepAction } from '../../../shared/actions.js';
import { cropBoxesOf } from './crop-boxes.js';
import { truncate } from './format.js';

export type StepOutcome = 'ok' | 'error' | 'refused' | 'unchanged';

/** Refused beats error (a refusal is stored as an error too); unchanged only when nothing went wrong. */
export function stepOutcome(step: Pick<Step, 'error' | 'result' | 'dedupOf'>): StepOutcome {
  if (isRefused(step)) return 'refused';
  if (step.error !== null) return 'error';
  if (step.dedupOf !== null) return 'unchanged';
  return 'ok';
}

function isRefused(step: Pick<Step, 'error' | 'result'>): boolean {
  const result = step.result;
  if (typeof result === 'object' && result !== null && !Array.isArray(result) && result['refused'] === true) return true;
  return step.error !== null && /\brefused\b/i.test(step.error);
}

/**
 * A computer action as a label: the same words `sightline run` and `sessions show` print
 * (src/shared/action-descriptions.ts), starting with a capital as a label does.
 */
export function computerActionLabel(action: ComputerAction): string {
  const words = describeAction(action);
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** What a person is asked to approve, as a label: a computer action, or a tool's call with its arguments. */
export function approvalLabel(action: StepAction): string {
  // A tool's name is shown as it is spelled: it is what the model called.
  return isComputerAction(action) ? computerActionLabel(action) : describeForApproval(action);
}

const TOOL_NAMES: Record<string, string> = {
  finish: 'Finish',
  ask_user: 'Ask the user',
  web_search: 'Web search',
  get_history_image: 'Recall image',
  crop_image: 'Zoom into image',
};

/**
 * The action of any step: the computer action, or the tool with its most telling argument. A crop is told
 * by the box it cut from the original (its result), as the timeline draws it.
 */
export function stepActionLabel(step: Pick<Step, 'id' | 'tool' | 'action' | 'toolArguments'> & Partial<Pick<Step, 'result'>>): string {
  if (step.action !== null) return computerActionLabel(step.action);
  const name = TOOL_NAMES[step.tool] ?? step.tool;
  const crops = cropBoxesOf(step);
  const [crop] = crops;
  if (crop !== undefined) {
    const more = crops.length > 1 ? ` and ${crops.length - 1} more` : '';
    return `${name} ${crop.imageId} (${Math.round(crop.width)}×${Math.round(crop.height)} at ${Math.round(crop.x)}, ${Math.round(crop.y)})${more}`;
  }
  const detail = mainArgument(step.toolArguments);
  return detail === null ? name : `${name} “${truncate(detail, 56)}”`;
}

/** The argument a person would want to read first: a query, a question, an image id, a summary. */
function mainArgument(toolArguments: Step['toolArguments']): string | null {
  if (typeof toolArguments !== 'object' || toolArguments === null || Array.isArray(toolArguments)) return null;
  for (const key of ['query', 'question', 'image_id', 'imageId', 'summary', 'text']) {
    const value = toolArguments[key];
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  return null;
}

/** What the timeline knows of a screenshot when it decides how to draw it. */
export type ScreenshotFacts = Pick<ImageSummary, 'zone' | 'caption'> & Partial<Pick<ImageSummary, 'nextRequest'>>;

/**
 * Whole images get a thumbnail; folded ones get a placeholder card that loads the pixels only when asked.
 * The timeline shows what the model saw (issue 16): when the app API says how the next request carries the
 * image, a frame it sends whole (or as a reduced view) is drawn whole, wherever its pixels are, and one it
 * folds is a placeholder. A step known only from live events has no such word yet; its zone decides (moved
 * to cold storage, or captioned in the compact zone). Purged is always a placeholder: nothing is left.
 */
export function isFolded(screenshot: ScreenshotFacts): boolean {
  if (screenshot.zone === 'purged') return true;
  if (screenshot.nextRequest !== undefined) return screenshot.nextRequest === 'folded';
  return screenshot.zone === 'offloaded' || (screenshot.zone === 'compact' && screenshot.caption !== null);
}

/** Where a folded screenshot's pixels are: in cold storage, still in blobs/ (folded in the request only), or gone. */
export type PixelsLocation = 'cold-storage' | 'blobs' | 'purged';

export function pixelsLocation(screenshot: Pick<ImageSummary, 'zone'>): PixelsLocation {
  switch (screenshot.zone) {
    case 'offloaded':
      return 'cold-storage';
    case 'purged':
      return 'purged';
    case 'active':
    case 'compact':
      return 'blobs';
  }
}

/** What a placeholder card offers before it is clicked: it says where the pixels are. */
export function placeholderHint(screenshot: Pick<ImageSummary, 'zone'>): string {
  switch (pixelsLocation(screenshot)) {
    case 'cold-storage':
      return 'Load from cold storage';
    case 'blobs':
      // One line on the narrowest card (200 px, test/e2e/report-browser.test.ts): "Whole in blobs, folded in the
      // request · show" was cut off there.
      return 'Show · kept whole';
    case 'purged':
      return 'Unavailable · purged';
  }
}

/** The pin control's words: what clicking it does, and what it means. */
export function pinControl(pinned: boolean): { label: string; title: string } {
  return pinned
    ? { label: 'Pinned', title: 'Pinned: every later request of this session sends this frame whole. Click to unpin.' }
    : { label: 'Pin', title: 'Pin this frame: every later request of this session sends it whole.' };
}

/** The zone as the timeline names it: the offloaded zone is "cold" (its pixels are in cold storage). */
export function zoneLabel(zone: TimelineImageZone): string {
  switch (zone) {
    case 'active':
      return 'active';
    case 'compact':
      return 'compact';
    case 'offloaded':
      return 'cold';
    case 'purged':
      return 'purged';
  }
}
