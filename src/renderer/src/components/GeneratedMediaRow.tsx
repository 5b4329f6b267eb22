import { useRef, type ReactElement } from 'react';
import type { GeneratedMedia } from '../../../shared/generated-media.js';
import { useAppApi } from '../hooks/app-api-context.js';
import { useGeneratedMedia } from '../hooks/use-generated-media.js';
import { useVisible } from '../hooks/use-visible.js';

/** An image the model generated, shown inline, or its audio with a player; loaded once the row is on screen. */
export function GeneratedMediaRow({ media }: { media: GeneratedMedia }): ReactElement {
  const client = useAppApi();
  const frame = useRef<HTMLElement | null>(null);
  const visible = useVisible(frame);
  const loaded = useGeneratedMedia(client, media.mediaId, visible);
  const noun = media.kind === 'image' ? 'image' : 'audio';
  const size = media.width !== undefined && media.height !== undefined ? ` · ${media.width}×${media.height}` : '';
  return (
    <figure ref={frame} className={`generated-media generated-${media.kind}`} data-media-id={media.mediaId}>
      <figcaption className="generated-media-caption">
        The model generated {media.kind === 'image' ? 'an image' : 'audio'} · {media.mime}
        {size}
      </figcaption>
      {loaded.status === 'ok' ? (
        media.kind === 'image' ? (
          <img className="generated-media-image" src={loaded.url} alt={`Generated image ${media.mediaId}`} />
        ) : (
          <audio className="generated-media-audio" src={loaded.url} controls preload="metadata" aria-label={`Generated audio ${media.mediaId}`} />
        )
      ) : loaded.status === 'unavailable' ? (
        <span className="media-message">
          Generated {noun} unavailable · {loaded.reason}
        </span>
      ) : loaded.status === 'failed' ? (
        <span className="media-message">Could not load the generated {noun}</span>
      ) : (
        <span className="media-shimmer" aria-label={`Loading generated ${noun}`} />
      )}
    </figure>
  );
}
