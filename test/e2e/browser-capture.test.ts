/**
 * BrowserFrameSource on a real Chromium (headless, through playwright-core): the frame is the viewport in
 * device pixels, its bounds are the viewport in CSS pixels, and the scale factor is the page's ratio.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserFrameSource } from '../../src/main/operators/browser-frame-source.js';
import type { Frame } from '../../src/main/perception/frame.js';

const CHROMIUM = process.env.SIGHTLINE_CHROMIUM ?? '/usr/bin/chromium';
const PAGE = `<html><body style="margin:0;background:#ffffff">
  <div style="position:absolute;left:40px;top:30px;width:100px;height:50px;background:#ff0000"></div>
</body></html>`;

let browser: Browser;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM} (set SIGHTLINE_CHROMIUM)`);
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
});
afterAll(async () => {
  await browser?.close();
});

function redBox(frame: Frame): { x: number; y: number; width: number; height: number } | undefined {
  let minX = Infinity, minY = Infinity, maxX = -1, maxY = -1;
  for (let y = 0; y < frame.height; y++) {
    for (let x = 0; x < frame.width; x++) {
      const index = (y * frame.width + x) * 4;
      if (frame.rgba[index]! > 240 && frame.rgba[index + 1]! < 15 && frame.rgba[index + 2]! < 15) {
        minX = Math.min(minX, x); minY = Math.min(minY, y); maxX = Math.max(maxX, x); maxY = Math.max(maxY, y);
      }
    }
  }
  return maxX < 0 ? undefined : { x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1 };
}

describe.each([1, 2])('browser capture at device scale factor %i', (scale) => {
  it('returns the viewport in device pixels with the element where CSS put it', async () => {
    const context = await browser.newContext({ viewport: { width: 320, height: 200 }, deviceScaleFactor: scale });
    try {
      const page = await context.newPage();
      await page.setContent(PAGE);
      const frame = await new BrowserFrameSource(page, { now: () => 42 }).capture();
      expect(frame).toMatchObject({
        width: 320 * scale,
        height: 200 * scale,
        scaleFactor: scale,
        displayId: null,
        bounds: { x: 0, y: 0, width: 320, height: 200 },
        capturedAt: 42,
      });
      expect(redBox(frame)).toEqual({ x: 40 * scale, y: 30 * scale, width: 100 * scale, height: 50 * scale });
    } finally {
      await context.close();
    }
  });
});
