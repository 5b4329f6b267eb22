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

/**
 * Whole images get a thumbnail; folded ones (moved to cold storage, deleted by retention, or captioned in
 * the compact zone) get a placeholder card that loads the pixels only when asked.
 */
export function isFolded(screenshot: Pick<ImageSummary, 'zone' | 'caption'>): boolean {
  return screenshot.zone === 'offloaded' || screenshot.zone === 'purged' || (screenshot.zone === 'compact' && screenshot.caption !== null);
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
