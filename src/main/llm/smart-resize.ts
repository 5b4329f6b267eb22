/**
 * Qwen2-VL's `smart_resize`, which Qwen2.5-VL, UI-TARS-1.5 and their servers apply to every image before
 * the model sees it: both sides a multiple of `factor`, the area between `minPixels` and `maxPixels`, the
 * aspect ratio kept as nearly as that allows. Those models name points in pixels of the resized image.
 *
 * Written after the published Python (bytedance/UI-TARS codes/ui_tars/action_parser.py and
 * README_coordinates.md; transformers' image_processing_qwen2_vl.py), including its rounding: Python's
 * `round` rounds halves to even, so 1302 px (46.5 × 28) becomes 1288, not 1316.
 *
 * Applied to its own result it changes nothing (both sides are multiples of the factor and the area is in
 * range), which is why Sightline sends images already at this size: the model's resize is then the
 * identity and its points are pixels of the image Sightline sent.
 */

export interface SmartResizeParameters {
  /** Both sides become multiples of this (patch size × merge size: 14 × 2 = 28). */
  factor: number;
  minPixels: number;
  maxPixels: number;
}

export function smartResize(
  size: { width: number; height: number },
  { factor, minPixels, maxPixels }: SmartResizeParameters,
): { width: number; height: number } {
  const { width, height } = size;
  // The Python refuses an aspect ratio above 200; no screen has one, so the arithmetic is simply applied.
  let heightBar = Math.max(factor, roundHalfToEven(height / factor) * factor);
  let widthBar = Math.max(factor, roundHalfToEven(width / factor) * factor);
  if (heightBar * widthBar > maxPixels) {
    const beta = Math.sqrt((height * width) / maxPixels);
    heightBar = Math.floor(height / beta / factor) * factor;
    widthBar = Math.floor(width / beta / factor) * factor;
  } else if (heightBar * widthBar < minPixels) {
    const beta = Math.sqrt(minPixels / (height * width));
    heightBar = Math.ceil((height * beta) / factor) * factor;
    widthBar = Math.ceil((width * beta) / factor) * factor;
  }
  return { width: widthBar, height: heightBar };
}

/** Python 3's `round`: halves go to the even neighbour. */
function roundHalfToEven(value: number): number {
  const floor = Math.floor(value);
  const fraction = value - floor;
  if (fraction > 0.5) return floor + 1;
  if (fraction < 0.5) return floor;
  return floor % 2 === 0 ? floor : floor + 1;
}
