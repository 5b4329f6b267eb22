/** captureWithDedup with a scripted frame source: what the agent gets back for each kind of capture. */
import { describe, expect, it } from 'vitest';
import { captureWithDedup, unchangedNotice, type DedupSettings } from '../../src/main/perception/capture-with-dedup.js';
import type { Frame } from '../../src/main/perception/frame.js';
import type { FrameSource } from '../../src/main/perception/frame-source.js';
import { computeHash } from '../../src/main/perception/hashes.js';

const SETTINGS: DedupSettings = { enabled: true, threshold: 10, algorithm: 'phash' };

function frameOf(width: number, height: number, mark?: { x: number; y: number }): Frame {
  const rgba = Buffer.alloc(width * height * 4, 200);
  if (mark) {
    for (const [dx, dy] of [[0, 0], [1, 0], [0, 1], [1, 1]] as const) rgba.set([0, 0, 0], ((mark.y + dy) * width + mark.x + dx) * 4);
  }
  return { rgba, width, height, scaleFactor: 1, displayId: 1, bounds: { x: 0, y: 0, width, height }, capturedAt: 0 };
}

function sourceOf(...frames: Frame[]): FrameSource {
  return { capture: async () => frames.shift()! };
}

describe('captureWithDedup', () => {
  it('returns the first capture as new, with its hash', async () => {
    const frame = frameOf(64, 48);
    const result = await captureWithDedup(sourceOf(frame), undefined, SETTINGS);
    expect(result).toMatchObject({ kind: 'new', frame, hash: computeHash(frame, 'phash'), algorithm: 'phash', distance: null });
  });

  it('names the stored image when the screen did not change', async () => {
    const previous = frameOf(64, 48);
    const result = await captureWithDedup(sourceOf(frameOf(64, 48)), { frame: previous, imageId: 'img_0123456789ab' }, SETTINGS);
    expect(result).toEqual({ kind: 'unchanged', sameAs: 'img_0123456789ab', distance: 0 });
    expect(unchangedNotice('img_0123456789ab')).toBe('unchanged: same as img_0123456789ab');
  });

  it('returns a small change as new, with where it happened', async () => {
    const result = await captureWithDedup(sourceOf(frameOf(64, 48, { x: 30, y: 20 })), { frame: frameOf(64, 48), imageId: 'img_0123456789ab' }, SETTINGS);
    expect(result.kind).toBe('new');
    if (result.kind === 'new') expect(result.regions).toEqual([{ x: 30, y: 20, width: 2, height: 2 }]);
  });

  it('treats a capture of another size (another display, a resized page) as new', async () => {
    const result = await captureWithDedup(sourceOf(frameOf(80, 48)), { frame: frameOf(64, 48), imageId: 'img_0123456789ab' }, SETTINGS);
    expect(result.kind).toBe('new');
  });

  it('never folds when dedup is disabled', async () => {
    const result = await captureWithDedup(sourceOf(frameOf(64, 48)), { frame: frameOf(64, 48), imageId: 'img_0123456789ab' }, { ...SETTINGS, enabled: false });
    expect(result.kind).toBe('new');
  });

  it('uses the stored hash when it was made with the configured algorithm, and ignores it otherwise', async () => {
    // One channel of one pixel a level off: no region changed, so the decision rests on the hashes (pixel-identical
    // frames are duplicates without one).
    const previous = frameOf(64, 48, { x: 20, y: 20 });
    previous.rgba[0] = 201;
    const wrongHash = 'ffffffffffffffff';
    const trusted = await captureWithDedup(sourceOf(frameOf(64, 48, { x: 20, y: 20 })), { frame: previous, imageId: 'img_0123456789ab', hash: wrongHash, hashAlgorithm: 'phash' }, SETTINGS);
    // The stored hash is taken as given: a hash 63 bits away exceeds the threshold.
    expect(trusted.kind).toBe('new');
    const ignored = await captureWithDedup(sourceOf(frameOf(64, 48, { x: 20, y: 20 })), { frame: previous, imageId: 'img_0123456789ab', hash: wrongHash, hashAlgorithm: 'dhash' }, SETTINGS);
    expect(ignored.kind).toBe('unchanged');
  });
});
