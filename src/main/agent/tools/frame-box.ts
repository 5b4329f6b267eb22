/**
 * A box the model drew on an image as it was shown (a downscaled copy's pixels, or 0–1000), in the stored
 * frame's pixels: where Claude's zoom and crop_image cut, at the frame's own resolution.
 */
import type { CropBox } from '../../perception/image-crop.js';
import type { CoordinateExtent } from './tracked-pointer.js';

/**
 * The box scaled from the extent the model named it in to the frame: whole pixels, rounded outwards so that
 * nothing the model boxed is cut off, inside the frame and never empty.
 */
export function frameBox(box: CropBox, extent: CoordinateExtent, frame: { width: number; height: number }): CropBox {
  const scaleX = frame.width / extent.width;
  const scaleY = frame.height / extent.height;
  const left = clamp(Math.floor(box.left * scaleX), 0, frame.width - 1);
  const top = clamp(Math.floor(box.top * scaleY), 0, frame.height - 1);
  return {
    left,
    top,
    right: clamp(Math.ceil(box.right * scaleX), left + 1, frame.width),
    bottom: clamp(Math.ceil(box.bottom * scaleY), top + 1, frame.height),
  };
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}
