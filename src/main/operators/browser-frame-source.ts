/**
 * Frames of a browser page's viewport, through the DevTools protocol. Bounds are the viewport in CSS pixels
 * and the scale factor is the page's devicePixelRatio, so a frame pixel maps to a CSS pixel the same way a
 * desktop frame pixel maps to a screen point.
 *
 * Not through Playwright's `page.screenshot` where it can be helped: around each screenshot it runs scripts in
 * every frame, waits for fonts, reads the layout and encodes the PNG at zlib's default effort, about half of a
 * 1920x1080 step on a busy machine. Here the page is asked once per frame (carets hidden, fonts loaded,
 * viewport read: one round trip) and Chromium encodes the PNG for speed: still PNG, so the frame's pixels are
 * the page's pixels, the same as Playwright's screenshot gives.
 */
import type { CDPSession, Page } from 'playwright-core';
import { z } from 'zod';
import type { Frame } from '../perception/frame.js';
import type { FrameSource } from '../perception/frame-source.js';
import { decodeImageBytes } from '../perception/image-encoding.js';
import { hideCaretsInChildFrames, hideCaretsThen, restoreCarets } from './browser-carets.js';

const ViewportSchema = z.object({
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  devicePixelRatio: z.number().positive(),
  /** The visual viewport's pinch-zoom. */
  zoom: z.number().positive(),
});

const ScreenshotSchema = z.object({ data: z.string() });

const READ_VIEWPORT =
  '({ width: window.innerWidth, height: window.innerHeight, devicePixelRatio: window.devicePixelRatio, ' +
  'zoom: window.visualViewport.scale })';

export interface BrowserFrameSourceOptions {
  now?: () => number;
}

export class BrowserFrameSource implements FrameSource {
  private readonly now: () => number;
  private devtools: Promise<CDPSession> | undefined;
  /** Capture series still open: the fields' carets are put back when the outermost one ends. */
  private openSeries = 0;

  constructor(
    private readonly page: Page,
    options: BrowserFrameSourceOptions = {},
  ) {
    this.now = options.now ?? Date.now;
  }

  async capture(): Promise<Frame> {
    return this.aroundCaptures(() => this.captureFrame());
  }

  /**
   * Runs a series of captures (a settle watch) with the carets hidden throughout and put back once at the
   * end, instead of around every frame.
   */
  async aroundCaptures<T>(work: () => Promise<T>): Promise<T> {
    this.openSeries += 1;
    try {
      return await work();
    } finally {
      this.openSeries -= 1;
      if (this.openSeries === 0) await restoreCarets(this.page);
    }
  }

  private async captureFrame(): Promise<Frame> {
    // Read the viewport and the ratio first: the screenshot is what the page shows at that moment, and a
    // resize between the two would be caught below by the size check. The page's answer is checked.
    const [answer] = await Promise.all([this.page.evaluate(hideCaretsThen(READ_VIEWPORT)), hideCaretsInChildFrames(this.page)]);
    const viewport = ViewportSchema.parse(answer);
    const capturedAt = this.now();
    const png = await this.screenshot(viewport);
    const image = await decodeImageBytes(png);
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
      png,
    };
  }

  /**
   * The viewport as PNG. At devicePixelRatio 1 without pinch-zoom (the operator's default), straight from the
   * DevTools protocol: the page's surface as shown. Otherwise through Playwright, whose session holds the
   * page's emulation: a screenshot in another session either loses the emulated ratio (no clip: CSS-sized
   * pixels) or resets it for the page (a scaled clip makes Chromium override and then clear the emulation).
   */
  private async screenshot(viewport: z.infer<typeof ViewportSchema>): Promise<Buffer> {
    if (viewport.devicePixelRatio !== 1 || viewport.zoom !== 1) {
      // The carets are hidden already, and stay so until the series ends.
      return this.page.screenshot({ type: 'png', fullPage: false, animations: 'allow', caret: 'initial' });
    }
    const session = await this.session();
    const screenshot = ScreenshotSchema.parse(await session.send('Page.captureScreenshot', { format: 'png', optimizeForSpeed: true, captureBeyondViewport: false }));
    return Buffer.from(screenshot.data, 'base64');
  }

  /** One DevTools session per page, opened at the first capture; a failed opening is tried again next time. */
  private session(): Promise<CDPSession> {
    this.devtools ??= this.page
      .context()
      .newCDPSession(this.page)
      .catch((error: unknown) => {
        this.devtools = undefined;
        throw error;
      });
    return this.devtools;
  }
}
