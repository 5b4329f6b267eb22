import { useState, type ReactElement } from 'react';
import type { ImageSummary, Step } from '../../../shared/app-api.js';
import { useAppApi } from '../hooks/app-api-context.js';
import { useImage } from '../hooks/use-image.js';
import { placeholderHint } from '../timeline/step-presentation.js';
import { PinBadge } from './PinBadge.js';
import { PlaceholderFace } from './PlaceholderFace.js';
import { ScreenshotFigure } from './ScreenshotFigure.js';
import { THUMBNAIL_WIDTH } from './StepThumbnail.js';
import { ZoneBadge } from './ZoneBadge.js';

/**
 * A screenshot folded out of the context: its id, caption and zone, as the model saw it, and where its
 * pixels are (cold storage, or whole in blobs but folded in the request). A click brings the pixels back
 * (once; the cache keeps them), and the loaded image opens in the viewer. A purged image says so at once:
 * there is nothing left to load.
 *
 * The card is named by what it shows (id, zone, caption, hint), not by a label of its own: a label that
 * differs from the visible text fails people who speak to the screen by what they see (WCAG 2.5.3).
 */
export function PlaceholderCard({ step, screenshot, onOpen }: { step: Step; screenshot: ImageSummary; onOpen: () => void }): ReactElement {
  const client = useAppApi();
  const [attempt, setAttempt] = useState(0);
  const image = useImage(client, { imageId: screenshot.imageId, thumbnailWidth: THUMBNAIL_WIDTH }, attempt > 0, attempt);
  const purged = screenshot.zone === 'purged';

  if (image.status === 'ok') {
    return (
      <button type="button" className="step-media-frame placeholder-loaded" onClick={onOpen} title={`Open ${screenshot.imageId}`}>
        <ScreenshotFigure url={image.url} width={screenshot.width} height={screenshot.height} action={step.action} view={step.screenshotView} label={`Screenshot ${screenshot.imageId}`} />
        <span className="media-zone">
          {screenshot.pinned === true ? <PinBadge /> : null}
          <ZoneBadge zone={screenshot.zone} />
        </span>
      </button>
    );
  }

  const unavailable = purged || image.status === 'unavailable';
  const state = unavailable ? 'unavailable' : image.status === 'loading' ? 'loading' : image.status === 'failed' ? 'failed' : 'idle';
  return (
    <button
      type="button"
      className={`placeholder-card placeholder-${state}`}
      // Busy rather than disabled while loading: a disabled button drops keyboard focus, and the loaded frame
      // that replaces the card (the same button) should keep it.
      onClick={() => {
        if (state !== 'loading') setAttempt((count) => count + 1);
      }}
      disabled={unavailable}
      aria-busy={state === 'loading' ? true : undefined}
      data-image-id={screenshot.imageId}
    >
      <PlaceholderFace
        imageId={screenshot.imageId}
        zone={screenshot.zone}
        caption={screenshot.caption}
        pinned={screenshot.pinned === true}
        hint={
          state === 'idle'
            ? placeholderHint(screenshot)
            : state === 'loading'
              ? 'Loading…'
              : state === 'failed'
                ? 'Could not load · retry'
                : `Unavailable · ${image.status === 'unavailable' ? image.reason : 'purged'}`
        }
      />
    </button>
  );
}
