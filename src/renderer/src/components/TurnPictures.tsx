import type { ReactElement } from 'react';
import type { ImageSummary } from '../../../shared/app-api.js';
import { useAppApi } from '../hooks/app-api-context.js';
import { useImage } from '../hooks/use-image.js';

/** Small enough to sit on the request's line: the turn row keeps its fixed height (timeline-rows.ts). */
const PICTURE_THUMBNAIL_WIDTH = 96;

/** The pictures a person attached to a turn's request, as thumbnails beside it. */
export function TurnPictures({ pictures }: { pictures: readonly ImageSummary[] }): ReactElement | null {
  if (pictures.length === 0) return null;
  return (
    <ul className="turn-pictures" aria-label="Pictures attached to the request">
      {pictures.map((picture) => (
        <li key={picture.imageId}>
          <TurnPicture picture={picture} />
        </li>
      ))}
    </ul>
  );
}

function TurnPicture({ picture }: { picture: ImageSummary }): ReactElement {
  const client = useAppApi();
  // The turn row is only rendered while it is on screen (the windowed list), so it may load at once.
  const image = useImage(client, { imageId: picture.imageId, thumbnailWidth: PICTURE_THUMBNAIL_WIDTH }, true);
  const label = `Picture ${picture.imageId} (${picture.width}×${picture.height})`;
  return (
    <span className={`turn-picture media-${image.status}`} title={image.status === 'unavailable' ? `${label}: ${image.message}` : label}>
      {image.status === 'ok' ? <img src={image.url} alt={label} /> : <span className="media-message">{image.status === 'unavailable' ? image.reason : ''}</span>}
    </span>
  );
}
