/**
 * Replaying a recorded step (docs/flows.md, "Replay"): the recorded turn's actions, in Sightline's own action form,
 * done again without the model, each one only on a screen the divergence rule (perception/replay-divergence.ts)
 * calls the same as the one it was chosen on, and followed by a screen the rule calls the same as the one it led
 * to. Each action runs as a call of this turn through ToolTurn.take, so it passes the one confirmation gate, the one
 * coordinate mapping and the screen recorder, and is recorded as a step like the model's (the turn then becomes the
 * step's next recording). At the first divergence the replay stops and says where; it never acts on a screen it
 * has not judged the same.
 */
import { actionPointsOnScreenshot, isComputerAction, type ComputerAction } from '../../shared/actions.js';
import { describeAction } from '../../shared/action-descriptions.js';
import type { MessagePart } from '../../shared/messages.js';
import { ScreenshotViewSchema, type ScreenshotView } from '../../shared/model-view.js';
import { REDACTED } from '../../shared/secret-redaction.js';
import type { ReplayDivergence } from '../../shared/replay.js';
import type { ShownImages } from '../context/index.js';
import type { Frame, RawImage, Region } from '../perception/frame.js';
import { BOX_TOLERANCE, ElementIdentitySchema, PageTextsSchema, elementDifference } from '../operators/element-identity.js';
import type { ElementIdentity, PageText, PressCheck } from '../operators/operator.js';
import { decodeImageBytes } from '../perception/image-encoding.js';
import { judgeReplayFrame, type ReplayComparisonSettings, type ReplayJudgement, type ReplayReading } from '../perception/replay-divergence.js';
import type { Storage } from '../storage/index.js';
import { MASKED_PASSWORD } from './password-masking.js';
import type { ScreenRecorder } from './screen-recorder.js';
import type { ToolTurn } from './tool-turn.js';
import type { ToolRegistry } from './tools/registry.js';

/** One recorded action: what was done, on which screen and how that screen was shown, and the screen it led to. */
export interface RecordedAction {
  /** 1, 2, 3…: its place among the recording's actions. */
  index: number;
  action: ComputerAction;
  view: ScreenshotView;
  beforeImageId: string;
  afterImageId: string | undefined;
  /** The element the recorded click pressed (browser recordings since issue 36): what must be under the point again. */
  element: ElementIdentity | undefined;
  /** The page's visible text when the recorded click pressed (browser recordings since issue 36). */
  texts: PageText[] | undefined;
}

export type Recording =
  | {
      replayable: true;
      turnId: string;
      actions: RecordedAction[];
      summary: string | undefined;
      /** The screen the model finished on: what a recording without actions is checked against. */
      finishedOnImageId: string | undefined;
    }
  | { replayable: false; turnId: string; why: string };

/** Calls that only look (or end the turn): a replay passes over them. Any other tool's call could not be repeated safely. */
const LOOKING_TOOLS = new Set(['finish', 'get_history_image', 'crop_image', 'screenshot', 'web_search', 'list_sessions']);

/** The recorded turn's actions, or why it cannot be replayed. */
export function readRecording(storage: Storage, turnId: string): Recording {
  const actions: RecordedAction[] = [];
  let summary: string | undefined;
  let finishedOnImageId: string | undefined;
  for (const step of storage.steps.listByTurn(turnId)) {
    const action = step.action;
    if (!isComputerAction(action)) {
      if (action.tool === 'finish') {
        finishedOnImageId = step.screenshotImageId ?? undefined;
        const args = action.arguments;
        if (typeof args === 'object' && args !== null && !Array.isArray(args) && typeof args.summary === 'string') summary = args.summary;
        continue;
      }
      if (LOOKING_TOOLS.has(action.tool)) continue;
      return { replayable: false, turnId, why: `it called ${action.tool}, which a replay does not repeat` };
    }
    if (action.action === 'screenshot') continue;
    const result = step.result as { ok?: unknown; screenshotImageId?: unknown; element?: unknown; texts?: unknown } | null;
    // A refused or failed action did nothing to repeat.
    if (result?.ok !== true) continue;
    if (action.action === 'type' && (action.text.includes(MASKED_PASSWORD) || action.text.includes(REDACTED))) {
      return { replayable: false, turnId, why: 'what it typed is masked in the recording (a password field or a configured secret)' };
    }
    const view = ScreenshotViewSchema.safeParse(step.screenshotView);
    if (!view.success || step.screenshotImageId === null) return { replayable: false, turnId, why: `action ${actions.length + 1} has no recorded screen` };
    const afterImageId = typeof result.screenshotImageId === 'string' ? result.screenshotImageId : (step.dedupOfImageId ?? undefined);
    const element = ElementIdentitySchema.safeParse(result.element);
    const texts = PageTextsSchema.safeParse(result.texts);
    actions.push({
      index: actions.length + 1,
      action,
      view: view.data,
      beforeImageId: step.screenshotImageId,
      afterImageId,
      element: element.success ? element.data : undefined,
      texts: texts.success ? texts.data : undefined,
    });
  }
  // A turn that was itself replayed has no finish call: its last screen is the one it ended on.
  finishedOnImageId ??= storage.images.listByTurn(turnId).filter((image) => image.source === 'screen' || image.source === 'browser').at(-1)?.id;
  return { replayable: true, turnId, actions, summary, finishedOnImageId };
}

