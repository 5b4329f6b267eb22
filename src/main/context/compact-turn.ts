/**
 * Visual compaction at turn end. The turn's anchors (first and last screenshot, error frames) stay whole;
 * every other image becomes a captioned placeholder in the messages, and its file moves from blobs/ to
 * cold-storage/. Nothing is deleted, and the rows keep the index, so any image comes back by id.
 *
 * The work is ordered so that a crash at any point loses nothing:
 *   1. plan (one transaction): captions on the turn's images, error frames flagged, and the plan written to
 *      the compaction journal: which images fold, which stay, what each changed message becomes;
 *   2. move files (images.archive: rename into cold storage, then the row says offloaded; each move is
 *      idempotent, and a read finds a file in either place meanwhile);
 *   3. mark rows (one transaction): anchors to the compact zone, messages compressed with their
 *      placeholders, the turn compacted, the journal row done.
 * A compaction cut short leaves a `planned` journal row; `reconcileCompactions` at startup runs steps 2
 * and 3 again from the stored plan. Rows without a turn (older data) are never read here, let alone changed.
 */
import type { ImageRecord, StepRecord, Storage, TurnRecord } from '../storage/index.js';
import { CompactionPlanSchema, type CompactionPlan } from './compaction-plan.js';
import { describeImage } from './captions.js';
import { ImageDescriptions } from './image-descriptions.js';
import { foldedParts, loadTurnView } from './turn-folding.js';
import { turnOutcomeText } from './turn-summary.js';

/**
 * Test seams to prove crash safety for real: a child process can be killed at each point, or a hook can
 * hold the work to show what runs meanwhile.
 */
export interface CompactionSeams {
  /** After the plan is committed, before the first file moves. */
  afterPlan?: (turnId: string) => void | Promise<void>;
  /** After each folded image's file moved and its row says offloaded. */
  afterFileMoved?: (turnId: string, imageId: string) => void | Promise<void>;
  /** After every file moved, before the rows are marked. */
  beforeRowUpdates?: (turnId: string) => void | Promise<void>;
}

export interface CompactTurnInput {
  storage: Storage;
  turnId: string;
  /** When given, the turn must belong to this session. */
  sessionId?: string;
  seams?: CompactionSeams;
}

export type CompactionResult =
  | {
      status: 'compacted';
      turnId: string;
      /** Images kept whole. */
      anchors: string[];
      /** Images folded into placeholders, their files in cold storage. */
      folded: string[];
      /** Files actually renamed into cold storage by this call. */
      filesMoved: number;
      /** Whether this call finished a compaction an earlier one had planned (after a crash). */
      resumed: boolean;
    }
  | { status: 'already-compacted'; turnId: string };

/** The turn cannot be compacted (it does not exist, belongs to another session, or is still running). */
export class CompactionRefusedError extends Error {
  override name = 'CompactionRefusedError';
}

export async function compactTurn(input: CompactTurnInput): Promise<CompactionResult> {
  const { storage, turnId } = input;
  const planned = planOrResume(storage, turnId, input.sessionId);
  if (planned === 'already-compacted') return { status: 'already-compacted', turnId };
  const { plan, resumed } = planned;
  await input.seams?.afterPlan?.(turnId);
  let filesMoved = 0;
  for (const imageId of plan.folded) {
    const image = storage.images.get(imageId);
    if (image === undefined || image.turnId === null) continue;
    const archived = await storage.images.archive(imageId);
    if (archived.file === 'moved') filesMoved += 1;
    await input.seams?.afterFileMoved?.(turnId, imageId);
  }
  await input.seams?.beforeRowUpdates?.(turnId);
  markRows(storage, turnId, plan);
  return {
    status: 'compacted',
    turnId,
    anchors: plan.anchors.map((anchor) => anchor.imageId),
    folded: plan.folded,
    filesMoved,
    resumed,
  };
}

function planOrResume(
  storage: Storage,
  turnId: string,
  sessionId: string | undefined,
): { plan: CompactionPlan; resumed: boolean } | 'already-compacted' {
  return storage.transaction(() => {
    const turn = storage.turns.get(turnId);
    if (turn === undefined) throw new CompactionRefusedError(`There is no turn ${turnId} to compact.`);
    if (sessionId !== undefined && turn.sessionId !== sessionId) {
      throw new CompactionRefusedError(`Turn ${turnId} does not belong to session ${sessionId}.`);
    }
    const journal = storage.compactions.get(turnId);
    if (journal?.state === 'done' || (journal === undefined && turn.compactedAt !== null)) return 'already-compacted';
    if (journal !== undefined) return { plan: CompactionPlanSchema.parse(journal.plan), resumed: true };
    if (turn.status === 'running') throw new CompactionRefusedError(`Turn ${turnId} is still running; it is compacted when it ends.`);
    const plan = planCompaction(storage, turn);
    storage.compactions.plan({ turnId, sessionId: turn.sessionId, plan });
    return { plan, resumed: false };
  }, { immediate: true });
}

