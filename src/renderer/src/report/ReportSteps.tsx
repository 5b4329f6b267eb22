/** @jsxRuntime automatic */
// The pragma: the report is rendered in the main process (src/main/report/), under tsx as well as Vite.
import type { ReactElement } from 'react';
import type { Divergence, ReportAgentStep, ReportAnswer, ReportShot, ReportTurn, StepSource } from '../../../shared/report-model.js';
import { shownCost } from '../../../shared/cost.js';
import { PlaceholderFace } from '../components/PlaceholderFace.js';
import { formatDuration, formatFullTime, formatTokens, plural } from '../timeline/format.js';
import { zoneLabel } from '../timeline/step-presentation.js';
import { ReportFrameImage, type ReportFrameImageProps } from './ReportFrameImage.js';
import { claimAnchor, frameAnchor, useFrameSources } from './frame-sources.js';
import { valueText } from './report-text.js';

const OUTCOME_TAGS = { error: 'Error', refused: 'Refused', unchanged: 'No change' } as const;
const SOURCE_LABELS: Record<StepSource, string> = { replayed: 'replayed', healed: 'healed', model: 'model' };
const SOURCE_TITLES: Record<StepSource, string> = {
  replayed: 'Replayed from the recording: no model call',
  healed: 'The recording no longer matched; the model found the way again',
  model: 'Chosen by the model',
};
const TURN_STATUS = { running: 'Running', finished: 'Finished', failed: 'Failed', stopped: 'Stopped' } as const;

/**
 * A step's frame, always drawn: a sharp thumbnail with the action's mark that a click (or Enter) enlarges to the
 * row's width, never past the embedded copy's own size. A frame the reader is pointed at (evidence, a failure, a
 * flow's first and last) is open on load where the page first shows it. What the model's memory made of a frame
 * (folded to its caption) is said only in a details line under it. <details> throughout: the keyboard and print
 * work without a line of script.
 */
export function ReportShotView({ step, shot }: { step: ReportAgentStep; shot: ReportShot }): ReactElement {
  const sources = useFrameSources();
  const id = claimAnchor(sources, shot.imageId);
  if (shot.frameKey === null) {
    return (
      <div id={id} className="placeholder-card placeholder-unavailable report-placeholder">
        <PlaceholderFace imageId={shot.imageId} zone={shot.zone} caption={shot.caption} pinned={false} hint={shot.zone === 'purged' ? 'Unavailable · purged' : 'Unavailable · not stored'} />
      </div>
    );
  }
  const frame = sources.frames.get(shot.frameKey);
  const open = id !== undefined && frame !== undefined && frame.openImageIds.includes(shot.imageId);
  return (
    <>
      <FrameDetails
        id={id}
        open={open}
        frameKey={shot.frameKey}
        imageId={shot.imageId}
        width={shot.width}
        height={shot.height}
        alt={`Frame ${shot.imageId} before step ${step.sequence}: ${step.label}`}
        action={step.action}
        view={step.view}
      />
      {shot.folded ? <ModelMemoryLine shot={shot} /> : null}
    </>
  );
}

/** A frame that opens: its image is the summary, so it shows closed (a thumbnail) and open (the row's width). */
function FrameDetails({ id, open, className = '', ...image }: ReportFrameImageProps & { id: string | undefined; open: boolean; className?: string }): ReactElement {
  const frame = useFrameSources().frames.get(image.frameKey);
  return (
    <details id={id} className={`report-shot ${className}`.trim()} open={open}>
      <summary className="report-shot-summary">
        <ReportFrameImage {...image} scale={open ? 'full' : 'thumbnail'} />
        <span className="visually-hidden">Enlarge the frame</span>
        {frame !== undefined && !frame.full ? <span className="frame-note">Shown smaller to keep the file small.</span> : null}
      </summary>
    </details>
  );
}

/** The model's memory of a folded frame, in its own words, one click away: the reader sees the pixels above. */
function ModelMemoryLine({ shot }: { shot: ReportShot }): ReactElement {
  return (
    <details className="frame-memory">
      <summary>What the model saw</summary>
      <p>
        Folded in the request to save tokens: the model read this caption ({zoneLabel(shot.zone)} zone), not the pixels. <code>{shot.imageId}</code>
      </p>
      <p className="report-wrap">{shot.caption ?? 'No caption'}</p>
    </details>
  );
}