export interface ReplayParts {
  storage: Storage;
  screen: ScreenRecorder;
  turn: ToolTurn;
  /** Holds Sightline's own computer tool, whatever the model's dialect: the recording is in its action form. */
  registry: ToolRegistry;
  comparison: ReplayComparisonSettings;
  /** How images are shown to the model, for a call that names one (none of a computer action's do). */
  shownImages: ShownImages;
  signal: AbortSignal;
  /** The page's visible text now, where the operator reads it (the browser): changed regions are read with it. */
  pageTexts?: (() => Promise<PageText[] | undefined>) | undefined;
}

export type ReplayRun =
  | { kind: 'done'; actions: number }
  /** `recordedFrame` is absent when the recorded screen can no longer be read (retention purged it): nothing to compare is a divergence too. */
  | { kind: 'diverged'; actions: number; divergence: ReplayDivergence; recordedFrame: RawImage | undefined }
  | { kind: 'failed'; actions: number; summary: string }
  | { kind: 'stopped'; actions: number };

/**
 * Replays the actions from the screen the turn's first capture shows (`first`, already stored). Before each
 * action the present settled screen is judged against the recorded one; after it, the screen it led to.
 */
export async function replayRecording(parts: ReplayParts, recording: Extract<Recording, { replayable: true }>, first: { imageId: string }): Promise<ReplayRun> {
  const frames = new RecordedFrames(parts.storage);
  // Read and decoded while the first actions are checked, done and watched, not each when its comparison needs it.
  frames.prefetch(recording.actions.flatMap((action) => [action.beforeImageId, ...(action.afterImageId === undefined ? [] : [action.afterImageId])]));
  let present = { imageId: first.imageId, frame: requireFrame(parts.screen) };
  let done = 0;
  if (recording.actions.length === 0 && recording.finishedOnImageId !== undefined) {
    // The model did nothing there (it found the task done): nothing to do is a judgement of the screen too.
    const finishedOn = await frames.read(recording.finishedOnImageId);
    if (finishedOn === undefined) return unreadable(recording.finishedOnImageId, 'before', 1, 'finish: the recorded run did nothing here', 0, present.imageId);
    const judgement = judgeReplayFrame(finishedOn, present.frame, undefined, parts.comparison);
    if (!judgement.same) {
      const divergence: ReplayDivergence = {
        phase: 'before',
        action: 1,
        actionText: 'finish: the recorded run did nothing here',
        reason: judgement.reason,
        ...(judgement.region === undefined ? {} : { region: judgement.region }),
        recordedImageId: recording.finishedOnImageId,
        presentImageId: present.imageId,
      };
      return { kind: 'diverged', actions: 0, divergence, recordedFrame: finishedOn };
    }
  }
  for (const recorded of recording.actions) {
    if (parts.signal.aborted) return { kind: 'stopped', actions: done };
    const before = await frames.read(recorded.beforeImageId);
    if (before === undefined) return unreadable(recorded.beforeImageId, 'before', recorded.index, describeAction(recorded.action), done, present.imageId);
    const presentTexts = recorded.texts === undefined ? undefined : await parts.pageTexts?.();
    const texts = recorded.texts === undefined || presentTexts === undefined ? undefined : { recorded: recorded.texts, present: presentTexts, scale: present.frame.scaleFactor };
    const beforeJudgement = judge(before, present.frame, recorded, parts.comparison, { texts });
    if (!beforeJudgement.same) {
      return { kind: 'diverged', actions: done, divergence: divergenceOf('before', recorded, beforeJudgement, present.imageId), recordedFrame: before };
    }
    const call = { id: `replay_${recording.turnId}_${recorded.index}`, name: 'computer', argumentsText: JSON.stringify(recorded.action) };
    const thought = `Replayed: action ${recorded.index} of the recording (${recording.turnId}), on a screen checked against ${recorded.beforeImageId}.`;
    parts.turn.storeCalls([{ type: 'text', text: thought }], [call]);
    parts.screen.expectSettledFrame(await settledFrameAfter(frames, recorded, before));
    const view = { ...recorded.view, frameWidth: present.frame.width, frameHeight: present.frame.height };
    const atPress = pressCheckOf(before, recorded, parts.comparison);
    const taken = await parts.turn.take(
      call,
      { shown: { imageId: present.imageId, view }, shownImages: parts.shownImages, thought, pressCheck: atPress.check },
      parts.signal,
      parts.registry,
    );
    if (taken.stopped) return { kind: 'stopped', actions: done };
    if (taken.storageFailure !== undefined) return { kind: 'failed', actions: done, summary: taken.storageFailure };
    if (atPress.refusal !== undefined) {
      // Nothing was pressed. The screen the press would have met is stored, for the report and a healing model.
      const now = await parts.screen.capture(false);
      const presentImageId = now.kind === 'new' ? now.imageId : now.sameAs;
      return { kind: 'diverged', actions: done, divergence: divergenceOf('before', recorded, atPress.refusal, presentImageId), recordedFrame: before };
    }
    if (taken.result.isError === true) {
      const said = taken.result.parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join(' ');
      return { kind: 'failed', actions: done, summary: `Replayed action ${recorded.index} (${describeAction(recorded.action)}) did not run: ${said}` };
    }
    done += 1;
    const record = taken.result.record;
    const afterImageId = record?.result !== undefined && typeof (record.result as { screenshotImageId?: unknown }).screenshotImageId === 'string'
      ? (record.result as { screenshotImageId: string }).screenshotImageId
      : (record?.dedupOfImageId ?? present.imageId);
    present = { imageId: afterImageId, frame: requireFrame(parts.screen) };
    if (recorded.afterImageId === undefined) continue;
    const after = await frames.read(recorded.afterImageId);
    if (after === undefined) return unreadable(recorded.afterImageId, 'after', recorded.index, describeAction(recorded.action), done, present.imageId);
    const afterJudgement = judge(after, present.frame, recorded, parts.comparison);
    if (!afterJudgement.same) {
      return { kind: 'diverged', actions: done, divergence: divergenceOf('after', recorded, afterJudgement, present.imageId), recordedFrame: after };
    }
  }
  return { kind: 'done', actions: done };
}

