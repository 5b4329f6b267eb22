/**
 * Anything that produces frames: the desktop (node-screenshots, or Electron's desktopCapturer in the app)
 * or a browser page (playwright-core). Operators implement it; perception only depends on this shape, so
 * that it never imports operators.
 */
import type { Frame } from './frame.js';

export interface FrameSource {
  capture(): Promise<Frame>;
}
