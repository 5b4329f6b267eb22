/**
 * Replay (docs/flows.md, "Replay"): a `do` step repeated from its latest passing recording without the model, the
 * screen checked against the recorded frames before and after each action, and healed by the model from the
 * present screen where it diverges. What a turn says of it, stored with the turn (`turns.replay`) and carried by
 * the SDK's steps, the flow reports, the events and `sessions show`.
 */
import { z } from 'zod';

/**
 * - `replayed`: every recorded action was done without the model (or, for a question, the recorded verdict was
 *   reused on a frame identical to the recorded one);
 * - `healed`: the replay diverged and the model finished the step from the present screen;
 * - `diverged`: the replay diverged and healing was off: the step failed there;
 * - `heal-failed`: the replay diverged and the model, healing, ended without the step done (it failed, gave up or
 *   was stopped): the step failed, and saved nothing;
 * - `model`: the model ran the step (no recording, or a recording that cannot be replayed).
 */
export const REPLAY_MODES = ['replayed', 'healed', 'heal-failed', 'diverged', 'model'] as const;
export type ReplayMode = (typeof REPLAY_MODES)[number];

const RegionSchema = z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() }).strict();

/** Where a replay stopped trusting the recording: before or after which action, and what differed. */
export const ReplayDivergenceSchema = z
  .object({
    /** Compared before the action (the screen it was chosen on) or after it (the screen it led to). */
    phase: z.enum(['before', 'after']),
    /** 1, 2, 3…: the recorded action. */
    action: z.number().int().positive(),
    /** The action in words ("click at 330,150"). */
    actionText: z.string(),
    /** What differed, in one line. */
    reason: z.string(),
    /** The region that differs, in frame pixels, when one region did. */
    region: RegionSchema.optional(),
    /** The recorded frame the present screen was compared with. */
    recordedImageId: z.string().optional(),
    /** The present frame. */
    presentImageId: z.string().optional(),
  })
  .strict();
export type ReplayDivergence = z.infer<typeof ReplayDivergenceSchema>;

export const TurnReplaySchema = z
  .object({
    mode: z.enum(REPLAY_MODES),
    /** The turn whose recording was replayed; null when there was none. */
    recordedTurnId: z.string().nullable(),
    /** A question's recorded verdict reused on an identical frame. */
    reusedAnswer: z.boolean().optional(),
    /** Why the replay was healed (or failed): the first divergence. */
    divergence: ReplayDivergenceSchema.optional(),
    /** Why a recording found was not replayed ("its typing into a password field is masked"). */
    notReplayable: z.string().optional(),
    /** Actions done without the model. */
    replayedActions: z.number().int().min(0),
    /** This turn's model calls and what they cost (null: the price is unknown). */
    modelCalls: z.number().int().min(0),
    costDollars: z.number().nullable(),
    /** What the step cost when the model last ran it whole: what a replay saves against. */
    baselineModelCalls: z.number().int().min(0),
    baselineCostDollars: z.number().nullable(),
  })
  .strict();
export type TurnReplay = z.infer<typeof TurnReplaySchema>;

/**
 * The key a step's recording is found by: the flow (or automation) it belongs to, the step's kind and its text as
 * rendered. The text holds every variable the step uses, rendered; secrets stay {{NAME}} placeholders, so a new
 * secret value still replays (and is typed from the environment, never from the recording).
 */
export function replayKeyOf(flowName: string, kind: string, text: string): string {
  return JSON.stringify([flowName, kind, text.replace(/\s+/g, ' ').trim()]);
}

/** What a replay saved against the run it replayed: model calls, and dollars where both prices are known. */
export function replaySavings(replay: TurnReplay): { modelCalls: number; costDollars: number | null } {
  // A step that failed at a divergence, healed or not, saved nothing: it is still to be done.
  if (replay.mode === 'diverged' || replay.mode === 'heal-failed') return { modelCalls: 0, costDollars: 0 };
  const costDollars = replay.baselineCostDollars === null || replay.costDollars === null ? null : replay.baselineCostDollars - replay.costDollars;
  return { modelCalls: replay.baselineModelCalls - replay.modelCalls, costDollars };
}
