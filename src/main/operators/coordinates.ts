/**
 * From a point the model names to a point on the screen, in three steps:
 *
 *   model point (in the image it was shown, or 0–1000 normalized)
 *     → frame pixel (the capture, before encodeForModel scaled it down)
 *     → screen point (bounds offset + pixel / scaleFactor: multi-monitor and HiDPI)
 *
 * Rounding, the same way everywhere:
 * - pixels: a model point names the image pixel that contains it (floor). We take that pixel's centre,
 *   scale it into the frame and take the frame pixel that contains it (floor). With no downscale a model
 *   pixel is the frame pixel; with one, it is the frame pixel under the centre of what the model saw.
 * - normalized-1000: the point is a fraction x/1000 of the frame's width, and the frame pixel containing
 *   it is taken (floor); 1000 itself is the far edge, which belongs to the last pixel.
 * - screen: the screen unit that contains the frame pixel (floor of pixel / scaleFactor), plus the
 *   display's offset. Screen points are whole numbers, which is what nut-js and X11 work in.
 *
 * A point outside the screenshot is an error for the model, never clamped to the edge: a click "nearly
 * there" lands on something else (a neighbouring monitor, the taskbar) and the model would not know.
 */
import type { ScreenBounds } from '../perception/frame.js';
import type { CoordinateSpace, ModelView } from '../../shared/model-view.js';

export interface Point {
  x: number;
  y: number;
}

/** What the mapping needs of the frame the model's screenshot was made from. */
export interface FrameGeometry {
  width: number;
  height: number;
  scaleFactor: number;
  bounds: ScreenBounds;
}

export type PointMapping = { ok: true; framePixel: Point; screen: Point } | { ok: false; error: string };

/** The names the model used for the point's fields, so that an error speaks its language (`to_x`). */
export interface PointFieldNames {
  x: string;
  y: string;
}

const NORMALIZED_EXTENT = 1000;
// Absorbs floating-point error in pixel / scaleFactor (e.g. 11 / 1.1 = 9.999999999999998).
const ROUNDING_TOLERANCE = 1e-9;

/** Maps one model point to the frame and the screen, or says why it cannot be. */
export function mapModelPoint(
  point: Point,
  view: ModelView,
  frame: FrameGeometry,
  names: PointFieldNames = { x: 'x', y: 'y' },
): PointMapping {
  assertUsableView(view);
  if (view.frameWidth !== frame.width || view.frameHeight !== frame.height) {
    return {
      ok: false,
      error:
        `the screen changed since that screenshot (it showed ${view.frameWidth}x${view.frameHeight} pixels, ` +
        `the screen now has ${frame.width}x${frame.height}): take a new screenshot`,
    };
  }
  const errors = [
    rangeError(names.x, point.x, view.imageWidth, view.coordinateSpace),
    rangeError(names.y, point.y, view.imageHeight, view.coordinateSpace),
  ].filter((error): error is string => error !== undefined);
  if (errors.length > 0) return { ok: false, error: errors.join('; ') };

  const framePixel = {
    x: toFramePixel(point.x, view.imageWidth, frame.width, view.coordinateSpace),
    y: toFramePixel(point.y, view.imageHeight, frame.height, view.coordinateSpace),
  };
  const screen = {
    x: frame.bounds.x + Math.floor(framePixel.x / frame.scaleFactor + ROUNDING_TOLERANCE),
    y: frame.bounds.y + Math.floor(framePixel.y / frame.scaleFactor + ROUNDING_TOLERANCE),
  };
  return { ok: true, framePixel, screen };
}

/** Maps several points at once (a drag's two ends); the errors of all of them, or all their mappings. */
export function mapModelPoints(
  points: { point: Point; names: PointFieldNames }[],
  view: ModelView,
  frame: FrameGeometry,
): { ok: true; screens: Point[] } | { ok: false; error: string } {
  const screens: Point[] = [];
  const errors = new Set<string>(); // a Set: "the screen changed" once, not once per end
  for (const { point, names } of points) {
    const mapping = mapModelPoint(point, view, frame, names);
    if (mapping.ok) screens.push(mapping.screen);
    else errors.add(mapping.error);
  }
  return errors.size > 0 ? { ok: false, error: [...errors].join('; ') } : { ok: true, screens };
}

function rangeError(name: string, value: number, imageExtent: number, space: CoordinateSpace): string | undefined {
  if (space === 'normalized-1000') {
    if (value >= 0 && value <= NORMALIZED_EXTENT) return undefined;
    return `${name}=${value} is outside the screenshot (0–${NORMALIZED_EXTENT}, normalized coordinates)`;
  }
  if (value >= 0 && value < imageExtent) return undefined;
  return `${name}=${value} is outside the screenshot (0–${imageExtent - 1})`;
}

function toFramePixel(value: number, imageExtent: number, frameExtent: number, space: CoordinateSpace): number {
  const fraction = space === 'normalized-1000' ? value / NORMALIZED_EXTENT : (Math.floor(value) + 0.5) / imageExtent;
  return Math.min(Math.floor(fraction * frameExtent), frameExtent - 1);
}

/** A view with a zero or fractional size is a bug in the caller, not the model's mistake. */
function assertUsableView(view: ModelView): void {
  for (const [name, value] of Object.entries({
    frameWidth: view.frameWidth,
    frameHeight: view.frameHeight,
    imageWidth: view.imageWidth,
    imageHeight: view.imageHeight,
  })) {
    if (!Number.isInteger(value) || value <= 0) throw new Error(`ModelView.${name} must be a positive integer, got ${value}`);
  }
}
