/** DesktopFrameSource's choice of display and its errors, with node-screenshots replaced by fake monitors. */
import { describe, expect, it } from 'vitest';
import { DesktopFrameSource, type MonitorLike } from '../../src/main/operators/desktop-frame-source.js';
import { DisplayUnavailableError, UnknownDisplayError } from '../../src/main/operators/display-errors.js';

interface FakeDisplay {
  id: number;
  x: number;
  y: number;
  width: number;
  height: number;
  scale: number;
  primary: boolean;
}

function fakeMonitor(display: FakeDisplay): MonitorLike {
  const pixelWidth = display.width * display.scale;
  const pixelHeight = display.height * display.scale;
  return {
    id: () => display.id,
    name: () => `screen-${display.id}`,
    x: () => display.x,
    y: () => display.y,
    width: () => display.width,
    height: () => display.height,
    scaleFactor: () => display.scale,
    isPrimary: () => display.primary,
    captureImage: async () =>
      ({ width: pixelWidth, height: pixelHeight, toRaw: async () => Buffer.alloc(pixelWidth * pixelHeight * 4, display.id) }) as never,
  };
}

const LAPTOP = { id: 11, x: 0, y: 0, width: 8, height: 5, scale: 2, primary: true };
const EXTERNAL = { id: 22, x: 8, y: -2, width: 16, height: 9, scale: 1, primary: false };

describe('DesktopFrameSource', () => {
  it('lists every display with id, bounds, scale factor and primary flag', () => {
    const source = new DesktopFrameSource({ listMonitors: () => [LAPTOP, EXTERNAL].map(fakeMonitor) });
    expect(source.listDisplays()).toEqual([
      { id: 11, name: 'screen-11', bounds: { x: 0, y: 0, width: 8, height: 5 }, scaleFactor: 2, primary: true },
      { id: 22, name: 'screen-22', bounds: { x: 8, y: -2, width: 16, height: 9 }, scaleFactor: 1, primary: false },
    ]);
  });

  it('captures the primary display by default, in device pixels, with its screen bounds', async () => {
    const source = new DesktopFrameSource({ listMonitors: () => [EXTERNAL, LAPTOP].map(fakeMonitor), now: () => 1234 });
    const frame = await source.capture();
    expect(frame).toMatchObject({ width: 16, height: 10, scaleFactor: 2, displayId: 11, bounds: { x: 0, y: 0, width: 8, height: 5 }, capturedAt: 1234 });
    expect(frame.rgba[0]).toBe(11);
  });

  it('captures the configured display', async () => {
    const source = new DesktopFrameSource({ displayId: 22, listMonitors: () => [LAPTOP, EXTERNAL].map(fakeMonitor) });
    expect(await source.capture()).toMatchObject({ displayId: 22, width: 16, height: 9, bounds: { x: 8, y: -2 } });
  });

  it('falls back to the display at the origin when none is marked primary (Xvfb)', async () => {
    const source = new DesktopFrameSource({ listMonitors: () => [{ ...EXTERNAL }, { ...LAPTOP, primary: false }].map(fakeMonitor) });
    expect((await source.capture()).displayId).toBe(11);
  });

  it('names the available displays when the configured one does not exist', async () => {
    const source = new DesktopFrameSource({ displayId: 7, listMonitors: () => [LAPTOP, EXTERNAL].map(fakeMonitor) });
    await expect(source.capture()).rejects.toThrow(UnknownDisplayError);
    await expect(source.capture()).rejects.toThrow('no display has id 7 (perception.displayId); available: 11 (screen-11, 8x5, primary), 22 (screen-22, 16x9)');
  });

  it('explains a missing graphical session instead of passing on the native error alone', async () => {
    const failing = new DesktopFrameSource({ listMonitors: () => { throw new Error('Connection closed, error during parsing display string'); } });
    await expect(failing.capture()).rejects.toThrow(DisplayUnavailableError);
    await expect(failing.capture()).rejects.toThrow(/is DISPLAY set/);
    const empty = new DesktopFrameSource({ listMonitors: () => [] });
    expect(() => empty.listDisplays()).toThrow(/reports no displays/);
  });
});
