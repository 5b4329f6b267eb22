/**
 * What the model was shown, as a value. The model sees a scaled copy of a frame (or names points 0–1000),
 * so a point it names means something only together with the view it was looking at. That view travels
 * with the call: from where the screenshot was sent (a request the context layer built, or an MCP tool
 * result) through the call's scope (ToolCallScope) to the operator that maps the point, and into the step row.
 * Nothing keeps it as state in between, so nothing can hand a call the view of another moment.
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

/** The screenshot the model was looking at: which stored image, and how it was shown. */
export interface ShownScreenshot {
  readonly imageId: string;
  readonly view: ModelView;
}

/** The sizes of an image as it was sent, and of the frame it was made from. */
export interface SentImageSize {
  width: number;
  height: number;
  frameWidth: number;
  frameHeight: number;
}

/** The one way a view is made from an image as it was sent: wherever a screenshot goes to a model. */
export function shownScreenshot(imageId: string, image: SentImageSize, coordinateSpace: CoordinateSpace): ShownScreenshot {
  return {
    imageId,
    view: {
      frameWidth: image.frameWidth,
      frameHeight: image.frameHeight,
      imageWidth: image.width,
      imageHeight: image.height,
      coordinateSpace,
    },
  };
}

/** What of a view a step keeps (the frame size is the stored screenshot's own). */
export function screenshotViewOf(view: ModelView): ScreenshotView {
  return { imageWidth: view.imageWidth, imageHeight: view.imageHeight, coordinateSpace: view.coordinateSpace };
}
