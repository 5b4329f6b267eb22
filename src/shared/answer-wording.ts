/**
 * How a flow's steps and their answers are worded wherever a person reads them (the timeline, `sightline
 * sessions show`): each step's kind, what a turn's answer is headed, and its verdict in words, so colour is
 * never the only sign of a pass or a failure.
 */
import type { AnswerKind, StepKind } from './answers.js';

export const STEP_KIND_LABELS: Record<StepKind, string> = {
  do: 'do',
  assert: 'assert',
  extract: 'extract',
  if: 'if',
  wait_for: 'wait for',
  locate: 'locate',
};

/** What an answer is headed: the step it answered for, or, without one, the kind of answer. */
export function answerHeading(stepKind: StepKind | null, answer: { kind: AnswerKind }): string {
  switch (stepKind) {
    case 'assert':
      return 'Assertion';
    case 'if':
      return 'Condition';
    case 'wait_for':
      return 'Wait';
    case 'extract':
      return 'Extracted value';
    case 'locate':
      return 'Located';
    default:
      return answer.kind === 'value' ? 'Extracted value' : answer.kind === 'until' ? 'Wait' : answer.kind === 'box' ? 'Located' : 'Verdict';
  }
}

/** `pass` and `fail` are coloured green and red; `neutral` (an `if`'s branch) is neither good nor bad. */
export type VerdictTone = 'pass' | 'fail' | 'neutral';

export interface VerdictText {
  /** Said in words, so the colour is never the only sign. */
  label: string;
  tone: VerdictTone;
  /** A mark beside the words (✓ or ✗); the words are what screen readers read. */
  mark: string;
}

/** The verdict of a true/false answer in words; null for an extracted value or a located box (their JSON is what they say). */
export function answerVerdict(stepKind: StepKind | null, answer: { kind: AnswerKind; value: unknown }): VerdictText | null {
  if (answer.kind === 'value' || answer.kind === 'box') return null;
  const yes = answer.value === true;
  const mark = yes ? '✓' : '✗';
  if (stepKind === 'if') return { label: yes ? 'True' : 'False', tone: 'neutral', mark };
  if (answer.kind === 'until') return { label: yes ? 'Met' : 'Not met', tone: yes ? 'pass' : 'fail', mark };
  return { label: yes ? 'Passed' : 'Failed', tone: yes ? 'pass' : 'fail', mark };
}

/** A value as indented JSON (the timeline sets it as text; the terminal prints it through its sanitizer). */
export function answerValueText(value: unknown): string {
  return JSON.stringify(value, null, 2) ?? 'null';
}
