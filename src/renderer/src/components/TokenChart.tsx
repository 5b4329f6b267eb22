import type { ReactElement } from 'react';
import { chartPaths, downsample, type TokenPoint } from '../timeline/token-series.js';
import { formatTokens } from '../timeline/format.js';

const WIDTH = 240;
const HEIGHT = 56;
const MAX_POINTS = 120;

/** Tokens per request across the session: what was sent (filled) against keep-everything (dashed). */
export function TokenChart({ points }: { points: readonly TokenPoint[] }): ReactElement | null {
  if (points.length === 0) return null;
  const drawn = downsample(points, MAX_POINTS);
  const paths = chartPaths(drawn, WIDTH, HEIGHT);
  const label = `Tokens per request over ${points.length} requests; the largest keep-everything request is ${formatTokens(paths.maximum)} tokens`;
  return (
    <figure className="token-chart" aria-label={label}>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} preserveAspectRatio="none" role="img" aria-label={label}>
        <polygon className="token-chart-area" points={paths.sentArea} />
        <polyline className="token-chart-keep" points={paths.keepEverything} vectorEffect="non-scaling-stroke" />
        <polyline className="token-chart-sent" points={paths.sent} vectorEffect="non-scaling-stroke" />
      </svg>
      <figcaption className="token-chart-legend">
        <span className="legend-sent">sent</span>
        <span className="legend-keep">keep-everything</span>
        <span className="legend-max">max {formatTokens(paths.maximum)}</span>
      </figcaption>
    </figure>
  );
}
