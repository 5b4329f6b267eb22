/**
 * What the model was shown: the image size it saw, the frame that image was made from, and how it names a
 * point in it. Below context (which builds the view from stored images), operators (which map a point
 * through it) and llm (the model profile names a coordinate space), so none of them imports another.
 *
 * A model protocol with a coordinate convention of its own is one more coordinate space here, and one more
 * case in the mapping (src/main/operators/coordinates.ts).
 */
import { z } from 'zod';

/** How the model names a point: pixels of the image it was shown, or 0–1000 on both axes (Qwen, UI-TARS). */
export const COORDINATE_SPACES = ['pixels', 'normalized-1000'] as const;
export type CoordinateSpace = (typeof COORDINATE_SPACES)[number];

/**
 * How a screenshot was shown to the model: the size of the (usually downscaled) image it saw, and how it
 * names points in it. What a step row keeps of the view, enough to draw an action where it landed on the
 * stored screenshot; the frame size is the stored image's own.
 */
export const ScreenshotViewSchema = z
  .object({
    imageWidth: z.number().int().positive(),
    imageHeight: z.number().int().positive(),
    coordinateSpace: z.enum(COORDINATE_SPACES),
  })
  .strict();
export type ScreenshotView = z.infer<typeof ScreenshotViewSchema>;

/** A screenshot view with the frame it was made from: everything the operator maps a model point through. */
export interface ModelView extends Readonly<ScreenshotView> {
  /** Size of the captured frame (what the operator's `capture()` returned). */
  readonly frameWidth: number;
  readonly frameHeight: number;
}
