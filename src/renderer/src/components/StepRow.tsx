import type { ReactElement } from 'react';
import type { Step } from '../../../shared/app-api.js';
import { stepUsageTotals } from '../../../shared/usage-text.js';
import { describeUsage, formatDuration, formatStepCost, formatUsage } from '../timeline/format.js';
import { isFolded, stepActionLabel, stepOutcome, type StepOutcome } from '../timeline/step-presentation.js';
import { PinToggle } from './PinToggle.js';
import { PlaceholderCard } from './PlaceholderCard.js';
import { StepThumbnail } from './StepThumbnail.js';
import { TokenMeter } from './TokenMeter.js';

const OUTCOME_TAGS: Record<Exclude<StepOutcome, 'ok'>, string> = {
  error: 'Error',
  refused: 'Refused',
  unchanged: 'No change',
};

export interface StepRowProps {
  /** Undefined while its page of steps is still loading: a skeleton of the same height. */
  step: Step | undefined;
  onOpenImage: (step: Step) => void;
  /** After a person pinned or unpinned the step's screenshot: the session is read again. */
  onPinChanged?: () => void;
}

const NOTHING_TO_DO = () => {};

/**
 * One step: the model's thought, its action, what it cost, and the screenshot it was looking at, with the
 * control that pins it.
 */
export function StepRow({ step, onOpenImage, onPinChanged = NOTHING_TO_DO }: StepRowProps): ReactElement {
  if (step === undefined) {
    return (
      <div className="step-row step-skeleton" aria-hidden="true">
        <span className="step-gutter" />
        <span className="step-body">
          <span className="skeleton-line skeleton-wide" />
          <span className="skeleton-line" />
        </span>
        <span className="step-media">
          <span className="step-media-frame media-loading">
            <span className="media-shimmer" />
          </span>
        </span>
      </div>
    );
  }
  const outcome = stepOutcome(step);
  const usage = stepUsageTotals(step);
  const open = () => onOpenImage(step);
  return (
    <div className={`step-row outcome-${outcome}`} data-step-id={step.id} data-outcome={outcome}>
      <span className="step-gutter">
        <span className="step-number">{step.sequence}</span>
      </span>
      <div className="step-body">
        <div className="step-head">
          <span className="step-action" title={stepActionLabel(step)}>
            {stepActionLabel(step)}
          </span>
          {outcome !== 'ok' ? <span className={`outcome-tag outcome-tag-${outcome}`}>{OUTCOME_TAGS[outcome]}</span> : null}
        </div>
        {step.thought !== null && step.thought.trim() !== '' ? (
          <p className="step-thought" title={step.thought}>
            {step.thought}
          </p>
        ) : (
          <p className="step-thought step-thought-empty">No thought recorded</p>
        )}
        {step.error !== null ? (
          <p className="step-error" title={step.error}>
            {step.error}
          </p>
        ) : step.dedupOf !== null ? (
          <p className="step-unchanged">
            Unchanged: same as <code>{step.dedupOf}</code>
          </p>
        ) : null}
        <div className="step-meta">
          {step.latencyMs !== null ? <span>{formatDuration(step.latencyMs)}</span> : null}
          {step.tokenReport !== null ? <TokenMeter sent={step.tokenReport.sentTokens} keepEverything={step.tokenReport.keepEverythingTokens} size="compact" /> : null}
          {step.tokenReport !== null && step.tokenReport.imagesFolded > 0 ? <span>{step.tokenReport.imagesFolded} folded</span> : null}
          {usage !== null ? (
            <span className="step-usage" title={describeUsage(usage)}>
              {formatUsage(usage)}
            </span>
          ) : null}
          {step.costDollars !== null ? (
            <span className="step-cost" title="What the step's model call cost, as priced when it was made">
              {formatStepCost(step.costDollars)}
            </span>
          ) : usage !== null ? (
            <span className="step-cost" title="The model has no known price (sightline models lists the prices Sightline knows)">
              cost unknown
            </span>
          ) : null}
          {step.screenshot !== null ? <PinToggle screenshot={step.screenshot} onChanged={onPinChanged} /> : null}
        </div>
      </div>
      <div className="step-media">
        {step.screenshot === null ? (
          <span className="step-media-frame media-none">
            <span className="media-message">No screenshot</span>
          </span>
        ) : isFolded(step.screenshot) ? (
          <PlaceholderCard step={step} screenshot={step.screenshot} onOpen={open} />
        ) : (
          <StepThumbnail step={step} screenshot={step.screenshot} onOpen={open} />
        )}
      </div>
    </div>
  );
}
