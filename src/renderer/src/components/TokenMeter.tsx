import type { ReactElement } from 'react';
import { formatPercent, formatTokens, savedShare } from '../timeline/format.js';

export interface TokenMeterProps {
  sent: number | null;
  keepEverything: number | null;
  /** `compact` for a step row; the full meter states both numbers in words. */
  size?: 'compact' | 'full';
}

/**
 * What a request cost against keeping every image whole: a bar of the keep-everything cost with the part
 * actually sent filled in, and the share saved. Drawn in SVG, so its width is an attribute, not a style.
 */
export function TokenMeter({ sent, keepEverything, size = 'full' }: TokenMeterProps): ReactElement | null {
  if (sent === null || keepEverything === null) return null;
  const share = savedShare(sent, keepEverything);
  const filled = keepEverything <= 0 ? 100 : Math.max(1, Math.min(100, (sent / keepEverything) * 100));
  const label = `${formatTokens(sent)} sent of ${formatTokens(keepEverything)} if every image were kept`;
  return (
    <span className={`token-meter token-meter-${size}`} title={label} aria-label={label} role="img">
      <svg className="token-meter-bar" viewBox="0 0 100 6" preserveAspectRatio="none" aria-hidden="true">
        <rect className="token-meter-track" x="0" y="0" width="100" height="6" rx="3" />
        <rect className="token-meter-fill" x="0" y="0" width={filled} height="6" rx="3" />
      </svg>
      {size === 'full' ? (
        <span className="token-meter-text">
          <strong>{formatTokens(sent)}</strong> sent · {formatTokens(keepEverything)} keep-everything
          {share !== null ? <span className="token-meter-saved"> · {formatPercent(share)} saved</span> : null}
        </span>
      ) : (
        <span className="token-meter-text">
          {formatTokens(sent)} / {formatTokens(keepEverything)} tokens
        </span>
      )}
    </span>
  );
}
