/**
 * smartResize against the published numbers: the Qwen2.5-VL cookbook's computer-use example and UI-TARS's
 * coordinate guide, plus the edges of the Python it is written after (halves to even, the pixel bounds),
 * and the property Sightline relies on: applied to its own result it changes nothing.
 */
import { describe, expect, it } from 'vitest';
import { resolveModelProfile, type ImageSizing } from '../../src/main/llm/model-profiles.js';
import { smartResize, type SmartResizeParameters } from '../../src/main/llm/smart-resize.js';

function parametersOf(model: string): SmartResizeParameters {
  const sizing: ImageSizing = resolveModelProfile(model).imageSizing;
  if (sizing.kind !== 'smart-resize') throw new Error(`${model} has no smart resize`);
  return sizing;
}

const QWEN_2_5_VL = parametersOf('Qwen/Qwen2.5-VL-7B-Instruct');
const UI_TARS_1_5 = parametersOf('ByteDance-Seed/UI-TARS-1.5-7B');

describe('smartResize', () => {
  it("gives the Qwen2.5-VL cookbook's size: a 3456x2160 screenshot is stated as 3444x2156", () => {
    // QwenLM/Qwen2.5-VL cookbooks/computer_use.ipynb, "Computer Use with Inference API": its screenshot
    // assets/computer_use/computer_use1.jpeg is 3456x2160 (the JPEG's frame header in the notebook's base64),
    // smart_resize with min_pixels=3136, max_pixels=12845056, and the computer_use tool description it sends
    // reads "The screen's resolution is 3444x2156."
    expect(QWEN_2_5_VL).toEqual({ kind: 'smart-resize', factor: 28, minPixels: 3136, maxPixels: 12_845_056 });
    expect(smartResize({ width: 3456, height: 2160 }, QWEN_2_5_VL)).toEqual({ width: 3444, height: 2156 });
  });

  it("uses UI-TARS-1.5's published constants, and resizes a 1920x1080 screenshot to 1932x1092", () => {
    // bytedance/UI-TARS README_coordinates.md and codes/ui_tars/action_parser.py: IMAGE_FACTOR = 28,
    // MIN_PIXELS = 100 * 28 * 28, MAX_PIXELS = 16384 * 28 * 28.
    expect(UI_TARS_1_5).toEqual({ kind: 'smart-resize', factor: 28, minPixels: 78_400, maxPixels: 12_845_056 });
    expect(smartResize({ width: 1920, height: 1080 }, UI_TARS_1_5)).toEqual({ width: 1932, height: 1092 });
  });

  it("rounds halves to even, as Python's round does: 1302 px (46.5 × 28) becomes 1288", () => {
    expect(smartResize({ width: 1302, height: 720 }, UI_TARS_1_5)).toEqual({ width: 1288, height: 728 });
    expect(smartResize({ width: 1330, height: 700 }, UI_TARS_1_5)).toEqual({ width: 1344, height: 700 }); // 47.5 → 48, 25 → 25
  });

  it('enlarges an image below the minimum and shrinks one above the maximum, keeping the aspect ratio', () => {
    expect(smartResize({ width: 100, height: 50 }, UI_TARS_1_5)).toEqual({ width: 420, height: 224 });
    expect(smartResize({ width: 100, height: 50 }, QWEN_2_5_VL)).toEqual({ width: 112, height: 56 });
    expect(smartResize({ width: 8000, height: 6000 }, UI_TARS_1_5)).toEqual({ width: 4116, height: 3080 });
  });

  it('changes nothing when applied to its own result, so an image sent at that size reaches the model as sent', () => {
    for (const parameters of [QWEN_2_5_VL, UI_TARS_1_5]) {
      for (let width = 20; width <= 4000; width += 37) {
        for (const height of [17, 300, 720, 1080, 1800, 2160, 5000]) {
          const once = smartResize({ width, height }, parameters);
          expect(once.width % 28).toBe(0);
          expect(once.height % 28).toBe(0);
          expect(smartResize(once, parameters), `${width}x${height}`).toEqual(once);
        }
      }
    }
  });
});
