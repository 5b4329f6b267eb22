/** What a flow run came to: what `--out` (JSON) and `--junit` are written from, and what the CLI prints. */
import type { ReplayMode } from '../../shared/replay.js';
import type { FlowStep, SourceAt } from './flow-model.js';

export type FlowStatus = 'passed' | 'failed' | 'stopped' | 'skipped';
export type StepResultStatus = 'passed' | 'failed' | 'stopped' | 'skipped';

export interface StepResult {
  /** Where in the flow: "3", "5.then.1", "6[2].1", "7.use.2". */
  path: string;
  /** What the file called the step (`do`, `aiTap`…). */
  label: string;
  kind: FlowStep['kind'];
  /** The step's text as the model saw it (secrets as {{NAME}}); the URL of a goto. */
  text: string | undefined;
  at: SourceAt;
  status: StepResultStatus;
  /** The model's reason (answers), its summary (do), or what went wrong. */
  reason: string | undefined;
  /** The frames (img_…) the answer relied on. */
  evidence: string[];
  /** extract: the value; assert and if: the verdict. */
  value?: unknown;
  /** extract: the name the value was kept under. */
  as?: string;
  durationMs: number;
  /** Dollars, where the model's price is known. */
  costDollars: number | undefined;
  /** Some of its model calls had no known price: their cost is unknown (not $0), in --out and the report. */
  costUnknown?: true;
  turnId: string | undefined;
  /** The step failed and the flow went on because the run said --continue-on-error: the flow still fails. */
  continued?: boolean;
  /**
   * The step failed where failing is allowed (its own `continue_on_error: true`, or a Midscene task's
   * `continueOnError` around it): the flow went on and does not fail for it. A group or task whose steps failed
   * only so is failed and allowed too.
   */
  allowed?: boolean;
  /** How the step ran (a step that ran a turn): replayed, healed or diverged (and why), or by the model. */
  replay?: StepReplayResult;
}

export interface StepReplayResult {
  mode: ReplayMode;
  /** A question's recorded verdict was reused on an identical frame. */
  reusedAnswer?: boolean;
  /** Healed or diverged: before or after which action, and the region that differs. */
  why?: string;
  phase?: 'before' | 'after';
  region?: { x: number; y: number; width: number; height: number };
  /** The recording replayed (a turn id); absent when there was none. */
  recordedTurnId?: string;
  /** This step's model calls, and what it saved against the recorded run (dollars: null when a price is unknown). */
  modelCalls: number;
  saved: { modelCalls: number; costDollars: number | null };
}

export interface FlowResult {
  name: string;
  file: string;
  status: FlowStatus;
  sessionId: string | undefined;
  /** Runs of the flow: 1, or more with --retry. The result is the last attempt's; earlier sessions are listed. */
  attempts: number;
  /** The sessions of the earlier attempts, oldest first. */
  earlierSessions: string[];
  startedAt: string;
  durationMs: number;
  costDollars: number | undefined;
  /** Some of its model calls had no known price: their cost is unknown (not $0). */
  costUnknown?: true;
  /** Why the flow failed or could not start. */
  error: string | undefined;
  /**
   * The run was refused before anything started (exit 2: a bad flow file, a bad flag): the problems, each as
   * `file:line:column: message` where the file says where. The flow is `failed`, with no steps and no session.
   */
  refused?: string[];
  steps: StepResult[];
  /** A flow run through a queue (`sightline worker`): every run of its job, on which worker, in which session. */
  queueAttempts?: QueueAttemptRecord[];
}

export interface QueueAttemptRecord {
  attempt: number;
  /** The worker's host and process. */
  host: string;
  pid: number;
  startedAt: string;
  /** The session in that worker's home, once the flow had opened it. */
  sessionId?: string;
  /** lost: its worker died mid-run; returned: a stopping worker handed the job back; running: not ended yet. */
  outcome: 'passed' | 'failed' | 'stopped' | 'lost' | 'returned' | 'running';
}

export interface FlowRunResult {
  startedAt: string;
  durationMs: number;
  /** This run's shard, as given: "2/4". */
  shard: string | undefined;
  flows: FlowResult[];
}

/** passed when every flow passed; stopped when any was stopped; failed otherwise. */
export function runStatus(result: FlowRunResult): FlowStatus {
  if (result.flows.some((flow) => flow.status === 'stopped')) return 'stopped';
  return result.flows.every((flow) => flow.status === 'passed' || flow.status === 'skipped') ? 'passed' : 'failed';
}
