/** @jsxRuntime automatic */
import type { ReactElement } from 'react';

/** The mark of a pinned frame (issue 16): every later request of its session sends it whole. */
export function PinBadge(): ReactElement {
  return (
    <span className="pin-badge" title="Pinned: every later request of this session sends this frame whole">
      pinned
    </span>
  );
}
