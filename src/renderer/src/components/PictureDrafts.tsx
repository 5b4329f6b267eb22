import { useRef, type ReactElement } from 'react';
import { MAX_PICTURE_BYTES, MAX_PICTURES_PER_TASK, PICTURE_FORMAT_NAMES } from '../../../shared/pictures.js';
import { PICTURE_ACCEPT, previewUrl, type PictureDraft } from '../pictures/picture-drafts.js';

export interface PictureDraftsProps {
  pictures: readonly PictureDraft[];
  onAdd: (files: File[]) => void;
  onRemove: (key: string) => void;
  /** Why the last files could not all be attached. */
  problems: readonly string[];
}

/** The New task form's pictures: a picker, the hint that paste and drop work too, and thumbnails with remove buttons. */
export function PictureDrafts({ pictures, onAdd, onRemove, problems }: PictureDraftsProps): ReactElement {
  const picker = useRef<HTMLInputElement | null>(null);
  return (
    <div className="picture-drafts">
      <div className="picture-drafts-head">
        <button type="button" className="button" onClick={() => picker.current?.click()} disabled={pictures.length >= MAX_PICTURES_PER_TASK}>
          Add pictures
        </button>
        <span className="toggle-hint">
          or paste or drop them here: {PICTURE_FORMAT_NAMES}, up to {MAX_PICTURES_PER_TASK}, {MAX_PICTURE_BYTES / 1024 / 1024} MB each
        </span>
        <input
          ref={picker}
          className="picture-picker"
          type="file"
          accept={PICTURE_ACCEPT}
          multiple
          hidden
          name="pictures"
          onChange={(event) => {
            onAdd([...(event.target.files ?? [])]);
            // The same file may be picked again after it was removed.
            event.target.value = '';
          }}
        />
      </div>
      {pictures.length > 0 ? (
        <ul className="picture-thumbnails" aria-label="Pictures to send with the task">
          {pictures.map((picture) => (
            <li key={picture.key} className="picture-thumbnail" title={picture.name}>
              <img src={previewUrl(picture)} alt={picture.name} />
              <button type="button" className="picture-remove" aria-label={`Remove ${picture.name}`} onClick={() => onRemove(picture.key)}>
                ×
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {problems.map((problem) => (
        <p key={problem} className="form-failure" role="alert">
          {problem}
        </p>
      ))}
    </div>
  );
}
