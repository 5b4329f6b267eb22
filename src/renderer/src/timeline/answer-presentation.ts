/**
 * How the timeline shows the answers of a flow's steps (issue 25): the wording is shared with the CLI
 * (shared/answer-wording.ts); what is the timeline's own is how much of an extracted value its row holds.
 */
export { answerHeading, answerValueText, answerVerdict, STEP_KIND_LABELS, type VerdictText, type VerdictTone } from '../../../shared/answer-wording.js';

/** Lines the answer row shows of a value before it scrolls: a longer one also offers the whole in a dialog. */
export const VALUE_PREVIEW_LINES = 4;
const VALUE_PREVIEW_WIDTH = 100;

/** Whether the row shows only part of the value: more lines than it holds, or a line wider than it. */
export function isLongValue(text: string): boolean {
  const lines = text.split('\n');
  return lines.length > VALUE_PREVIEW_LINES || lines.some((line) => line.length > VALUE_PREVIEW_WIDTH);
}
