/**
 * What perception works on. A `RawImage` is bare pixels (what a decoded file gives); a `Frame` is a capture
 * of a display or a browser page: the pixels plus what is needed to map a pixel back to the screen.
 */

/** Pixels as tightly packed RGBA bytes, row by row: `rgba.length === width * height * 4`. */
export interface RawImage {
  rgba: Buffer;
  width: number;
  height: number;
}

/** A rectangle in screen coordinates (logical units: on a HiDPI display one unit is `scaleFactor` pixels). */
export interface ScreenBounds {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Frame extends RawImage {
  /** Frame pixels per screen unit: `width === bounds.width * scaleFactor` (2 on a Retina display). */
  scaleFactor: number;
  /** The display the frame shows, as node-screenshots names it; null when it is not a display (a browser page). */
  displayId: number | null;
  /** Where the captured area lies in screen coordinates (for a browser page: the viewport in CSS pixels). */
  bounds: ScreenBounds;
  /** When the pixels were read, in milliseconds since the epoch. */
  capturedAt: number;
  /**
   * The lossless PNG the source itself gave, when it gave one (a browser's DevTools screenshot): these pixels
   * exactly, so it is stored as it came instead of being encoded again.
   */
  png?: Buffer | undefined;
}

/** A changed area, in the pixel coordinates of the frame (not the screen, not the image sent to a model). */
export interface Region {
  x: number;
  y: number;
  width: number;
  height: number;
}

export const BYTES_PER_PIXEL = 4;

/**
 * Checks that a raw image is internally consistent, so that every pixel loop below can trust its indices.
 * Throws a plain Error: an inconsistent image is a programming error, not a user's.
 */
export function assertRawImage(image: RawImage): void {
  const { width, height, rgba } = image;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width <= 0 || height <= 0) {
    throw new Error(`image size must be positive integers, got ${width}x${height}`);
  }
  if (rgba.length !== width * height * BYTES_PER_PIXEL) {
    throw new Error(`image of ${width}x${height} needs ${width * height * BYTES_PER_PIXEL} RGBA bytes, got ${rgba.length}`);
  }
}