/** A recorded screen that cannot be read (purged by retention, its file lost) cannot vouch for the present one. */
function unreadable(imageId: string, phase: 'before' | 'after', action: number, actionText: string, done: number, presentImageId: string): ReplayRun {
  return {
    kind: 'diverged',
    actions: done,
    divergence: { phase, action, actionText, reason: `the recorded screen ${imageId} can no longer be read, so nothing vouches for the present one`, recordedImageId: imageId, presentImageId },
    recordedFrame: undefined,
  };
}

/** The divergence in one sentence: where, which action, what differed. */
export function divergenceText(divergence: ReplayDivergence): string {
  return `${divergence.phase} action ${divergence.action} (${divergence.actionText}): ${divergence.reason}`;
}

/** What the healing model is told, with the recorded frame (copied into this session, when it could be read) and the present one. */
export function healingMessage(divergence: ReplayDivergence, recordedCopyId: string | undefined, presentImageId: string): MessagePart[] {
  const when = divergence.phase === 'before' ? `was about to do action ${divergence.action}` : `had done action ${divergence.action}`;
  const stopped = `This step was being replayed from an earlier run without you, and the replay stopped: it ${when} (${divergence.actionText}), but the screen is not the one recorded: ${divergence.reason}.`;
  return [
    ...(recordedCopyId === undefined
      ? [{ type: 'text' as const, text: stopped }]
      : [
          { type: 'text' as const, text: `${stopped} The recorded screen ${divergence.phase === 'before' ? 'the action was chosen on' : 'the action led to'} (${recordedCopyId}):` },
          { type: 'image' as const, imageId: recordedCopyId },
        ]),
    { type: 'text', text: `The screen now (${presentImageId}):` },
    { type: 'image', imageId: presentImageId },
    { type: 'text', text: 'Go on with the task from the screen now; the replayed actions above are done. Call finish when the task is done.' },
  ];
}

function judge(recorded: RawImage, present: RawImage, action: RecordedAction, settings: ReplayComparisonSettings, reading: ReplayReading = {}): ReplayJudgement {
  const points = actionPointsOnScreenshot(action.action, action.view, { width: recorded.width, height: recorded.height });
  if (points.length === 0) return judgeReplayFrame(recorded, present, undefined, settings, reading);
  let last: ReplayJudgement | undefined;
  for (const point of points) {
    last = judgeReplayFrame(recorded, present, point, settings, reading);
    if (!last.same) return last;
  }
  return last!;
}

