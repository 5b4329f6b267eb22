import { describe, expect, it } from 'vitest';
import { mapModelPoint, mapModelPoints, type FrameGeometry } from '../../src/main/operators/coordinates.js';
import type { ModelView } from '../../src/shared/model-view.js';

function geometry(width: number, height: number, scaleFactor = 1, x = 0, y = 0): FrameGeometry {
  return { width, height, scaleFactor, bounds: { x, y, width: width / scaleFactor, height: height / scaleFactor } };
}

function view(frame: FrameGeometry, imageWidth = frame.width, imageHeight = frame.height, coordinateSpace: ModelView['coordinateSpace'] = 'pixels'): ModelView {
  return { frameWidth: frame.width, frameHeight: frame.height, imageWidth, imageHeight, coordinateSpace };
}

describe('mapModelPoint', () => {
  it('maps a point one to one when the model saw the frame unscaled on a plain display', () => {
    const frame = geometry(1280, 800);
    expect(mapModelPoint({ x: 0, y: 0 }, view(frame), frame)).toEqual({ ok: true, framePixel: { x: 0, y: 0 }, screen: { x: 0, y: 0 } });
    expect(mapModelPoint({ x: 1279, y: 799 }, view(frame), frame)).toEqual({ ok: true, framePixel: { x: 1279, y: 799 }, screen: { x: 1279, y: 799 } });
    // A fractional point names the pixel that contains it.
    expect(mapModelPoint({ x: 640.9, y: 10.2 }, view(frame), frame)).toMatchObject({ screen: { x: 640, y: 10 } });
  });

  it('undoes the encoding downscale: a 1920x1080 frame shown as 1280x720', () => {
    const frame = geometry(1920, 1080);
    const shown = view(frame, 1280, 720);
    // Model pixel 100 covers frame pixels 150–151.5; its centre (100.5 × 1.5 = 150.75) lies in pixel 150.
    expect(mapModelPoint({ x: 100, y: 100 }, shown, frame)).toEqual({ ok: true, framePixel: { x: 150, y: 150 }, screen: { x: 150, y: 150 } });
    expect(mapModelPoint({ x: 640, y: 360 }, shown, frame)).toMatchObject({ screen: { x: 960, y: 540 } });
    expect(mapModelPoint({ x: 1279, y: 719 }, shown, frame)).toMatchObject({ screen: { x: 1919, y: 1079 } });
  });

  it('divides by the scale factor on a HiDPI display (scale 2)', () => {
    // A Retina display of 1440x900 points captured as 2880x1800 pixels, shown to the model as 1280x800.
    const frame = geometry(2880, 1800, 2);
    const shown = view(frame, 1280, 800);
    expect(mapModelPoint({ x: 640, y: 400 }, shown, frame)).toEqual({ ok: true, framePixel: { x: 1441, y: 901 }, screen: { x: 720, y: 450 } });
    expect(mapModelPoint({ x: 1279, y: 799 }, shown, frame)).toMatchObject({ screen: { x: 1439, y: 899 } });
    // Unscaled: frame pixels 200 and 201 are the same screen point.
    const unscaled = view(frame);
    expect(mapModelPoint({ x: 200, y: 200 }, unscaled, frame)).toMatchObject({ screen: { x: 100, y: 100 } });
    expect(mapModelPoint({ x: 201, y: 201 }, unscaled, frame)).toMatchObject({ screen: { x: 100, y: 100 } });
  });

  it('adds the display offset: a monitor to the left of the primary one at x=-1920', () => {
    const frame = geometry(1920, 1080, 1, -1920, 0);
    expect(mapModelPoint({ x: 0, y: 0 }, view(frame), frame)).toMatchObject({ screen: { x: -1920, y: 0 } });
    expect(mapModelPoint({ x: 1919, y: 500 }, view(frame), frame)).toMatchObject({ screen: { x: -1, y: 500 } });
    // The same monitor above the primary one, HiDPI, downscaled for the model.
    const above = geometry(3840, 2160, 2, -1920, -1080);
    expect(mapModelPoint({ x: 640, y: 360 }, view(above, 1280, 720), above)).toMatchObject({ screen: { x: -960, y: -540 } });
  });

  it('maps normalized 0–1000 coordinates, with 1000 the far edge', () => {
    const frame = geometry(1920, 1080);
    const shown = view(frame, 1280, 720, 'normalized-1000');
    expect(mapModelPoint({ x: 0, y: 0 }, shown, frame)).toMatchObject({ screen: { x: 0, y: 0 } });
    expect(mapModelPoint({ x: 500, y: 500 }, shown, frame)).toMatchObject({ screen: { x: 960, y: 540 } });
    expect(mapModelPoint({ x: 1000, y: 1000 }, shown, frame)).toMatchObject({ screen: { x: 1919, y: 1079 } });
    expect(mapModelPoint({ x: 1001, y: 10 }, shown, frame)).toEqual({
      ok: false,
      error: 'x=1001 is outside the screenshot (0–1000, normalized coordinates)',
    });
  });

  it('keeps fractional scale factors on whole screen points', () => {
    const frame = geometry(1650, 1100, 1.1);
    expect(mapModelPoint({ x: 11, y: 1099 }, view(frame), frame)).toMatchObject({ screen: { x: 10, y: 999 } });
  });

  it('refuses a point outside the screenshot instead of clamping it', () => {
    const frame = geometry(1920, 1080);
    const shown = view(frame, 1280, 720);
    expect(mapModelPoint({ x: 2100, y: 10 }, shown, frame)).toEqual({ ok: false, error: 'x=2100 is outside the screenshot (0–1279)' });
    expect(mapModelPoint({ x: 1280, y: 10 }, shown, frame)).toEqual({ ok: false, error: 'x=1280 is outside the screenshot (0–1279)' });
    expect(mapModelPoint({ x: -1, y: 720 }, shown, frame)).toEqual({
      ok: false,
      error: 'x=-1 is outside the screenshot (0–1279); y=720 is outside the screenshot (0–719)',
    });
  });

  it('refuses to map onto a screen that no longer matches the screenshot', () => {
    const before = geometry(1920, 1080);
    const now = geometry(1280, 800);
    const result = mapModelPoint({ x: 10, y: 10 }, view(before, 1280, 720), now);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toMatch(/screen changed since that screenshot .*1920x1080.*1280x800.*take a new screenshot/);
  });

  it('treats a malformed view as a programming error', () => {
    const frame = geometry(100, 100);
    expect(() => mapModelPoint({ x: 1, y: 1 }, { ...view(frame), imageWidth: 0 }, frame)).toThrow(/imageWidth must be a positive integer/);
  });
});

describe('mapModelPoints', () => {
  it('maps both ends of a drag, or names every end that is off the screenshot', () => {
    const frame = geometry(1920, 1080, 1, 1920, 0);
    const shown = view(frame, 1280, 720);
    expect(
      mapModelPoints([{ point: { x: 0, y: 0 }, names: { x: 'x', y: 'y' } }, { point: { x: 640, y: 360 }, names: { x: 'to_x', y: 'to_y' } }], shown, frame),
    ).toEqual({ ok: true, screens: [{ x: 1920, y: 0 }, { x: 2880, y: 540 }] });
    expect(
      mapModelPoints([{ point: { x: 0, y: 0 }, names: { x: 'x', y: 'y' } }, { point: { x: 640, y: 900 }, names: { x: 'to_x', y: 'to_y' } }], shown, frame),
    ).toEqual({ ok: false, error: 'to_y=900 is outside the screenshot (0–719)' });
  });
});
