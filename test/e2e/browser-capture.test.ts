/**
 * BrowserFrameSource on a real Chromium (headless, through playwright-core): the frame is the viewport in
 * device pixels, its bounds are the viewport in CSS pixels, and the scale factor is the page's ratio. Taken
 * through the DevTools protocol, it is Playwright's own screenshot to the pixel, and a focused field's
 * blinking caret never shows in it (it would make a still page look as if it changed).
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserFrameSource } from '../../src/main/operators/browser-frame-source.js';
import { BROWSER_LAUNCH_ARGUMENTS } from '../../src/main/operators/browser-launch-arguments.js';
import { decodeImageBytes } from '../../src/main/perception/image-encoding.js';
import type { Frame } from '../../src/main/perception/frame.js';

const CHROMIUM = process.env.SIGHTLINE_CHROMIUM ?? '/usr/bin/chromium';
// Text, a gradient, a scrolled document and a focused field: what a fast PNG or a wrong clip would get wrong.
const FIELD_PAGE = `<html><body style="margin:0;height:3000px">
  <h1 style="margin-top:60px">Some <i>anti-aliased</i> text</h1>
  <input id="field" value="abc" style="font-size:32px">
  <div style="width:80px;height:80px;border-radius:40px;background:linear-gradient(red, blue)"></div>
</body></html>`;

const PAGE = `<html><body style="margin:0;background:#ffffff">
  <div style="position:absolute;left:40px;top:30px;width:100px;height:50px;background:#ff0000"></div>
</body></html>`;

let browser: Browser;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM} (set SIGHTLINE_CHROMIUM)`);
  // The operator's own switches: without --disable-partial-raster, the caret hidden before our capture repaints
  // the field and the gradient's top edge row under it could differ from Playwright's screenshot (1 run in 14).
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: [...BROWSER_LAUNCH_ARGUMENTS, '--no-sandbox'] });
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

describe.each([1, 2])('browser capture through the DevTools protocol at device scale factor %i', (scale) => {
  it("is Playwright's screenshot to the pixel, scrolled, with a focused field's caret hidden and its own colour put back", async () => {
    const context = await browser.newContext({ viewport: { width: 400, height: 240 }, deviceScaleFactor: scale });
    try {
      const page = await context.newPage();
      await page.setContent(FIELD_PAGE);
      await page.focus('#field');
      await page.evaluate('document.getElementById("field").style.setProperty("caret-color", "green")');
      await page.evaluate('window.scrollTo(0, 40)');
      const source = new BrowserFrameSource(page);
      const ours = await source.capture();
      const playwrights = await decodeImageBytes(await page.screenshot({ type: 'png' }));
      expect({ width: ours.width, height: ours.height }).toEqual({ width: 400 * scale, height: 240 * scale });
      expect(ours.rgba.equals(playwrights.rgba)).toBe(true);
      // Chromium's PNG, kept to be stored as it came (issue 36), is these very pixels.
      expect((await decodeImageBytes(ours.png!)).rgba.equals(ours.rgba)).toBe(true);
      expect(await page.evaluate('document.getElementById("field").style.getPropertyValue("caret-color")')).toBe('green');
    } finally {
      await context.close();
    }
  });

  it('shows no blinking caret in a series of frames over more than a blink, and puts the caret back once after it', async () => {
    const context = await browser.newContext({ viewport: { width: 400, height: 240 }, deviceScaleFactor: scale });
    try {
      const page = await context.newPage();
      await page.setContent(FIELD_PAGE);
      await page.focus('#field');
      const source = new BrowserFrameSource(page);
      const caretDuringSeries: unknown[] = [];
      const frames = await source.aroundCaptures(async () => {
        const taken: Frame[] = [];
        for (let index = 0; index < 8; index++) {
          taken.push(await source.capture());
          caretDuringSeries.push(await page.evaluate('document.getElementById("field").style.getPropertyValue("caret-color")'));
          await new Promise((resolve) => setTimeout(resolve, 150));
        }
        return taken;
      });
      // Chromium blinks a caret every 500 ms: eight frames 150 ms apart would catch it both shown and hidden.
      expect(frames.map((frame) => `${frame.width}x${frame.height}`)).toEqual(Array(8).fill(`${400 * scale}x${240 * scale}`));
      expect(frames.every((frame) => frame.rgba.equals(frames[0]!.rgba))).toBe(true);
      expect(caretDuringSeries).toEqual(Array(8).fill('transparent'));
      expect(await page.evaluate('document.getElementById("field").style.getPropertyValue("caret-color")')).toBe('');
    } finally {
      await context.close();
    }
  });
});
