/** What one step of an automation came to: the SDK keeps one per call, and a flow's report is made of them. */
import type { StepKind, TurnAnswer } from '../../shared/answers.js';
import type { CostTotals } from '../../shared/cost.js';
import type { TurnReplay } from '../../shared/replay.js';

export type StepStatus = 'passed' | 'failed' | 'stopped';

export interface StepRecord {
  kind: StepKind | 'goto' | 'javascript' | 'note';
  /** What was asked, as the model saw it (secrets as {{NAME}}). */
  text: string;
  status: StepStatus;
  sessionId: string;
  /** The turn the step ran as; undefined for a goto, which runs no turn. */
  turnId: string | undefined;
  /** The model's summary or answer's reason, or what went wrong. */
  reason: string | undefined;
  /** The model's validated answer, for assert, check, extract and waitFor. */
  answer: TurnAnswer | undefined;
  /** The frames (img_…) the answer relied on (a note's own frame); empty for a step without an answer. */
  evidence: string[];
  /** Tool calls the turn ran (actions, recalls, answers). */
  actions: number;
  startedAt: string;
  durationMs: number;
  cost: CostTotals;
  /**
   * With replay on (or for any step of a flow, which is its next recording): `replayed`, `healed` (and where it
   * diverged), `diverged` or `model`, with the model calls and cost saved against the recorded run.
   */
  replay?: StepReplay;
}

export interface StepReplay extends TurnReplay {
  saved: { modelCalls: number; costDollars: number | null };
}
