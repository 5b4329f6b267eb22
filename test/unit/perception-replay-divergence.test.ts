/**
 * The replay's divergence rule on real frames (test/fixtures/frames/replay/, rendered by a real Chromium from the
 * replay page; and the dedup fixtures): what must diverge (swapped labels in the same layout, a banner that moves
 * everything, a popup, a change under the target) and what must not (a recapture, a clock ticking elsewhere).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RawImage } from '../../src/main/perception/frame.js';
import { decodeImageFile } from '../../src/main/perception/image-encoding.js';
import { judgeReplayFrame, neighbourhoodOf, strictlyIdentical } from '../../src/main/perception/replay-divergence.js';

const REPLAY_FRAMES = join(import.meta.dirname, '../fixtures/frames/replay');
const DEDUP_FRAMES = join(import.meta.dirname, '../fixtures/frames');
const SETTINGS = { algorithm: 'phash', threshold: 10 } as const;

interface Pair {
  id: string;
  recorded: string;
  present: string;
  target: { x: number; y: number };
  label: 'same' | 'diverged';
  identical?: boolean;
  region?: { x: number; y: number; width: number; height: number };
}

const pairs = JSON.parse(readFileSync(join(REPLAY_FRAMES, 'labels.json'), 'utf8')) as Pair[];

function frame(folder: string, file: string): Promise<RawImage> {
  return decodeImageFile(join(folder, file));
}

describe('the replay divergence rule on the labelled replay pairs', () => {
  it.each(pairs)('$id: $label', async (pair) => {
    const judgement = judgeReplayFrame(await frame(REPLAY_FRAMES, pair.recorded), await frame(REPLAY_FRAMES, pair.present), pair.target, SETTINGS);
    expect(judgement.same ? 'same' : 'diverged').toBe(pair.label);
    if (judgement.same && pair.identical !== undefined) expect(judgement.identical).toBe(pair.identical);
    if (!judgement.same) {
      expect(judgement.reason).not.toBe('');
      if (pair.region !== undefined) {
        expect(judgement.region).toEqual(pair.region);
        expect(judgement.reason).toContain(`${pair.region.x},${pair.region.y}`);
      }
    }
  });

  it('swapped labels: the changed region is the label left of the button, not the button', async () => {
    const judgement = judgeReplayFrame(await frame(REPLAY_FRAMES, 'shop-same.png'), await frame(REPLAY_FRAMES, 'shop-swapped.png'), { x: 330, y: 150 }, SETTINGS);
    expect(judgement.same).toBe(false);
    // The button under the point is pixel for pixel the same: only the label's place says the row differs.
    expect(judgement.regions.every((region) => region.x + region.width < 300)).toBe(true);
    expect(judgement.same === false && judgement.reason).toContain('near the target');
  });

  it('a banner that moves everything diverges by the global distance', async () => {
    const judgement = judgeReplayFrame(await frame(REPLAY_FRAMES, 'shop-same.png'), await frame(REPLAY_FRAMES, 'shop-banner.png'), { x: 330, y: 150 }, SETTINGS);
    expect(judgement.same === false && judgement.reason).toContain('the whole screen changed');
  });

  it('a frame of another size diverges, saying both sizes', async () => {
    const recorded = await frame(REPLAY_FRAMES, 'shop-same.png');
    const smaller: RawImage = { rgba: recorded.rgba.subarray(0, 1280 * 700 * 4), width: 1280, height: 700 };
    const judgement = judgeReplayFrame(recorded, smaller, { x: 330, y: 150 }, SETTINGS);
    expect(judgement.same === false && judgement.reason).toBe('the screen is 1280×700, recorded at 1280×800');
  });
});

describe('the rule on the dedup fixtures', () => {
  it('one typed character: allowed away from the target, a divergence under it', async () => {
    const [before, after] = [await frame(DEDUP_FRAMES, '03-type-one-char-a.png'), await frame(DEDUP_FRAMES, '03-type-one-char-b.png')];
    expect(judgeReplayFrame(before, after, { x: 1500, y: 900 }, SETTINGS).same).toBe(true);
    expect(judgeReplayFrame(before, after, { x: 389, y: 210 }, SETTINGS).same).toBe(false);
    // No target (a key press): a lone character elsewhere is allowed; the dedup rule still calls it a change.
    expect(judgeReplayFrame(before, after, undefined, SETTINGS).same).toBe(true);
    expect(strictlyIdentical(before, after, SETTINGS)).toBe(false);
  });

  it('a dialog that opened and a toast in a corner diverge wherever the target is', async () => {
    for (const id of ['07-dialog-open', '08-toast-corner']) {
      const judgement = judgeReplayFrame(await frame(DEDUP_FRAMES, `${id}-a.png`), await frame(DEDUP_FRAMES, `${id}-b.png`), { x: 10, y: 10 }, SETTINGS);
      expect(judgement.same, id).toBe(false);
    }
  });

  it('an identical recapture is strictly identical (a recorded verdict may be reused)', async () => {
    expect(strictlyIdentical(await frame(DEDUP_FRAMES, '13-recapture-identical-a.png'), await frame(DEDUP_FRAMES, '13-recapture-identical-b.png'), SETTINGS)).toBe(true);
  });
});

describe('the target neighbourhood', () => {
  it('spans a quarter of the width either side and a band above and below, inside the frame', () => {
    expect(neighbourhoodOf({ x: 330, y: 150 }, { width: 1280, height: 800 })).toEqual({ x: 10, y: 102, width: 641, height: 97 });
    expect(neighbourhoodOf({ x: 5, y: 5 }, { width: 1280, height: 800 })).toEqual({ x: 0, y: 0, width: 326, height: 54 });
  });
});