/** A replay's divergence: the recorded frame beside the live one, with the tiles that changed marked on both. */
export function DivergenceView({ divergence }: { divergence: Divergence }): ReactElement {
  const sources = useFrameSources();
  const side = (imageId: string, label: string): ReactElement => {
    const key = sources.keyOfImage.get(imageId);
    const frame = key === undefined ? undefined : sources.frames.get(key);
    return (
      <figure className="divergence-side" id={claimAnchor(sources, imageId)}>
        <figcaption>
          {label} <code>{imageId}</code>
        </figcaption>
        {key !== undefined && frame !== undefined ? (
          <ReportFrameImage frameKey={key} imageId={imageId} width={frame.width} height={frame.height} alt={`${label} frame ${imageId}`} regions={divergence.regions} scale="full" />
        ) : (
          <p className="report-missing">This frame is no longer stored.</p>
        )}
      </figure>
    );
  };
  return (
    <figure className="divergence">
      <figcaption className="divergence-title">
        The screen differed from the recording {divergence.when} this step: {plural(divergence.regions.length, 'changed tile')}
      </figcaption>
      <div className="divergence-pair">
        {side(divergence.recordedImageId, 'Recorded')}
        {side(divergence.liveImageId, 'Live')}
      </div>
    </figure>
  );
}

/** One step of the agent: the timeline's step row, laid out for reading (nothing clipped), with settle and source. */
export function ReportStepRow({ step }: { step: ReportAgentStep }): ReactElement {
  const tokens = step.inputTokens !== null || step.outputTokens !== null ? `${formatTokens(step.inputTokens ?? 0)} in · ${formatTokens(step.outputTokens ?? 0)} out` : null;
  // A model call (it has tokens) without a price shows its cost as unknown, never $0 or nothing.
  const stepCost = shownCost(step.costDollars, step.costDollars === null && tokens !== null);
  return (
    <li className={`step-row report-step outcome-${step.outcome}`} data-step-id={step.id}>
      <span className="step-gutter">
        <span className="step-number">{step.sequence}</span>
      </span>
      <div className="step-body">
        <div className="step-head">
          <span className="step-action">{step.label}</span>
          {step.outcome !== 'ok' ? <span className={`outcome-tag outcome-tag-${step.outcome}`}>{OUTCOME_TAGS[step.outcome]}</span> : null}
          <span className={`source-tag source-${step.source}`} title={SOURCE_TITLES[step.source]}>
            {SOURCE_LABELS[step.source]}
          </span>
        </div>
        {step.thought !== null && step.thought.trim() !== '' ? <p className="step-thought">{step.thought}</p> : null}
        {step.error !== null ? <p className="step-error">{step.error}</p> : null}
        <p className="step-meta">
          {step.latencyMs !== null ? <span>{formatDuration(step.latencyMs)}</span> : null}
          {step.settle !== null ? (
            <span title="From the end of the action to the screenshot">
              {step.settle.settled ? `settled in ${formatDuration(step.settle.waitedMs)}` : `still changing after ${formatDuration(step.settle.waitedMs)}`}
            </span>
          ) : null}
          {tokens !== null ? <span>{tokens}</span> : null}
          {stepCost !== null ? <span className="step-cost">{stepCost}</span> : null}
        </p>
        {step.divergence !== null ? <DivergenceView divergence={step.divergence} /> : null}
      </div>
      <div className="step-media report-step-media">
        {step.shot === null ? <span className="report-no-shot">No screenshot</span> : <ReportShotView step={step} shot={step.shot} />}
      </div>
    </li>
  );
}

/** An answer (assert, extract, if, wait_for): the verdict or value, the model's reason, and the frames it cites. */
export function AnswerView({ answer, label }: { answer: ReportAnswer; label: string }): ReactElement {
  const verdict = answer.kind === 'value' ? null : answer.value === true ? 'true' : answer.value === false ? 'false' : null;
  return (
    <div className="report-answer">
      <p className="answer-line">
        <span className="answer-label">{label}</span>{' '}
        {verdict !== null ? <span className={`verdict verdict-${verdict}`}>{verdict}</span> : <code className="answer-value">{valueText(answer.value)}</code>}
      </p>
      <p className="answer-reason">{answer.reason}</p>
      <EvidenceLinks evidence={answer.evidence} />
    </div>
  );
}

