/**
 * Frames of a browser page's viewport, through playwright-core. Bounds are the viewport in CSS pixels and
 * the scale factor is the page's devicePixelRatio, so a frame pixel maps to a CSS pixel the same way a
 * desktop frame pixel maps to a screen point.
 */
import type { Page } from 'playwright-core';
import { z } from 'zod';
import type { Frame } from '../perception/frame.js';
import type { FrameSource } from '../perception/frame-source.js';
import { decodeImageBytes } from '../perception/image-encoding.js';

const ViewportSchema = z.object({
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  devicePixelRatio: z.number().positive(),
});

export interface BrowserFrameSourceOptions {
  now?: () => number;
}

export class BrowserFrameSource implements FrameSource {
  private readonly now: () => number;

  constructor(
    private readonly page: Page,
    options: BrowserFrameSourceOptions = {},
  ) {
    this.now = options.now ?? Date.now;
  }

  async capture(): Promise<Frame> {
    // Read the viewport and the ratio first: the screenshot is what the page shows at that moment, and a
    // resize between the two would be caught below by the size check.
    // A string expression: this code is compiled without the DOM library. The page's answer is checked.
    const viewport = ViewportSchema.parse(
      await this.page.evaluate('({ width: window.innerWidth, height: window.innerHeight, devicePixelRatio: window.devicePixelRatio })'),
    );
    const capturedAt = this.now();
    // PNG: lossless, so the frame's pixels are the page's pixels (Playwright offers no raw format).
    const image = await decodeImageBytes(await this.page.screenshot({ type: 'png', fullPage: false, animations: 'allow' }));
    const scaleFactor = image.width / viewport.width;
    if (Math.abs(scaleFactor - viewport.devicePixelRatio) > 0.01) {
      throw new Error(
        `the page was resized during capture (viewport ${viewport.width}x${viewport.height} at ratio ` +
          `${viewport.devicePixelRatio}, screenshot ${image.width}x${image.height})`,
      );
    }
    return {
      ...image,
      scaleFactor: viewport.devicePixelRatio,
      displayId: null,
      bounds: { x: 0, y: 0, width: viewport.width, height: viewport.height },
      capturedAt,
    };
  }
}
