/** @jsxRuntime automatic */
// The pragma: the report is rendered in the main process (src/main/report/), under tsx as well as Vite.
import type { ReactElement } from 'react';
import type { Divergence, ReportAgentStep, ReportAnswer, ReportShot, ReportTurn, StepSource } from '../../../shared/report-model.js';
import { shownCost } from '../../../shared/cost.js';
import { PlaceholderFace } from '../components/PlaceholderFace.js';
import { formatDuration, formatFullTime, formatTokens, plural } from '../timeline/format.js';
import { ReportFrameImage } from './ReportFrameImage.js';
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
 * A step's screenshot: whole as a thumbnail that opens to full width, or, folded out of the model's context,
 * as the timeline's placeholder card that opens its frame. Both are <details>: the keyboard and print work
 * without a line of script.
 */
export function ReportShotView({ step, shot }: { step: ReportAgentStep; shot: ReportShot }): ReactElement {
  const id = claimAnchor(useFrameSources(), shot.imageId);
  if (shot.frameKey === null) {
    return (
      <div id={id} className="placeholder-card placeholder-unavailable report-placeholder">
        <PlaceholderFace imageId={shot.imageId} zone={shot.zone} caption={shot.caption} pinned={false} hint={shot.zone === 'purged' ? 'Unavailable · purged' : 'Unavailable · not stored'} />
      </div>
    );
  }
  const image = (
    <ReportFrameImage
      frameKey={shot.frameKey}
      imageId={shot.imageId}
      width={shot.width}
      height={shot.height}
      alt={`Screenshot ${shot.imageId} before step ${step.sequence}: ${step.label}`}
      action={step.action}
      view={step.view}
    />
  );
  if (shot.folded) {
    return (
      <details id={id} className="report-folded">
        <summary className="placeholder-card">
          <PlaceholderFace imageId={shot.imageId} zone={shot.zone} caption={shot.caption} pinned={false} hint="Folded in the request · show frame" />
        </summary>
        {image}
      </details>
    );
  }
  return (
    <details id={id} className="report-shot">
      <summary className="report-shot-summary">
        {image}
        <span className="visually-hidden">Enlarge</span>
      </summary>
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
      {unshown.length > 0 ? (
        <div className="evidence-frames">
          {unshown.map((imageId) => {
            const key = sources.keyOfImage.get(imageId) ?? '';
            const frame = sources.frames.get(key);
            return (
              <figure key={imageId} className="evidence-frame" id={claimAnchor(sources, imageId)}>
                <ReportFrameImage frameKey={key} imageId={imageId} width={frame?.width ?? 1} height={frame?.height ?? 1} alt={`Evidence frame ${imageId}`} />
                <figcaption>
                  <code>{imageId}</code>
                </figcaption>
              </figure>
            );
          })}
        </div>
      ) : null}
    </div>
  );
}

/** A turn: its request (not under a flow step, which says it), status, time and cost, its answer if it asked a question, and its steps. */
export function ReportTurnSection({ turn, headingLevel = 3, showRequest = true }: { turn: ReportTurn; headingLevel?: 3 | 4; showRequest?: boolean }): ReactElement {
  const Heading = headingLevel === 3 ? 'h3' : 'h4';
  const duration = turn.endedAt === null ? null : new Date(turn.endedAt).getTime() - new Date(turn.startedAt).getTime();
  const headingId = `turn-${turn.id}`;
  return (
    <section className={`report-turn turn-${turn.status}`} aria-labelledby={headingId} id={turn.id}>
      <div className="turn-card report-turn-card">
        <div className="turn-head">
          <Heading className="turn-label" id={headingId}>
            Turn {turn.sequence}
            {turn.stepKind !== null ? ` · ${turn.stepKind}` : ''}
          </Heading>
          <span className={`status-pill status-${turn.status}`}>{TURN_STATUS[turn.status]}</span>
          <span className="turn-meta">
            {formatFullTime(turn.startedAt)}
            {duration !== null && duration >= 0 ? ` · ${formatDuration(duration)}` : ''} · {plural(turn.steps.length, 'step')}
          </span>
          {shownCost(turn.costDollars, turn.costUnknown) !== null ? <span className="turn-cost">{shownCost(turn.costDollars, turn.costUnknown)}</span> : null}
        </div>
        {showRequest ? <p className="turn-request report-wrap">{turn.request}</p> : null}
        {turn.summary !== null ? <p className="turn-summary report-wrap">{turn.summary}</p> : null}
        {turn.answer !== null ? <AnswerView answer={turn.answer} label={turn.answer.kind === 'value' ? 'Value' : 'Verdict'} /> : null}
      </div>
      {turn.steps.length > 0 ? (
        <ol className="report-steps" aria-label={`Steps of turn ${turn.sequence}`}>
          {turn.steps.map((step) => (
            <ReportStepRow key={step.id} step={step} />
          ))}
        </ol>
      ) : null}
    </section>
  );
}
