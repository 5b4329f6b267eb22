/** @jsxRuntime automatic */
// The pragma: the report is rendered in the main process (src/main/report/), under tsx as well as Vite.
import type { ReactElement } from 'react';
import type { ComputerAction } from '../../../shared/actions.js';
import type { ScreenshotView } from '../../../shared/model-view.js';
import type { FrameRegion } from '../../../shared/report-model.js';
import { ActionMarks } from '../components/ActionMarks.js';
import { takeSource, useFrameSources } from './frame-sources.js';

export interface ReportFrameImageProps {
  frameKey: string;
  imageId: string;
  width: number;
  height: number;
  alt: string;
  action?: ComputerAction | null;
  view?: ScreenshotView | null;
  /** Changed tiles of a divergence, in the frame's pixels. */
  regions?: readonly FrameRegion[];
  scale?: 'thumbnail' | 'full';
}

/**
 * A frame as an <img> (so it decodes and prints like any picture) with the timeline's action marks and any
 * changed tiles drawn over it in an SVG of the original's coordinates, laid over the image whatever size it is
 * drawn at, so the marks stay where they were. The <img> carries the embedded copy's own size: the styles let it
 * shrink to its box but never grow past it, so a reduced copy is shown small and sharp, never stretched.
 */
export function ReportFrameImage({ frameKey, imageId, width, height, alt, action, view, regions = [], scale = 'thumbnail' }: ReportFrameImageProps): ReactElement {
  const sources = useFrameSources();
  const src = takeSource(sources, frameKey);
  const frame = sources.frames.get(frameKey);
  return (
    <span className={`frame-box ${frame?.full === true ? 'frame-full' : 'frame-reduced'}`} data-image-id={imageId}>
      <img src={src} data-frame={frameKey} data-frame-src={src === undefined ? frameKey : undefined} alt={alt} width={frame?.pixelWidth ?? width} height={frame?.pixelHeight ?? height} decoding="async" />
      {action || regions.length > 0 ? (
        <svg className="frame-marks" viewBox={`0 0 ${width} ${height}`} preserveAspectRatio="none" aria-hidden="true" focusable="false">
          {regions.map((region, index) => (
            <rect key={index} className="changed-tile" x={region.x} y={region.y} width={region.width} height={region.height} />
          ))}
          <ActionMarks action={action} view={view} width={width} height={height} scale={scale} />
        </svg>
      ) : null}
    </span>
  );
}
