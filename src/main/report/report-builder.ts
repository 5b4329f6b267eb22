/**
 * Builds a report: a session (`sightline report SESSION --html`, the timeline's Export report) or a flow run
 * (`sightline flow … --report`, failures first). It reads what the report shows, decides which frames its text
 * cites, embeds the frames within the size cap (report-frames.ts) and renders the file (report-html.ts).
 */
import type { Redact } from '../../shared/secret-redaction.js';
import { redactStrings } from '../../shared/secret-redaction.js';
import type { ReportBody, ReportFlow, ReportFlowStep, ReportModel, ReportSession } from '../../shared/report-model.js';
import { REPORT_MAX_BYTES_DEFAULT } from '../../shared/report-model.js';
import type { Storage } from '../storage/index.js';
import { cite, embedFrames, emptyDemand, megabytes, ReportTooLargeError, type FrameDemand } from './report-frames.js';
import { renderReportHtml } from './report-html.js';
import { readReportSession, ReportSessionNotFoundError } from './report-session.js';

export interface ReportOptions {
  storage: Storage;
  /** Masks configured secrets in every text, on top of what storage masked when it stored them. */
  redact: Redact;
  /** The file's cap in bytes (default 20 MB). */
  maxBytes?: number;
  sightlineVersion: string;
  now?: () => Date;
}

export interface BuiltReport {
  html: string;
  model: ReportModel;
  bytes: number;
}

/**
 * What a flow run came to, as the report reads it: flows/flow-result.ts's FlowRunResult, named here by its shape
 * because the report sits below flows in the layers (the app API exports reports too).
 */
export interface FlowRunForReport {
  startedAt: string;
  durationMs: number;
  shard: string | undefined;
  flows: {
    name: string;
    file: string;
    status: ReportFlow['status'];
    sessionId: string | undefined;
    attempts: number;
    startedAt: string;
    durationMs: number;
    costDollars: number | undefined;
    costUnknown?: true;
    error: string | undefined;
    steps: {
      path: string;
      label: string;
      kind: string;
      text: string | undefined;
      at: { line: number };
      status: ReportFlowStep['status'];
      reason: string | undefined;
      evidence: string[];
      value?: unknown;
      as?: string;
      durationMs: number;
      costDollars: number | undefined;
      costUnknown?: true;
      turnId: string | undefined;
      continued?: boolean;
      allowed?: boolean;
    }[];
  }[];
}

export async function buildSessionReport(sessionId: string, options: ReportOptions): Promise<BuiltReport> {
  const session = readReportSession(options.storage, sessionId, options.redact);
  return build({ kind: 'session', session }, session.title, options);
}

const ORDER: Record<ReportFlow['status'], number> = { failed: 0, stopped: 1, passed: 2, skipped: 3 };

export async function buildFlowRunReport(run: FlowRunForReport, status: ReportFlow['status'], options: ReportOptions): Promise<BuiltReport> {
  const flows = run.flows.map((flow): ReportFlow => ({
    name: flow.name,
    file: flow.file,
    status: flow.status,
    error: flow.error ?? null,
    attempts: flow.attempts,
    startedAt: flow.startedAt,
    durationMs: flow.durationMs,
    costDollars: flow.costDollars ?? null,
    costUnknown: flow.costUnknown === true,
    steps: flow.steps.map((step) => ({
      path: step.path,
      label: step.label,
      kind: step.kind,
      text: step.text ?? null,
      line: step.at.line,
      status: step.status,
      reason: step.reason ?? null,
      evidence: [...step.evidence],
      hasValue: 'value' in step && step.value !== undefined,
      value: step.value ?? null,
      as: step.as ?? null,
      durationMs: step.durationMs,
      costDollars: step.costDollars ?? null,
      costUnknown: step.costUnknown === true,
      turnId: step.turnId ?? null,
      continued: step.continued === true,
      allowed: step.allowed === true,
    })),
    session: flow.sessionId === undefined ? null : sessionOrNull(flow.sessionId, options),
  }));
  // Failures first; the run's own order within each status.
  const ordered = flows.map((flow, index) => ({ flow, index })).sort((first, second) => ORDER[first.flow.status] - ORDER[second.flow.status] || first.index - second.index);
  const body: ReportBody = {
    kind: 'flow-run',
    status,
    startedAt: run.startedAt,
    durationMs: run.durationMs,
    shard: run.shard ?? null,
    flows: redactStrings(
      ordered.map(({ flow }) => flow),
      options.redact,
    ),
  };
  const failed = flows.filter((flow) => flow.status === 'failed').length;
  const title = flows.length === 1 && flows[0] !== undefined ? `Flow ${flows[0].name}: ${flows[0].status}` : `Flow run: ${failed} of ${flows.length} failed`;
  return build(body, title, options);
}

