/** @jsxRuntime automatic */
// The pragma: the shareable report renders this in the main process too (src/main/report/), under tsx.
import type { ReactElement } from 'react';
import type { TimelineImageZone } from '../../../shared/images.js';
import { PinBadge } from './PinBadge.js';
import { ZoneBadge } from './ZoneBadge.js';

export interface PlaceholderFaceProps {
  imageId: string;
  zone: TimelineImageZone;
  caption: string | null;
  pinned: boolean;
  /** What activating the card does or why it cannot: "Load from cold storage", "Unavailable · purged"… */
  hint: string;
}

/**
 * What a folded screenshot's placeholder card shows, as the model read it: its id, pin and zone, its caption
 * and a hint. The timeline's card (PlaceholderCard) and the report's both draw this face, so they read alike.
 *
 * The caption takes the room the hint leaves (at most two lines) and the hint keeps one line of its own,
 * shortened with an ellipsis when the card is narrow: the caption's last line never runs under it.
 */
export function PlaceholderFace({ imageId, zone, caption, pinned, hint }: PlaceholderFaceProps): ReactElement {
  return (
    <>
      <span className="placeholder-head">
        <code className="placeholder-id">{imageId}</code>
        {pinned ? <PinBadge /> : null}
        <ZoneBadge zone={zone} />
      </span>
      <span className="placeholder-caption">{caption ?? 'No caption'}</span>
      <span className="placeholder-hint" title={hint}>
        {hint}
      </span>
    </>
  );
}
