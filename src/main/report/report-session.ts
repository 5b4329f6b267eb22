/**
 * A session as the report shows it, read from storage: its turns (with the flow step each ran for and the
 * model's answer), their steps in words, each step's screenshot (folded ones as placeholders), how the screen
 * settled, cost and where the action came from. Texts are as storage keeps them (already redacted there) and
 * pass once more through the caller's redactor, so a secret configured since is masked too.
 */
import { imageSavings } from '../../shared/image-savings.js';
import { COMPUTER_TOOL_NAME, isComputerAction } from '../../shared/actions.js';
import type { Redact } from '../../shared/secret-redaction.js';
import { redactStrings } from '../../shared/secret-redaction.js';
import { ScreenshotViewSchema } from '../../shared/model-view.js';
import type { Divergence, ReportAgentStep, ReportSession, ReportShot, ReportTurn, StepSource } from '../../shared/report-model.js';
import { STEP_SOURCES, DivergenceSchema } from '../../shared/report-model.js';
import type { TurnReplay } from '../../shared/replay.js';
import { isFolded, stepActionLabel, stepOutcome } from '../../renderer/src/timeline/step-presentation.js';
import type { ImageRecord, StepRecord, Storage } from '../storage/index.js';

export class ReportSessionNotFoundError extends Error {
  constructor(readonly sessionId: string) {
    super(`there is no session ${sessionId}`);
    this.name = 'ReportSessionNotFoundError';
  }
}

/** Reads one session for a report; throws ReportSessionNotFoundError when there is none. */
export function readReportSession(storage: Storage, sessionId: string, redact: Redact): ReportSession {
  const session = storage.sessions.summary(sessionId);
  if (session === undefined) throw new ReportSessionNotFoundError(sessionId);
  const steps = storage.steps.listBySession(sessionId);
  const costs = storage.steps.costTotalsByTurn(sessionId);
  const tokens = storage.steps.tokenTotals(sessionId);
  const total = storage.steps.costTotals(sessionId);
  const pinned = storage.pins.pinnedIds(sessionId);
  const stepsByTurn = new Map<string, StepRecord[]>();
  for (const step of steps) stepsByTurn.set(step.turnId, [...(stepsByTurn.get(step.turnId) ?? []), step]);
  const turns: ReportTurn[] = storage.turns.listBySession(sessionId).map((turn) => ({
    id: turn.id,
    sequence: turn.sequence,
    request: turn.userRequest,
    status: turn.status,
    startedAt: turn.startedAt,
    endedAt: turn.endedAt,
    summary: turn.summary,
    stepKind: turn.stepKind,
    answer: turn.answer === null ? null : { kind: turn.answer.kind, value: turn.answer.value, reason: turn.answer.reason, evidence: [...turn.answer.evidence] },
    costDollars: costs.get(turn.id)?.dollars ?? null,
    costUnknown: (costs.get(turn.id)?.unpricedTokens ?? 0) > 0,
    steps: withReplay((stepsByTurn.get(turn.id) ?? []).map((step) => agentStep(storage, step, pinned)), turn.replay),
  }));
  const report: ReportSession = {
    id: session.id,
    title: session.title,
    status: session.status,
    model: session.model,
    operator: session.operator,
    flowName: session.flowName,
    createdAt: session.createdAt,
    updatedAt: session.updatedAt,
    costDollars: total.dollars,
    costUnknown: total.unpricedTokens > 0,
    inputTokens: tokens.input,
    outputTokens: tokens.output,
    savings: imageSavings(tokens),
    turns,
  };
  return redactStrings(report, redact);
}

function agentStep(storage: Storage, record: StepRecord, pinned: ReadonlySet<string>): ReportAgentStep {
  const { action } = record;
  const computer = isComputerAction(action) ? action : null;
  const step = {
    id: record.id,
    tool: isComputerAction(action) ? COMPUTER_TOOL_NAME : action.tool,
    action: computer,
    toolArguments: isComputerAction(action) ? null : action.arguments,
    result: record.result as never,
    error: record.error,
    dedupOf: record.dedupOfImageId,
  };
  const image = record.screenshotImageId === null ? undefined : storage.images.get(record.screenshotImageId);
  const view = ScreenshotViewSchema.safeParse(record.screenshotView);
  const result = objectOf(record.result);
  return {
    id: record.id,
    sequence: record.sequence,
    label: stepActionLabel(step),
    tool: step.tool,
    action: computer,
    thought: record.thought,
    error: record.error,
    outcome: stepOutcome(step),
    shot: image === undefined ? null : shotOf(image, pinned),
    view: view.success ? view.data : null,
    settle: settleOf(result?.['settle']),
    latencyMs: record.latencyMs,
    costDollars: record.costDollars,
    inputTokens: record.inputTokens,
    outputTokens: record.outputTokens,
    source: sourceOf(result?.['source']),
    divergence: divergenceOf(result?.['divergence']),
  };
}

function shotOf(image: ImageRecord, pinned: ReadonlySet<string>): ReportShot {
  const zone = image.purgedAt !== null ? 'purged' : image.zone;
  return {
    imageId: image.id,
    // Set when the frames are read: a purged or unreadable frame keeps null and shows as unavailable.
    frameKey: null,
    zone,
    caption: image.caption,
    width: image.width,
    height: image.height,
    // A pinned frame is sent whole: the timeline draws it whole too.
    folded: !pinned.has(image.id) && isFolded({ zone, caption: image.caption }),
  };
}

function objectOf(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function settleOf(value: unknown): ReportAgentStep['settle'] {
  const settle = objectOf(value);
  if (settle === undefined || typeof settle['waitedMs'] !== 'number' || typeof settle['settled'] !== 'boolean') return null;
  return { waitedMs: settle['waitedMs'], settled: settle['settled'] };
}

/** A step's own mark, where one was written in its result; every other step is the model's until withReplay says. */
function sourceOf(value: unknown): StepSource {
  return (STEP_SOURCES as readonly unknown[]).includes(value) ? (value as StepSource) : 'model';
}

function divergenceOf(value: unknown): Divergence | null {
  const parsed = DivergenceSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/**
 * What replay (issue 26) recorded on the turn (`turns.replay`), onto its steps: a replayed turn's steps were done
 * without the model; a healed turn's first divergence goes on the step of the action it was found at (the recorded
 * frame beside the present one, the differing region marked) and the turn's steps say healed.
 */
export function withReplay(steps: ReportAgentStep[], replay: TurnReplay | null): ReportAgentStep[] {
  if (replay === null || replay.mode === 'model') return steps;
  const source: StepSource = replay.mode === 'replayed' ? 'replayed' : 'healed';
  const divergence = replay.divergence;
  const shown: Divergence | null =
    divergence?.recordedImageId !== undefined && divergence.presentImageId !== undefined
      ? { recordedImageId: divergence.recordedImageId, liveImageId: divergence.presentImageId, regions: divergence.region === undefined ? [] : [divergence.region], when: divergence.phase }
      : null;
  const at = divergence === undefined ? -1 : Math.max(0, Math.min(divergence.action, steps.length) - 1);
  return steps.map((step, index) => ({ ...step, source: step.source === 'model' ? source : step.source, divergence: index === at && step.divergence === null ? shown : step.divergence }));
}
