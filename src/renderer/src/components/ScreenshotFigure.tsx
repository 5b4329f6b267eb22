import type { ReactElement } from 'react';
import type { ComputerAction } from '../../../shared/actions.js';
import type { ScreenshotView } from '../../../shared/model-view.js';
import type { CropBox } from '../timeline/crop-boxes.js';
import { ActionMarks, markUnit } from './ActionMarks.js';

export interface ScreenshotFigureProps {
  url: string;
  /** The screenshot's own size: the space the action's coordinates and the crop boxes are in. */
  width: number;
  height: number;
  action?: ComputerAction | null | undefined;
  /**
   * How the screenshot was shown to the model: its coordinates are in that (downscaled or 0–1000) space.
   * Without it the action is not drawn, rather than drawn in the wrong place.
   */
  view?: ScreenshotView | null | undefined;
  cropBoxes?: readonly CropBox[];
  /** Marks are sized for a thumbnail (large, to stay visible when scaled down) or for the full viewer. */
  scale?: 'thumbnail' | 'full';
  label: string;
  className?: string;
}

/**
 * A screenshot with what happened on it: the action's points (a click, the two ends of a drag) and the
 * boxes of crop_image calls. One SVG in the image's own coordinates, so the marks stay aligned at any size
 * without a single computed style.
 */
export function ScreenshotFigure({ url, width, height, action, view, cropBoxes = [], scale = 'thumbnail', label, className }: ScreenshotFigureProps): ReactElement {
  const unit = markUnit(width, height, scale);
  return (
    <svg
      className={`screenshot-figure ${className ?? ''}`}
      viewBox={`0 0 ${width} ${height}`}
      preserveAspectRatio="xMidYMid meet"
      role="img"
      aria-label={label}
    >
      <image href={url} x="0" y="0" width={width} height={height} preserveAspectRatio="none" />
      {cropBoxes.map((box) => (
        <g key={box.stepId} className="crop-box">
          <rect x={box.x} y={box.y} width={box.width} height={box.height} vectorEffect="non-scaling-stroke" />
          {scale === 'full' ? (
            <text x={box.x + unit * 0.4} y={box.y + unit * 1.2} fontSize={unit}>
              crop
            </text>
          ) : null}
        </g>
      ))}
      <ActionMarks action={action} view={view} width={width} height={height} scale={scale} />
    </svg>
  );
}