/** The frames an answer relied on, as links to where the report shows them. */
export function EvidenceLinks({ evidence }: { evidence: readonly string[] }): ReactElement | null {
  const sources = useFrameSources();
  if (evidence.length === 0) return null;
  // A cited frame no step shows (the screen after the last action, say) is shown here, where it is cited.
  const unshown = evidence.filter((imageId) => !sources.shown.has(imageId) && sources.keyOfImage.has(imageId));
  return (
    <div className="answer-evidence">
      <p>
        Evidence:{' '}
        {evidence.map((imageId, index) => (
          <span key={imageId}>
            {index > 0 ? ', ' : null}
            {sources.keyOfImage.has(imageId) ? <a href={`#${frameAnchor(imageId)}`}>{imageId}</a> : <span title="No longer stored">{imageId}</span>}
          </span>
        ))}
      </p>
      {unshown.map((imageId) => {
        const key = sources.keyOfImage.get(imageId) ?? '';
        const frame = sources.frames.get(key);
        const id = claimAnchor(sources, imageId);
        return (
          <FrameDetails
            key={imageId}
            id={id}
            open={id !== undefined}
            className="evidence-frame"
            frameKey={key}
            imageId={imageId}
            width={frame?.width ?? 1}
            height={frame?.height ?? 1}
            alt={`Evidence frame ${imageId}`}
          />
        );
      })}
    </div>
  );
}

/** A turn: its request, status, time and cost, its answer if it asked a question, and its steps. */
export function ReportTurnSection({ turn }: { turn: ReportTurn }): ReactElement {
  const headingId = `turn-${turn.id}`;
  return (
    <section className={`report-turn turn-${turn.status}`} aria-labelledby={headingId} id={turn.id}>
      <div className="turn-card report-turn-card">
        <div className="turn-head">
          <h3 className="turn-label" id={headingId}>
            Turn {turn.sequence}
            {turn.stepKind !== null ? ` · ${turn.stepKind}` : ''}
          </h3>
          <span className={`status-pill status-${turn.status}`}>{TURN_STATUS[turn.status]}</span>
          <TurnFacts turn={turn} />
          {shownCost(turn.costDollars, turn.costUnknown) !== null ? <span className="turn-cost">{shownCost(turn.costDollars, turn.costUnknown)}</span> : null}
        </div>
        <p className="turn-request report-wrap">{turn.request}</p>
        {turn.summary !== null ? <p className="turn-summary report-wrap">{turn.summary}</p> : null}
        {turn.answer !== null ? <AnswerView answer={turn.answer} label={turn.answer.kind === 'value' ? 'Value' : 'Verdict'} /> : null}
      </div>
      <TurnSteps turn={turn} label={`Steps of turn ${turn.sequence}`} />
    </section>
  );
}

/**
 * The turn that ran a flow step, under it: the step's heading, status, answer and cost already say what the
 * turn came to, so this shows only when it ran and the agent's steps. One status per step, the flow step's.
 */
export function FlowStepTurn({ turn, stepPath }: { turn: ReportTurn; stepPath: string }): ReactElement {
  return (
    <div className={`report-turn report-turn-under-step turn-${turn.status}`} id={turn.id}>
      <p className="turn-meta report-turn-facts">
        <TurnFacts turn={turn} />
      </p>
      {turn.summary !== null ? <p className="turn-summary report-wrap">{turn.summary}</p> : null}
      <TurnSteps turn={turn} label={`The agent's steps for step ${stepPath}`} />
    </div>
  );
}

function TurnFacts({ turn }: { turn: ReportTurn }): ReactElement {
  const duration = turn.endedAt === null ? null : new Date(turn.endedAt).getTime() - new Date(turn.startedAt).getTime();
  return (
    <span className="turn-meta">
      {formatFullTime(turn.startedAt)}
      {duration !== null && duration >= 0 ? ` · ${formatDuration(duration)}` : ''} · {plural(turn.steps.length, 'step')}
    </span>
  );
}

function TurnSteps({ turn, label }: { turn: ReportTurn; label: string }): ReactElement | null {
  if (turn.steps.length === 0) return null;
  return (
    <ol className="report-steps" aria-label={label}>
      {turn.steps.map((step) => (
        <ReportStepRow key={step.id} step={step} />
      ))}
    </ol>
  );
}
