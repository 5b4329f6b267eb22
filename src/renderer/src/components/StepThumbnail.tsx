import { useRef, type ReactElement } from 'react';
import type { ImageSummary, Step } from '../../../shared/app-api.js';
import { useAppApi } from '../hooks/app-api-context.js';
import { useImage } from '../hooks/use-image.js';
import { useVisible } from '../hooks/use-visible.js';
import { PinBadge } from './PinBadge.js';
import { ScreenshotFigure } from './ScreenshotFigure.js';
import { ZoneBadge } from './ZoneBadge.js';

/** Thumbnails are fetched scaled down by the main process: a row never loads a full screenshot. */
export const THUMBNAIL_WIDTH = 400;

/**
 * A whole screenshot in a step row: loaded once the row is on screen, with the action drawn on it, and marked
 * when it is pinned or the next request sends it reduced.
 */
export function StepThumbnail({ step, screenshot, onOpen }: { step: Step; screenshot: ImageSummary; onOpen: () => void }): ReactElement {
  const client = useAppApi();
  const frame = useRef<HTMLButtonElement | null>(null);
  const visible = useVisible(frame);
  const image = useImage(client, { imageId: screenshot.imageId, thumbnailWidth: THUMBNAIL_WIDTH }, visible);
  return (
    <button ref={frame} type="button" className={`step-media-frame media-${image.status}`} onClick={onOpen} title={`Open ${screenshot.imageId}`}>
      {image.status === 'ok' ? (
        <ScreenshotFigure url={image.url} width={screenshot.width} height={screenshot.height} action={step.action} view={step.screenshotView} label={`Screenshot ${screenshot.imageId}`} />
      ) : image.status === 'unavailable' ? (
        <span className="media-message">Unavailable · {image.reason}</span>
      ) : image.status === 'failed' ? (
        <span className="media-message">Could not load</span>
      ) : (
        <span className="media-shimmer" aria-label="Loading screenshot" />
      )}
      {screenshot.zone !== 'active' || screenshot.pinned === true || screenshot.nextRequest === 'reduced' ? (
        <span className="media-zone">
          {screenshot.nextRequest === 'reduced' ? (
            <span className="request-tag" title="The next request sends this frame as a reduced view (a smaller copy)">
              reduced
            </span>
          ) : null}
          {screenshot.pinned === true ? <PinBadge /> : null}
          {screenshot.zone !== 'active' ? <ZoneBadge zone={screenshot.zone} /> : null}
        </span>
      ) : null}
    </button>
  );
}
