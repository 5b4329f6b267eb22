/**
 * A turn asked to replay (TurnRequest.replay): what it does before, or instead of, the model's loop.
 *
 * - A `do` step with a recording replays its actions (replay-turn.ts). All done: the turn finishes without the
 *   model. Diverged: with healing, the model is told where and shown the recorded screen beside the present one,
 *   and the turn's loop goes on from there (its steps, replayed and healed, become the step's next recording);
 *   without healing, the turn fails there, naming the action and the region.
 * - A question (assert, extract, if, wait_for) reuses its recorded verdict only on a frame identical to the one the
 *   verdict was given on, by the strict dedup rule; otherwise the model judges it.
 *
 * Undefined means "the model runs the turn (or goes on with it)".
 */
import type { CostTotals } from '../../shared/cost.js';
import type { TurnReplay, ReplayDivergence, ReplayMode } from '../../shared/replay.js';
import type { TurnRecord } from '../storage/index.js';
import { encodeLossless } from '../perception/image-encoding.js';
import { decodeImageBytes } from '../perception/image-encoding.js';
import { strictlyIdentical } from '../perception/replay-divergence.js';
import { divergenceText, healingMessage, readRecording, replayRecording, type ReplayParts } from './replay-turn.js';
import type { TurnEnding } from './turn-lifecycle.js';
import type { TurnSpending } from './turn-spending.js';

/** What the turn's replay came to so far; the turn's record is made of it when the turn ends (turnReplayOf). */
export interface ReplayNote {
  mode: ReplayMode;
  recorded: TurnRecord | undefined;
  replayedActions: number;
  reusedAnswer?: boolean;
  divergence?: ReplayDivergence;
  notReplayable?: string;
}

export interface ReplayAsk {
  key: string;
  heal: boolean;
  /** A given turn to replay; the key's latest recording when absent. */
  fromTurnId?: string | undefined;
  /** The turn answers a question. */
  answering: boolean;
  /** The turn's first capture, stored. */
  first: { imageId: string };
}

export async function replayStep(parts: ReplayParts, ask: ReplayAsk, note: ReplayNote): Promise<TurnEnding | undefined> {
  const recorded = ask.fromTurnId === undefined ? parts.storage.turns.latestRecording(ask.key) : parts.storage.turns.get(ask.fromTurnId);
  if (recorded === undefined) return undefined;
  note.recorded = recorded;
  return ask.answering ? reuseAnswer(parts, recorded, ask, note) : replayActions(parts, recorded, ask, note);
}

async function reuseAnswer(parts: ReplayParts, recorded: TurnRecord, ask: ReplayAsk, note: ReplayNote): Promise<TurnEnding | undefined> {
  if (recorded.answer === null) return undefined;
  // The frame the verdict was given on: the recorded turn's last screen.
  const judgedOn = parts.storage.images.listByTurn(recorded.id).filter((image) => image.source === 'screen' || image.source === 'browser').at(-1);
  if (judgedOn === undefined) return undefined;
  const read = await parts.storage.images.retrieve(judgedOn.id);
  const present = parts.screen.latestFrame();
  if (read.status !== 'ok' || present === undefined) return undefined;
  if (!strictlyIdentical(await decodeImageBytes(read.bytes), present, parts.comparison)) return undefined;
  note.mode = 'replayed';
  note.reusedAnswer = true;
  // The evidence is the present frame, identical to the one the verdict was given on.
  const answer = { ...recorded.answer, evidence: [ask.first.imageId] };
  return { status: 'finished', reason: 'finished', summary: answer.reason, answer };
}

async function replayActions(parts: ReplayParts, recorded: TurnRecord, ask: ReplayAsk, note: ReplayNote): Promise<TurnEnding | undefined> {
  const recording = readRecording(parts.storage, recorded.id);
  if (!recording.replayable) {
    note.notReplayable = recording.why;
    return undefined;
  }
  const run = await replayRecording(parts, recording, ask.first);
  note.replayedActions = run.actions;
  note.mode = 'replayed';
  switch (run.kind) {
    case 'done':
      return { status: 'finished', reason: 'finished', summary: recording.summary ?? `Replayed ${run.actions} recorded actions.` };
    case 'stopped':
      return { status: 'stopped', reason: 'stopped', summary: 'Stopped by the user.' };
    case 'failed':
      return { status: 'failed', reason: 'failed', summary: run.summary };
    case 'diverged':
      break;
  }
  note.divergence = run.divergence;
  if (!ask.heal) {
    note.mode = 'diverged';
    return { status: 'failed', reason: 'failed', summary: `The replay diverged ${divergenceText(run.divergence)}; healing is off, so nothing more was done` };
  }
  note.mode = 'healed';
  // The recorded frame is copied into this session, so the model can see it and recall it by id like its own.
  const frame = run.recordedFrame;
  const copy =
    frame === undefined
      ? undefined
      : await parts.storage.images.put({
          sessionId: parts.turn.sessionId,
          turnId: parts.turn.turnId,
          bytes: await encodeLossless(frame),
          mime: 'image/png',
          width: frame.width,
          height: frame.height,
          source: 'tool',
        });
  parts.storage.messages.append({
    sessionId: parts.turn.sessionId,
    turnId: parts.turn.turnId,
    message: { role: 'user', parts: healingMessage(run.divergence, copy?.id, run.divergence.presentImageId ?? ask.first.imageId) },
  });
  return undefined;
}

/**
 * The turn's replay record: its mode and, against the run it replayed, the model calls and the cost it saved. A heal
 * counts as one only when the turn finished: one that ended otherwise is `heal-failed`, which saves nothing.
 */
export function turnReplayOf(note: ReplayNote, usage: TurnSpending, status: TurnEnding['status']): TurnReplay {
  const costDollars = dollarsOf(usage.cost);
  const mode = note.mode === 'healed' && status !== 'finished' ? 'heal-failed' : note.mode;
  const ownBaseline = { calls: usage.calls, dollars: costDollars };
  // A replay or a healing saves against what the step cost when the model last ran it whole.
  const carried = note.mode !== 'model' && note.recorded?.replay !== null && note.recorded?.replay !== undefined;
  const baseline = carried ? { calls: note.recorded!.replay!.baselineModelCalls, dollars: note.recorded!.replay!.baselineCostDollars } : ownBaseline;
  return {
    mode,
    recordedTurnId: note.recorded?.id ?? null,
    ...(note.reusedAnswer === true ? { reusedAnswer: true } : {}),
    ...(note.divergence === undefined ? {} : { divergence: note.divergence }),
    ...(note.notReplayable === undefined ? {} : { notReplayable: note.notReplayable }),
    replayedActions: note.replayedActions,
    modelCalls: usage.calls,
    costDollars,
    baselineModelCalls: baseline.calls,
    baselineCostDollars: baseline.dollars,
  };
}

function dollarsOf(cost: CostTotals): number | null {
  return cost.unpricedTokens > 0 ? null : (cost.dollars ?? 0);
}