/**
 * The last look before a click presses (operator.ts, PressCheck): once the pointer is on the point, the screen is
 * judged against the recorded one again (the recorded element's own box excused, where the hover shows), then the
 * element under the point against the recorded element, where the recording holds one. A screen or an element that
 * changed between the check before the action and the press (a late overlay, a label swapped on hover, an invisible
 * layer) stops the click: `refusal` then says why, and nothing was pressed.
 */
function pressCheckOf(
  before: RawImage,
  recorded: RecordedAction,
  settings: ReplayComparisonSettings,
): { check: PressCheck; refusal: Pick<Extract<ReplayJudgement, { same: false }>, 'reason' | 'region'> | undefined } {
  const state: ReturnType<typeof pressCheckOf> = {
    refusal: undefined,
    check: async (moment) => {
      const frame = await moment.capture();
      const excused = recorded.element === undefined ? undefined : frameBox(recorded.element.box, frame.scaleFactor, frame);
      const present = recorded.texts === undefined ? undefined : await moment.texts();
      const texts = recorded.texts === undefined || present === undefined ? undefined : { recorded: recorded.texts, present, scale: frame.scaleFactor };
      const judgement = judge(before, frame, recorded, settings, { excused, texts });
      if (!judgement.same) {
        state.refusal = { reason: `at the press: ${judgement.reason}`, region: judgement.region };
        return state.refusal.reason;
      }
      if (recorded.element === undefined) return undefined;
      const difference = elementDifference(recorded.element, await moment.element());
      if (difference === undefined) return undefined;
      state.refusal = { reason: `at the press: ${difference}`, region: frameBox(recorded.element.box, frame.scaleFactor, frame) };
      return state.refusal.reason;
    },
  };
  return state;
}

/** A box in screen units as frame pixels, grown by the element rule's tolerance (a hover's outline may spill over it) and kept inside the frame. */
function frameBox(box: ElementIdentity['box'], scale: number, frame: { width: number; height: number }): Region {
  const left = Math.max(0, Math.floor((box.x - BOX_TOLERANCE) * scale));
  const top = Math.max(0, Math.floor((box.y - BOX_TOLERANCE) * scale));
  const right = Math.min(frame.width, Math.ceil((box.x + box.width + BOX_TOLERANCE) * scale));
  const bottom = Math.min(frame.height, Math.ceil((box.y + box.height + BOX_TOLERANCE) * scale));
  return { x: left, y: top, width: Math.max(0, right - left), height: Math.max(0, bottom - top) };
}

function divergenceOf(phase: 'before' | 'after', recorded: RecordedAction, judgement: Pick<Extract<ReplayJudgement, { same: false }>, 'reason' | 'region'>, presentImageId: string): ReplayDivergence {
  return {
    phase,
    action: recorded.index,
    actionText: describeAction(recorded.action),
    reason: judgement.reason,
    ...(judgement.region === undefined ? {} : { region: judgement.region }),
    recordedImageId: phase === 'before' ? recorded.beforeImageId : (recorded.afterImageId ?? recorded.beforeImageId),
    presentImageId,
  };
}

function requireFrame(screen: ScreenRecorder): Frame {
  const frame = screen.latestFrame();
  if (frame === undefined) throw new Error('The replay has no captured screen to compare.');
  return frame;
}

/**
 * The screen a recorded action led to, when the recording shows it changed the screen: the watch after the replayed
 * action may take a first frame pixel-identical to it as settled. An action that changed nothing gets none, so the
 * watch keeps its unchanged minimum (the app may not have reacted yet).
 */
async function settledFrameAfter(frames: RecordedFrames, recorded: RecordedAction, before: RawImage): Promise<RawImage | undefined> {
  if (recorded.afterImageId === undefined || recorded.afterImageId === recorded.beforeImageId) return undefined;
  const after = await frames.read(recorded.afterImageId);
  return after === undefined || after.rgba.equals(before.rgba) ? undefined : after;
}

/** Recorded frames, decoded once each (blobs/ or cold storage, hash-checked). */
class RecordedFrames {
  private readonly decoded = new Map<string, Promise<RawImage | undefined>>();

  constructor(private readonly storage: Storage) {}

  /** Starts reading them all; a read that fails here fails again, and is answered, when it is asked for. */
  prefetch(imageIds: readonly string[]): void {
    for (const imageId of imageIds) this.read(imageId).catch(() => this.decoded.delete(imageId));
  }

  read(imageId: string): Promise<RawImage | undefined> {
    let frame = this.decoded.get(imageId);
    if (frame === undefined) {
      frame = (async () => {
        const read = await this.storage.images.retrieve(imageId);
        return read.status === 'ok' ? decodeImageBytes(read.bytes) : undefined;
      })();
      this.decoded.set(imageId, frame);
    }
    return frame;
  }
}
