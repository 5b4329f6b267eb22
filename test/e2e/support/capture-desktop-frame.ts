/**
 * Child process of desktop-capture.test.ts: node-screenshots keeps the X connection of its first call for
 * the life of the process, so each capture against a test's Xvfb runs here, with DISPLAY set from birth.
 *
 * Usage: capture-desktop-frame.ts OUTPUT.png [WAIT_FOR_X WAIT_FOR_Y]
 * Captures the primary display (polling up to 5 s until the pixel at WAIT_FOR_X,WAIT_FOR_Y is no longer
 * the root window's black, i.e. a window has been painted there), writes the frame as a lossless PNG,
 * and prints {displays, frame: {width, height, scaleFactor, displayId, bounds}} as JSON.
 */
import { writeFileSync } from 'node:fs';
import { DesktopFrameSource } from '../../../src/main/operators/desktop-frame-source.js';
import { encodeLossless } from '../../../src/main/perception/image-encoding.js';
import type { Frame } from '../../../src/main/perception/frame.js';

const [outputPath, waitX, waitY] = process.argv.slice(2);
if (!outputPath) throw new Error('usage: capture-desktop-frame.ts OUTPUT.png [WAIT_FOR_X WAIT_FOR_Y]');

const source = new DesktopFrameSource();
const deadline = Date.now() + 5000;
let frame: Frame = await source.capture();
while (waitX !== undefined && isBlackAt(frame, Number(waitX), Number(waitY)) && Date.now() < deadline) {
  await new Promise((resolve) => setTimeout(resolve, 100));
  frame = await source.capture();
}
writeFileSync(outputPath, await encodeLossless(frame));
const { width, height, scaleFactor, displayId, bounds } = frame;
process.stdout.write(JSON.stringify({ displays: source.listDisplays(), frame: { width, height, scaleFactor, displayId, bounds } }));

function isBlackAt(image: Frame, x: number, y: number): boolean {
  const index = (y * image.width + x) * 4;
  return image.rgba[index] === 0 && image.rgba[index + 1] === 0 && image.rgba[index + 2] === 0;
}
