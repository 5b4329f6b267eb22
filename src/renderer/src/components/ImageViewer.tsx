import { useEffect, useLayoutEffect, useRef, useState, type ReactElement } from 'react';
import type { ImageSummary, Step } from '../../../shared/app-api.js';
import { useAppApi } from '../hooks/app-api-context.js';
import { useFocusTrap } from '../hooks/use-focus-trap.js';
import { useImage } from '../hooks/use-image.js';
import type { CropBox } from '../timeline/crop-boxes.js';
import { formatDuration } from '../timeline/format.js';
import { stepActionLabel, stepOutcome } from '../timeline/step-presentation.js';
import { PinToggle } from './PinToggle.js';
import { ScreenshotFigure } from './ScreenshotFigure.js';
import { TokenMeter } from './TokenMeter.js';
import { ZoneBadge } from './ZoneBadge.js';

/** Why a frame was opened from an answer: the turn whose answer named it, and that answer's reason. */
export interface EvidenceContext {
  turnSequence: number;
  heading: string;
  reason: string;
}

export interface ImageViewerProps {
  /** The step that was looking at the screenshot; null for a frame opened by id that no loaded step shows. */
  step: Step | null;
  screenshot: ImageSummary;
  /** When the frame was opened as an answer's evidence. */
  evidence?: EvidenceContext | undefined;
  cropBoxes: readonly CropBox[];
  onClose: () => void;
  /** After a person pinned or unpinned the screenshot here: the session is read again. */
  onPinChanged?: () => void;
}

const NOTHING_TO_DO = () => {};

const ZOOM_STEPS = [0.25, 0.5, 0.75, 1, 1.5, 2, 3, 4];

/**
 * A screenshot at full size with the step's action and any crop boxes drawn on it, zoomable (fit, or
 * 25 % to 400 %; keys + − 0 1), beside the step's full thought, action and cost, and, for a frame opened as
 * an answer's evidence, the answer that named it. A folded frame's pixels are read back from cold storage.
 */
