/** @jsxRuntime automatic */
import type { ReactElement } from 'react';
import type { TimelineImageZone } from '../../../shared/images.js';
import { zoneLabel } from '../timeline/step-presentation.js';

const ZONE_TITLES: Record<TimelineImageZone, string> = {
  active: 'Active: sent whole with every request of its turn',
  compact: 'Compact: kept from an earlier turn, text and anchor frames only',
  offloaded: 'Cold: folded out of the context; the pixels are in cold storage',
  purged: 'Purged: the retention sweep deleted the pixels; the record stays',
};

/** Where an image's pixels are, as a small coloured tag. */
export function ZoneBadge({ zone }: { zone: TimelineImageZone }): ReactElement {
  return (
    <span className={`zone-badge zone-${zone}`} title={ZONE_TITLES[zone]}>
      {zoneLabel(zone)}
    </span>
  );
}