/** Chooses anchors, writes captions and error flags, and says what each message becomes. Inside the plan's transaction. */
function planCompaction(storage: Storage, turn: TurnRecord): CompactionPlan {
  const descriptions = new ImageDescriptions(storage);
  const records = storage.messages.listByTurn(turn.id);
  const view = loadTurnView(storage, descriptions, turn, records.map((record) => record.message));
  for (const image of view.content.images) writeCaption(storage, descriptions, image, view.content.steps);
  for (const [imageId, reasons] of view.anchors) {
    if (reasons.includes('error') && descriptions.record(imageId)?.isErrorFrame === false) {
      storage.images.setErrorFrame(imageId, true);
    }
  }
  const messages: CompactionPlan['messages'] = [];
  for (const record of records) {
    const parts = foldedParts(record.message, { anchors: view.anchors, anchorsWhole: true, descriptions });
    if (JSON.stringify(parts) !== JSON.stringify(record.message.parts)) messages.push({ messageId: record.id, parts });
  }
  return {
    anchors: [...view.anchors].map(([imageId, reasons]) => ({ imageId, reasons })),
    folded: view.content.images.filter((image) => !view.anchors.has(image.id)).map((image) => image.id),
    messages,
    summary: turnOutcomeText(view.content.messages) ?? null,
  };
}

/** Stores the caption the request builder would compute anyway, so the timeline and recall tools can show it. */
function writeCaption(storage: Storage, descriptions: ImageDescriptions, image: ImageRecord, steps: readonly StepRecord[]): void {
  if (image.caption !== null) return;
  descriptions.remember([storage.images.setCaption(image.id, describeImage(image, steps))]);
}

function markRows(storage: Storage, turnId: string, plan: CompactionPlan): void {
  storage.transaction(() => {
    for (const anchor of plan.anchors) {
      const image = storage.images.get(anchor.imageId);
      if (image !== undefined && image.zone === 'active') storage.images.setZone(anchor.imageId, 'compact');
    }
    for (const message of plan.messages) storage.messages.compress(message.messageId, message.parts);
    storage.turns.markCompacted(turnId, plan.summary);
    storage.compactions.finish(turnId);
  }, { immediate: true });
}

export interface ReconcileCompactionsOptions {
  /**
   * Turns that ended longer ago than this without ever being compacted (their process died before its
   * turn-end hook ran) are compacted too. Younger ones may still be in another process's hands.
   */
  endedTurnGraceMs?: number;
  now?: Date;
}

export interface CompactionReconciliation {
  /** Compactions that had been planned and were finished now. */
  resumed: string[];
  /** Ended turns that had never been compacted, compacted now. */
  compactedLate: string[];
  /** Files moved into cold storage by the finishing work. */
  filesMoved: number;
  /** Turns that could not be finished, with why; they are tried again at the next start. */
  failed: { turnId: string; error: string }[];
}

const DEFAULT_ENDED_TURN_GRACE_MS = 60_000;

/** At startup: finishes every compaction left planned, then compacts ended turns that never were. */
export async function reconcileCompactions(
  storage: Storage,
  options: ReconcileCompactionsOptions = {},
): Promise<CompactionReconciliation> {
  const report: CompactionReconciliation = { resumed: [], compactedLate: [], filesMoved: 0, failed: [] };
  const run = async (turnId: string, into: string[]) => {
    try {
      const result = await compactTurn({ storage, turnId });
      if (result.status !== 'compacted') return;
      into.push(turnId);
      report.filesMoved += result.filesMoved;
    } catch (error) {
      report.failed.push({ turnId, error: error instanceof Error ? error.message : String(error) });
    }
  };
  for (const journal of storage.compactions.listUnfinished()) await run(journal.turnId, report.resumed);
  const now = (options.now ?? new Date()).getTime();
  const endedBefore = new Date(now - (options.endedTurnGraceMs ?? DEFAULT_ENDED_TURN_GRACE_MS)).toISOString();
  for (const turn of storage.compactions.listEndedUncompactedTurns(endedBefore)) await run(turn.turnId, report.compactedLate);
  return report;
}
