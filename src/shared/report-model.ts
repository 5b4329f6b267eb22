/**
 * What a shareable report holds (issue 27): a session with its turns and steps, or a flow run with its flows
 * and their steps, each tied to the frames it shows. The report's React components (src/renderer/src/report/)
 * draw this model; src/main/report/ builds it from storage and a flow run's result and writes it, with the
 * frames' bytes, into one self-contained HTML file. Types and schemas only: it runs in main and renderer alike.
 */
import { z } from 'zod';
import type { ComputerAction } from './actions.js';
import type { StepKind, AnswerKind } from './answers.js';
import type { TimelineImageZone } from './images.js';
import type { ScreenshotView } from './model-view.js';
import type { ImageSavings } from './image-savings.js';

/** Where a step's action came from: a replayed recording, a recording healed by the model, or the model alone. */
export const STEP_SOURCES = ['replayed', 'healed', 'model'] as const;
export type StepSource = (typeof STEP_SOURCES)[number];

/** A rectangle in the frame's own pixels. */
export const FrameRegionSchema = z
  .object({
    x: z.number().min(0),
    y: z.number().min(0),
    width: z.number().positive(),
    height: z.number().positive(),
  })
  .strict();
export type FrameRegion = z.infer<typeof FrameRegionSchema>;

/**
 * A replay's divergence (issue 26): the frame the recording saw beside the one the live run saw, with the tiles
 * that changed, before or after the step's action. Replay writes it; the report only draws it.
 */
export const DivergenceSchema = z
  .object({
    recordedImageId: z.string().min(1),
    liveImageId: z.string().min(1),
    regions: z.array(FrameRegionSchema).max(10_000),
    when: z.enum(['before', 'after']),
  })
  .strict();
export type Divergence = z.infer<typeof DivergenceSchema>;

/**
 * One distinct frame of the report, embedded once, keyed by its content hash. `full` frames are the stored
 * bytes; the others a reduced copy. `droppedForSize` says a cited frame was reduced to keep under the cap.
 */
export interface ReportFrame {
  key: string;
  /** The image ids (img_…) this frame is, for links from the text. */
  imageIds: string[];
  /** The original's size: the space marks and regions are in. */
  width: number;
  height: number;
  /**
   * The embedded copy's own size in pixels (the original's when whole): the report never draws a frame wider
   * than this, so a reduced copy is shown small rather than stretched and blurred.
   */
  pixelWidth: number;
  pixelHeight: number;
  full: boolean;
  /** Why it is kept whole: what the report's text cites it for, most important first; empty when reduced. */
  citedFor: FrameCitation[];
  /**
   * The image ids of this frame the text points a reader at (every citation but an anchor): each is open on load
   * where the page first shows it. By id, not by frame: the same pixels elsewhere (another flow's) stay a thumbnail.
   */
  openImageIds: string[];
  droppedForSize: boolean;
}

/**
 * Why a frame matters to a reader, in the order the size cap keeps them: divergences first, anchors last.
 * `first-or-last` is a flow's first and last frame: where it started and what it left. All but `anchor` (a
 * frame the model's compaction kept whole, which means nothing to a reader) are shown open on load.
 */
export const FRAME_CITATIONS = ['divergence', 'failure', 'evidence', 'first-or-last', 'anchor'] as const;
export type FrameCitation = (typeof FRAME_CITATIONS)[number];

/** The citations a reader is pointed at: the images cited for them are open when the report loads. */
export function citedForReader(why: Iterable<FrameCitation>): boolean {
  return [...why].some((citation) => citation !== 'anchor');
}

/**
 * A step's screenshot as the report shows it: the frame, with its zone and caption (what the model read of a
 * folded one, said in the step's details line; the reader always sees the pixels).
 */
export interface ReportShot {
  imageId: string;
  /** The ReportFrame's key; null when the pixels are gone (purged, missing): the placeholder says so. */
  frameKey: string | null;
  zone: TimelineImageZone;
  caption: string | null;
  width: number;
  height: number;
  /** Folded out of the model's context (it read the caption): the frame is still shown, this only in its details. */
  folded: boolean;
}

