import type { ReactElement } from 'react';
import type { ImageZone } from '../../../shared/app-api.js';
import { zoneLabel } from '../timeline/step-presentation.js';

const ZONE_TITLES: Record<ImageZone, string> = {
  active: 'Active: sent whole with every request of its turn',
  compact: 'Compact: kept from an earlier turn, text and anchor frames only',
  offloaded: 'Cold: folded out of the context; the pixels are in cold storage',
  purged: 'Purged: the retention sweep deleted the pixels; the record stays',
};

/** Where an image's pixels are, as a small coloured tag. */
export function ZoneBadge({ zone }: { zone: ImageZone }): ReactElement {
  return (
    <span className={`zone-badge zone-${zone}`} title={ZONE_TITLES[zone]}>
      {zoneLabel(zone)}
    </span>
  );
}