function sessionOrNull(sessionId: string, options: ReportOptions): ReportSession | null {
  try {
    return readReportSession(options.storage, sessionId, options.redact);
  } catch (error) {
    if (error instanceof ReportSessionNotFoundError) return null;
    throw error;
  }
}

async function build(body: ReportBody, title: string, options: ReportOptions): Promise<BuiltReport> {
  const maxBytes = options.maxBytes ?? REPORT_MAX_BYTES_DEFAULT;
  const model: ReportModel = {
    title: options.redact(title),
    generatedAt: (options.now?.() ?? new Date()).toISOString(),
    sightlineVersion: options.sightlineVersion,
    body,
    frames: [],
    notices: [],
  };
  const demand = frameDemand(body);
  // The page without its frames' bytes, and room for each <img> the frames add to it.
  const page = Buffer.byteLength(renderReportHtml(model, new Map()), 'utf8') + 400 * demand.shots.length + 8192;
  if (page > maxBytes) throw new ReportTooLargeError(page, maxBytes);
  const embedded = await embedFrames(options.storage, demand, maxBytes - page, maxBytes, page);
  model.frames = embedded.frames;
  model.notices = [...missingSessionNotices(body), ...embedded.notices];
  const html = renderReportHtml(model, embedded.urls);
  const bytes = Buffer.byteLength(html, 'utf8');
  if (bytes > maxBytes) throw new Error(`the report came to ${megabytes(bytes)}, over its ${megabytes(maxBytes)} cap: please report this`);
  return { html, model, bytes };
}

/** Every shot the report shows, and what its text cites: divergences, failures, evidence, a flow's ends, anchors. */
export function frameDemand(body: ReportBody): FrameDemand {
  const demand = emptyDemand();
  const sessions = body.kind === 'session' ? [body.session] : body.flows.flatMap((flow) => (flow.session === null ? [] : [flow.session]));
  const failedTurns = new Set<string>();
  if (body.kind === 'flow-run') {
    for (const flow of body.flows) {
      for (const step of flow.steps) {
        const failed = step.status === 'failed';
        for (const imageId of step.evidence) cite(demand, imageId, failed ? 'failure' : 'evidence');
        if (failed && step.turnId !== null) failedTurns.add(step.turnId);
      }
    }
  }
  for (const session of sessions) {
    // A flow's first and last frames: where it started and what it left, shown open to the reader.
    if (body.kind === 'flow-run') {
      const shots = session.turns.flatMap((turn) => turn.steps.flatMap((step) => (step.shot === null ? [] : [step.shot])));
      for (const shot of [shots[0], shots.at(-1)]) if (shot !== undefined) cite(demand, shot.imageId, 'first-or-last');
    }
    for (const turn of session.turns) {
      const failed = turn.status === 'failed' || failedTurns.has(turn.id);
      for (const imageId of turn.answer?.evidence ?? []) cite(demand, imageId, failed ? 'failure' : 'evidence');
      turn.steps.forEach((step, index) => {
        if (step.divergence !== null) {
          cite(demand, step.divergence.recordedImageId, 'divergence');
          cite(demand, step.divergence.liveImageId, 'divergence');
        }
        if (step.shot === null) return;
        demand.shots.push(step.shot);
        // What a failure was looking at: an error step's frame, and the last frame of a failed turn.
        if (step.outcome === 'error' || step.outcome === 'refused' || (failed && index === turn.steps.length - 1)) cite(demand, step.shot.imageId, 'failure');
        if (!step.shot.folded && step.shot.zone === 'compact') cite(demand, step.shot.imageId, 'anchor');
      });
    }
  }
  return demand;
}

function missingSessionNotices(body: ReportBody): ReportModel['notices'] {
  if (body.kind !== 'flow-run') return [];
  return body.flows
    .filter((flow) => flow.session === null && flow.status !== 'skipped')
    .map((flow) => ({ kind: 'missing-session' as const, text: `The session of flow ${flow.name} is not in this Sightline home: its steps are shown without their frames.` }));
}