export function ImageViewer({ step, screenshot, evidence, cropBoxes, onClose, onPinChanged = NOTHING_TO_DO }: ImageViewerProps): ReactElement {
  const client = useAppApi();
  const image = useImage(client, { imageId: screenshot.imageId }, true);
  const [zoom, setZoom] = useState<number | 'fit'>('fit');
  const stage = useRef<HTMLDivElement | null>(null);
  const dialog = useRef<HTMLDivElement | null>(null);
  const closeButton = useRef<HTMLButtonElement | null>(null);
  useFocusTrap(dialog, closeButton);

  // The zoomed width goes in through the CSSOM (a custom property), which the CSP allows, unlike style attributes.
  useLayoutEffect(() => {
    stage.current?.style.setProperty('--viewer-width', zoom === 'fit' ? '100%' : `${Math.round(screenshot.width * zoom)}px`);
  }, [zoom, screenshot.width]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
      else if (event.key === '+' || event.key === '=') setZoom((current) => stepZoom(current, 1));
      else if (event.key === '-') setZoom((current) => stepZoom(current, -1));
      else if (event.key === '0') setZoom('fit');
      else if (event.key === '1') setZoom(1);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);

  const outcome = step === null ? 'ok' : stepOutcome(step);
  return (
    <div className="viewer-backdrop" onClick={onClose}>
      <div
        ref={dialog}
        className="viewer"
        role="dialog"
        aria-modal="true"
        aria-label={`Screenshot ${screenshot.imageId}`}
        tabIndex={-1}
        onClick={(event) => event.stopPropagation()}
      >
        <header className="viewer-toolbar">
          <code className="viewer-id">{screenshot.imageId}</code>
          <ZoneBadge zone={screenshot.zone} />
          <span className="viewer-size">
            {screenshot.width}×{screenshot.height}
          </span>
          <PinToggle screenshot={screenshot} onChanged={onPinChanged} />
          <span className="viewer-spacer" />
          <div className="segmented" role="group" aria-label="Zoom">
            <button type="button" onClick={() => setZoom((current) => stepZoom(current, -1))} aria-label="Zoom out">
              −
            </button>
            <button type="button" className={zoom === 'fit' ? 'selected' : ''} onClick={() => setZoom('fit')}>
              Fit
            </button>
            <button type="button" className={zoom === 1 ? 'selected' : ''} onClick={() => setZoom(1)}>
              100%
            </button>
            <button type="button" onClick={() => setZoom((current) => stepZoom(current, 1))} aria-label="Zoom in">
              +
            </button>
          </div>
          <span className="viewer-zoom">{zoom === 'fit' ? 'fit' : `${Math.round(zoom * 100)}%`}</span>
          <button ref={closeButton} type="button" className="icon-button" onClick={onClose} aria-label="Close viewer">
            ✕
          </button>
        </header>
        <div className="viewer-body">
          <div ref={stage} className={`viewer-stage ${zoom === 'fit' ? 'viewer-fit' : 'viewer-zoomed'}`}>
            {image.status === 'ok' ? (
              <ScreenshotFigure
                url={image.url}
                width={screenshot.width}
                height={screenshot.height}
                action={step?.action ?? null}
                view={step?.screenshotView ?? null}
                cropBoxes={cropBoxes}
                scale="full"
                label={`Screenshot ${screenshot.imageId} at full size`}
                className="viewer-image"
              />
            ) : image.status === 'unavailable' ? (
              <p className="viewer-message">Unavailable: {image.message}</p>
            ) : image.status === 'failed' ? (
              <p className="viewer-message">Could not load the image: {image.message}</p>
            ) : (
              <p className="viewer-message">Loading the full-size image…</p>
            )}
          </div>
          <aside className="viewer-details" aria-label={step === null ? 'Frame details' : 'Step details'}>
            {evidence !== undefined ? (
              <>
                <p className="details-kicker">Evidence of turn {evidence.turnSequence}</p>
                <h3 className="details-action">{evidence.heading}</h3>
                <p className="details-text">{evidence.reason}</p>
              </>
            ) : null}
            {step !== null ? (
              <>
                <p className="details-kicker">Step {step.sequence}</p>
                <h3 className="details-action">{stepActionLabel(step)}</h3>
                {outcome !== 'ok' ? <span className={`outcome-tag outcome-tag-${outcome}`}>{outcome === 'unchanged' ? 'No change' : outcome}</span> : null}
                <h4>Thought</h4>
                <p className="details-text">{step.thought ?? 'No thought recorded.'}</p>
                {step.error !== null ? (
                  <>
                    <h4>Error</h4>
                    <p className="details-text details-error">{step.error}</p>
                  </>
                ) : null}
              </>
            ) : null}
            {screenshot.caption !== null ? (
              <>
                <h4>Caption</h4>
                <p className="details-text">{screenshot.caption}</p>
              </>
            ) : null}
            {step !== null && step.tokenReport !== null ? (
              <>
                <h4>Request</h4>
                <TokenMeter sent={step.tokenReport.sentTokens} keepEverything={step.tokenReport.keepEverythingTokens} />
                <p className="details-muted">
                  {step.tokenReport.imagesSent} images sent · {step.tokenReport.imagesFolded} folded
                </p>
              </>
            ) : null}
            {cropBoxes.length > 0 ? <p className="details-muted">{cropBoxes.length} crop box{cropBoxes.length === 1 ? '' : 'es'} drawn</p> : null}
            {step !== null && step.latencyMs !== null ? <p className="details-muted">Took {formatDuration(step.latencyMs)}</p> : null}
          </aside>
        </div>
      </div>
    </div>
  );
}

/** The next zoom step up (+1) or down (−1) from the current zoom; from fit, 100 % is the reference. */
export function stepZoom(current: number | 'fit', direction: 1 | -1): number {
  const reference = current === 'fit' ? 1 : current;
  const candidates = direction > 0 ? ZOOM_STEPS.filter((zoom) => zoom > reference) : ZOOM_STEPS.filter((zoom) => zoom < reference).reverse();
  return candidates[0] ?? reference;
}
