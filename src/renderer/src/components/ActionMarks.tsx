/** @jsxRuntime automatic */
// The pragma: the shareable report renders this in the main process too (src/main/report/), under tsx.
import type { ReactElement } from 'react';
import { actionPointsOnScreenshot, type ComputerAction } from '../../../shared/actions.js';
import type { ScreenshotView } from '../../../shared/model-view.js';

export interface ActionMarksProps {
  action: ComputerAction | null | undefined;
  view: ScreenshotView | null | undefined;
  /** The screenshot's own size: the SVG's viewBox the marks are drawn in. */
  width: number;
  height: number;
  scale: 'thumbnail' | 'full';
}

/** The size of a mark: large on a thumbnail, to stay visible when scaled down; smaller on the full frame. */
export function markUnit(width: number, height: number, scale: 'thumbnail' | 'full'): number {
  return Math.max(width, height) / (scale === 'thumbnail' ? 48 : 110);
}

/**
 * What an action did on a screenshot: a ring and a dot at each of its points (a click, the two ends of a drag)
 * and the path of a drag, in the screenshot's own coordinates. Drawn inside an SVG whose viewBox is the
 * screenshot, by the timeline's figure and by the report's.
 */
export function ActionMarks({ action, view, width, height, scale }: ActionMarksProps): ReactElement | null {
  const points = action && view ? actionPointsOnScreenshot(action, view, { width, height }) : [];
  if (points.length === 0) return null;
  const unit = markUnit(width, height, scale);
  return (
    <>
      {action?.action === 'drag' && points.length === 2 ? (
        <line className="action-path" x1={points[0]?.x} y1={points[0]?.y} x2={points[1]?.x} y2={points[1]?.y} strokeWidth={unit / 3} />
      ) : null}
      {points.map((point, index) => (
        <g key={index} className={`action-mark ${index === 0 ? 'action-mark-start' : 'action-mark-end'}`}>
          <circle className="action-ring" cx={point.x} cy={point.y} r={unit} strokeWidth={unit / 4} />
          <circle className="action-dot" cx={point.x} cy={point.y} r={unit / 3} />
        </g>
      ))}
    </>
  );
}
