/**
 * How the timeline words a flow's steps and the answers of turns that asked a question (issue 25): the step's
 * kind, what the answer says (a verdict in words as well as colour), and an extracted value as JSON text.
 */
import type { StepKind } from '../../../shared/answers.js';
import type { TurnAnswerView } from '../../../shared/app-api.js';

export const STEP_KIND_LABELS: Record<StepKind, string> = {
  do: 'do',
  assert: 'assert',
  extract: 'extract',
  if: 'if',
  wait_for: 'wait for',
};

/** What the answer row is headed: the step it answered for, or, without one, the kind of answer. */
export function answerHeading(stepKind: StepKind | null, answer: Pick<TurnAnswerView, 'kind'>): string {
  switch (stepKind) {
    case 'assert':
      return 'Assertion';
    case 'if':
      return 'Condition';
    case 'wait_for':
      return 'Wait';
    case 'extract':
      return 'Extracted value';
    default:
      return answer.kind === 'value' ? 'Extracted value' : answer.kind === 'until' ? 'Wait' : 'Verdict';
  }
}

/** `pass` and `fail` are coloured green and red; `neutral` (an `if`'s branch) is neither good nor bad. */
export type VerdictTone = 'pass' | 'fail' | 'neutral';

export interface VerdictText {
  /** Said in words, so the colour is never the only sign. */
  label: string;
  tone: VerdictTone;
  /** A mark beside the words (✓ or ✗), hidden from screen readers, which read the label. */
  mark: string;
}

/** The verdict of a true/false answer in words; null for an extracted value (its JSON is what it says). */
export function answerVerdict(stepKind: StepKind | null, answer: Pick<TurnAnswerView, 'kind' | 'value'>): VerdictText | null {
  if (answer.kind === 'value') return null;
  const yes = answer.value === true;
  if (stepKind === 'if') return { label: yes ? 'True' : 'False', tone: 'neutral', mark: yes ? '✓' : '✗' };
  if (answer.kind === 'until') return { label: yes ? 'Met' : 'Not met', tone: yes ? 'pass' : 'fail', mark: yes ? '✓' : '✗' };
  return { label: yes ? 'Passed' : 'Failed', tone: yes ? 'pass' : 'fail', mark: yes ? '✓' : '✗' };
}

/** A value as indented JSON: React puts it in the page as text, so markup in it is shown, never run. */
export function answerValueText(value: unknown): string {
  return JSON.stringify(value, null, 2) ?? 'null';
}

/** Lines the answer row shows of a value before it scrolls: a longer one also offers the whole in a dialog. */
export const VALUE_PREVIEW_LINES = 4;
const VALUE_PREVIEW_WIDTH = 100;

/** Whether the row shows only part of the value: more lines than it holds, or a line wider than it. */
export function isLongValue(text: string): boolean {
  const lines = text.split('\n');
  return lines.length > VALUE_PREVIEW_LINES || lines.some((line) => line.length > VALUE_PREVIEW_WIDTH);
}
