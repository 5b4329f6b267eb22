/** The local change check on synthetic screens: what must count as a change, and what is noise. */
import { describe, expect, it } from 'vitest';
import { detectChangedRegions } from '../../src/main/perception/change-detection.js';
import { compareFrames } from '../../src/main/perception/compare-frames.js';
import type { RawImage } from '../../src/main/perception/frame.js';

const WIDTH = 400;
const HEIGHT = 240;
const BACKGROUND: [number, number, number] = [32, 32, 48];

function blankScreen(): RawImage {
  const rgba = Buffer.alloc(WIDTH * HEIGHT * 4);
  for (let pixel = 0; pixel < WIDTH * HEIGHT; pixel++) rgba.set([...BACKGROUND, 255], pixel * 4);
  return { rgba, width: WIDTH, height: HEIGHT };
}

function paint(image: RawImage, box: { x: number; y: number; width: number; height: number }, colour: [number, number, number]): RawImage {
  const rgba = Buffer.from(image.rgba);
  for (let y = box.y; y < box.y + box.height; y++) {
    for (let x = box.x; x < box.x + box.width; x++) rgba.set(colour, (y * WIDTH + x) * 4);
  }
  return { ...image, rgba };
}

/** Adds ±amplitude in a checkerboard: the shape of resampling and compression error. */
function withCheckerNoise(image: RawImage, amplitude: number): RawImage {
  const rgba = Buffer.from(image.rgba);
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      const sign = (x + y) % 2 === 0 ? 1 : -1;
      for (let channel = 0; channel < 3; channel++) {
        const index = (y * WIDTH + x) * 4 + channel;
        rgba[index] = Math.max(0, Math.min(255, rgba[index]! + sign * amplitude));
      }
    }
  }
  return { ...image, rgba };
}

const screen = paint(blankScreen(), { x: 40, y: 40, width: 200, height: 20 }, [250, 250, 250]);

describe('changes that must never be folded', () => {
  it('a 2x2 period typed into a field, even straddling tiles', () => {
    const typed = paint(screen, { x: 47, y: 47, width: 2, height: 2 }, [10, 10, 10]);
    expect(detectChangedRegions(screen, typed)).toEqual([{ x: 47, y: 47, width: 2, height: 2 }]);
  });

  it('a 1 px wide full-contrast bar (a caret, an "l")', () => {
    const caret = paint(screen, { x: 120, y: 42, width: 1, height: 16 }, [0, 0, 0]);
    expect(detectChangedRegions(screen, caret)).toHaveLength(1);
  });

  it('text turning red at the same brightness', () => {
    const grey = paint(screen, { x: 60, y: 44, width: 30, height: 10 }, [76, 76, 76]);
    const red = paint(screen, { x: 60, y: 44, width: 30, height: 10 }, [255, 0, 0]);
    expect(detectChangedRegions(grey, red)).toHaveLength(1);
  });

  it('a faint but wide highlight (a row turning a shade lighter)', () => {
    const highlighted = paint(screen, { x: 0, y: 100, width: WIDTH, height: 24 }, [44, 44, 60]);
    const regions = detectChangedRegions(screen, highlighted);
    expect(regions).toHaveLength(1);
    expect(regions[0]!.width).toBe(WIDTH);
  });

  it('two separate changes as two regions, largest first', () => {
    const both = paint(paint(screen, { x: 300, y: 200, width: 40, height: 20 }, [200, 0, 0]), { x: 10, y: 10, width: 4, height: 4 }, [255, 255, 255]);
    const regions = detectChangedRegions(screen, both);
    expect(regions).toHaveLength(2);
    expect(regions[0]).toEqual({ x: 300, y: 200, width: 40, height: 20 });
  });

  it('compareFrames calls them changed although the hash distance is within the threshold', () => {
    const typed = paint(screen, { x: 47, y: 47, width: 2, height: 2 }, [10, 10, 10]);
    const result = compareFrames(screen, typed, { algorithm: 'phash', threshold: 10 });
    expect(result).toMatchObject({ duplicate: false, algorithm: 'phash', regions: [{ x: 47, y: 47, width: 2, height: 2 }] });
    expect(result.distance).toBeLessThanOrEqual(10);
  });
});

describe('noise that is folded', () => {
  it('an identical frame', () => {
    expect(detectChangedRegions(screen, { ...screen, rgba: Buffer.from(screen.rgba) })).toEqual([]);
  });

  it('strong zero-mean checkerboard error (compression, resampling) of ±60 per pixel', () => {
    // Mid-tone colours, so that no value clips at 0 or 255 (clipping would make the error one-sided).
    const midTones = paint(paint(blankScreen(), { x: 0, y: 0, width: WIDTH, height: HEIGHT }, [120, 128, 136]), { x: 40, y: 40, width: 200, height: 20 }, [190, 190, 190]);
    expect(detectChangedRegions(midTones, withCheckerNoise(midTones, 60))).toEqual([]);
  });

  it('a 1 px border changing tint by less than a quarter of the scale (hover)', () => {
    const border: [number, number, number] = [118, 118, 118];
    const before = paint(paint(screen, { x: 38, y: 38, width: 204, height: 1 }, border), { x: 38, y: 61, width: 204, height: 1 }, border);
    const hovered: [number, number, number] = [150, 150, 150];
    const after = paint(paint(screen, { x: 38, y: 38, width: 204, height: 1 }, hovered), { x: 38, y: 61, width: 204, height: 1 }, hovered);
    expect(detectChangedRegions(before, after)).toEqual([]);
  });

  it('a hairline shadow shifting by a couple of levels', () => {
    const shadow = paint(screen, { x: 0, y: 150, width: WIDTH, height: 1 }, [34, 34, 50]);
    expect(compareFrames(screen, shadow, { algorithm: 'dhash', threshold: 10 }).duplicate).toBe(true);
  });

  it('only the alpha channel changing', () => {
    const translucent = { ...screen, rgba: Buffer.from(screen.rgba.map((value, index) => (index % 4 === 3 ? 128 : value))) };
    expect(detectChangedRegions(screen, translucent)).toEqual([]);
  });
});

describe('input checks', () => {
  it('refuses frames of different sizes', () => {
    const other = { rgba: Buffer.alloc(10 * 10 * 4), width: 10, height: 10 };
    expect(() => compareFrames(screen, other, { algorithm: 'phash', threshold: 10 })).toThrow(/different sizes: 400x240 and 10x10/);
  });

  it('handles frames whose size is not a multiple of the tile size, with changes at the far corner', () => {
    const odd = { rgba: Buffer.alloc(37 * 23 * 4, 0), width: 37, height: 23 };
    const changed = { ...odd, rgba: Buffer.from(odd.rgba) };
    changed.rgba.set([255, 255, 255], (22 * 37 + 36) * 4);
    expect(detectChangedRegions(odd, changed)).toEqual([{ x: 36, y: 22, width: 1, height: 1 }]);
  });
});
