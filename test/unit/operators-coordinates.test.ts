import { describe, expect, it } from 'vitest';
import { effectiveMaxImageEdge, modelImageSize } from '../../src/main/context/model-image-size.js';
import { resolveModelProfile } from '../../src/main/llm/model-profiles.js';
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

/**
 * Models that name points in pixels of their own smart-resized image are sent the image already at that
 * size, so the one mapping above applies as it is: the view is the image sent, its size Sightline's choice.
 */
describe('points of models that resize images themselves (UI-TARS-1.5, Qwen2.5-VL)', () => {
  /** The view of a frame as Sightline sends it to `model` with perception.maxImageEdge `configuredEdge`. */
  function viewFor(model: string, frame: FrameGeometry, configuredEdge = 1280): ModelView {
    const profile = resolveModelProfile(model);
    const maxEdge = effectiveMaxImageEdge(profile.maxImageEdge, configuredEdge);
    const sent = modelImageSize(frame.width, frame.height, maxEdge, profile.imageSizing);
    return view(frame, sent.width, sent.height, profile.coordinateSpace);
  }

  it("maps README_coordinates' click(start_box='(197,525)') on a 1920x1080 screen sent whole, as the README does", () => {
    // bytedance/UI-TARS README_coordinates.md: the model's (197,525) is a point in smart_resize(1080, 1920) =
    // 1092x1932, and the README takes it to int(197 / 1932 * 1920) = 195, int(525 / 1092 * 1080) = 519 of the
    // screenshot. Sent at 1932x1092 (perception.maxImageEdge 2048), Sightline lands on the frame pixel under
    // the centre of the named pixel: the same one in y, the next one in x (195.8 to 196.7 is frame pixel 196).
    const frame = geometry(1920, 1080);
    const shown = viewFor('ui-tars-1.5-7b', frame, 2048);
    expect(shown).toMatchObject({ imageWidth: 1932, imageHeight: 1092, coordinateSpace: 'pixels' });
    expect(mapModelPoint({ x: 197, y: 525 }, shown, frame)).toEqual({ ok: true, framePixel: { x: 196, y: 519 }, screen: { x: 196, y: 519 } });
  });

  it('maps a UI-TARS-1.5 point on a 1920x1080 screen downscaled to 1280 px and smart-resized to 1288x728', () => {
    const frame = geometry(1920, 1080);
    const shown = viewFor('ui-tars-1.5-7b', frame);
    expect(shown).toMatchObject({ imageWidth: 1288, imageHeight: 728 });
    // The centre of the image is the centre of the screen; its corners are the screen's corners.
    expect(mapModelPoint({ x: 644, y: 364 }, shown, frame)).toMatchObject({ screen: { x: 960, y: 540 } });
    expect(mapModelPoint({ x: 0, y: 0 }, shown, frame)).toMatchObject({ screen: { x: 0, y: 0 } });
    expect(mapModelPoint({ x: 1287, y: 727 }, shown, frame)).toMatchObject({ screen: { x: 1919, y: 1079 } });
    // Model pixel 197 covers frame x 293.7–295.2: its centre, 294.4, is in pixel 294.
    expect(mapModelPoint({ x: 197, y: 525 }, shown, frame)).toMatchObject({ screen: { x: 294, y: 779 } });
    expect(mapModelPoint({ x: 1288, y: 10 }, shown, frame)).toEqual({ ok: false, error: 'x=1288 is outside the screenshot (0–1287)' });
  });

  it('maps a UI-TARS-1.5 point on a HiDPI 2880x1800 capture of a 1440x900 display (1288x812 sent)', () => {
    const frame = geometry(2880, 1800, 2);
    const shown = viewFor('ui-tars-1.5-7b', frame);
    expect(shown).toMatchObject({ imageWidth: 1288, imageHeight: 812 });
    expect(mapModelPoint({ x: 644, y: 406 }, shown, frame)).toEqual({ ok: true, framePixel: { x: 1441, y: 901 }, screen: { x: 720, y: 450 } });
    expect(mapModelPoint({ x: 1287, y: 811 }, shown, frame)).toMatchObject({ screen: { x: 1439, y: 899 } });
    // A button at screen point (100, 50) is frame pixels 200–201 × 100–101, which the model sees at (89.4, 45.1).
    expect(mapModelPoint({ x: 89, y: 45 }, shown, frame)).toEqual({ ok: true, framePixel: { x: 200, y: 100 }, screen: { x: 100, y: 50 } });
  });

  it('maps a Qwen2.5-VL point the same way, in the image whose size its prompt states', () => {
    const frame = geometry(1920, 1080);
    const shown = viewFor('Qwen/Qwen2.5-VL-7B-Instruct', frame);
    expect(shown).toMatchObject({ imageWidth: 1288, imageHeight: 728, coordinateSpace: 'pixels' });
    expect(mapModelPoint({ x: 644, y: 364 }, shown, frame)).toMatchObject({ screen: { x: 960, y: 540 } });
    const retina = geometry(2880, 1800, 2);
    const retinaView = viewFor('qwen2.5vl:7b', retina);
    expect(retinaView).toMatchObject({ imageWidth: 1288, imageHeight: 812 });
    expect(mapModelPoint({ x: 644, y: 406 }, retinaView, retina)).toMatchObject({ screen: { x: 720, y: 450 } });
  });

  it("maps the Doubao <point>200 300</point> of UI-TARS's parser tests to 20% and 30% of the screen", () => {
    // bytedance/UI-TARS codes/tests/action_parser_test.py parses click(point='<point>200 300</point>') with
    // factor=1000: 0.2 and 0.3 of the screen, whatever the image size.
    const frame = geometry(1920, 1080);
    const shown = viewFor('doubao-1-5-ui-tars-250428', frame);
    expect(shown).toMatchObject({ imageWidth: 1280, imageHeight: 720, coordinateSpace: 'normalized-1000' });
    expect(mapModelPoint({ x: 200, y: 300 }, shown, frame)).toMatchObject({ screen: { x: 384, y: 324 } });
  });
});