export interface ReportAgentStep {
  id: string;
  sequence: number;
  /** The action in words (the timeline's label). */
  label: string;
  tool: string;
  action: ComputerAction | null;
  thought: string | null;
  error: string | null;
  outcome: 'ok' | 'error' | 'refused' | 'unchanged';
  shot: ReportShot | null;
  view: ScreenshotView | null;
  /** How long the screen took to settle after the action, and whether it did before the cap. */
  settle: { waitedMs: number; settled: boolean } | null;
  latencyMs: number | null;
  costDollars: number | null;
  inputTokens: number | null;
  outputTokens: number | null;
  source: StepSource;
  divergence: Divergence | null;
}

export interface ReportAnswer {
  kind: AnswerKind;
  value: unknown;
  reason: string;
  evidence: string[];
}

export interface ReportTurn {
  id: string;
  sequence: number;
  request: string;
  status: 'running' | 'finished' | 'failed' | 'stopped';
  startedAt: string;
  endedAt: string | null;
  summary: string | null;
  stepKind: StepKind | null;
  answer: ReportAnswer | null;
  costDollars: number | null;
  /** Some of its model calls had no known price: the cost shows as unknown, never $0 or blank. */
  costUnknown: boolean;
  steps: ReportAgentStep[];
}

export interface ReportSession {
  id: string;
  title: string;
  status: string;
  model: string | null;
  operator: string | null;
  flowName: string | null;
  createdAt: string;
  updatedAt: string;
  costDollars: number | null;
  /** Some of its model calls had no known price. */
  costUnknown: boolean;
  inputTokens: number;
  outputTokens: number;
  /** What folding images saved, against every image kept whole (shared/image-savings.ts); null without token reports. */
  savings: ImageSavings | null;
  turns: ReportTurn[];
}

/** A flow step's outcome (flows/flow-result.ts StepResult), tied to the turn that ran it. */
export interface ReportFlowStep {
  path: string;
  label: string;
  kind: string;
  text: string | null;
  line: number | null;
  status: 'passed' | 'failed' | 'stopped' | 'skipped';
  reason: string | null;
  evidence: string[];
  hasValue: boolean;
  value: unknown;
  as: string | null;
  durationMs: number;
  costDollars: number | null;
  /** Some of its model calls had no known price. */
  costUnknown: boolean;
  turnId: string | null;
  /** Failed, and the flow went on because the run said --continue-on-error (the flow fails). */
  continued: boolean;
  /** Failed where failing is allowed (continue_on_error on the step or its task): the flow does not fail for it. */
  allowed: boolean;
}

export interface ReportFlow {
  name: string;
  file: string;
  status: 'passed' | 'failed' | 'stopped' | 'skipped';
  error: string | null;
  attempts: number;
  startedAt: string;
  durationMs: number;
  costDollars: number | null;
  /** Some of its model calls had no known price. */
  costUnknown: boolean;
  steps: ReportFlowStep[];
  /** The session the flow ran as; null when it never started one or the session is gone. */
  session: ReportSession | null;
}

export interface ReportNotice {
  kind: 'size-cap' | 'missing-session' | 'unavailable-frame';
  text: string;
}

export type ReportBody =
  | { kind: 'session'; session: ReportSession }
  | { kind: 'flow-run'; status: 'passed' | 'failed' | 'stopped' | 'skipped'; startedAt: string; durationMs: number; shard: string | null; flows: ReportFlow[] };

export interface ReportModel {
  title: string;
  generatedAt: string;
  sightlineVersion: string;
  body: ReportBody;
  frames: ReportFrame[];
  notices: ReportNotice[];
}

/** The app API's exportReport: which session, and the size cap in bytes. */
export const REPORT_MAX_BYTES_DEFAULT = 20 * 1024 * 1024;
export const REPORT_MAX_BYTES_LIMIT = 500 * 1024 * 1024;
