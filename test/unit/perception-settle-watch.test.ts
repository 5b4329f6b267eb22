/**
 * Watching the screen settle, on a scripted screen and a virtual clock: captures take time on the clock, sleeps
 * advance it, and nothing waits for real time, so every case comes out the same on any machine.
 */
import { describe, expect, it, vi } from 'vitest';
import type { Frame } from '../../src/main/perception/frame.js';
import type { FrameSource } from '../../src/main/perception/frame-source.js';
import { hammingDistance } from '../../src/main/perception/hash-bits.js';
import { computeHash } from '../../src/main/perception/hashes.js';
import type * as HashesModule from '../../src/main/perception/hashes.js';
import { unsettledNotice, watchUntilSettled, type SettleClock, type SettleSettings } from '../../src/main/perception/settle-watch.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { homeAt } from '../../src/main/config/home.js';
import { loadConfig } from '../../src/main/config/load.js';
import { DEFAULT_CONFIG } from '../../src/shared/config.js';

// The real hash, counted: a settled pair of the same pixels needs only the returned frame's hash.
vi.mock('../../src/main/perception/hashes.js', async (importOriginal) => {
  const actual = await importOriginal<typeof HashesModule>();
  return { ...actual, computeHash: vi.fn(actual.computeHash) };
});

const WIDTH = 320;
const HEIGHT = 200;
const CAPTURE_MS = 20;
const SETTINGS: SettleSettings = { maxMs: 3000, firstWaitMs: 30, frameIntervalMs: 50, unchangedMinimumMs: 500 };
const COMPARISON = { algorithm: 'phash', threshold: 10 } as const;

class VirtualClock implements SettleClock {
  time = 0;
  readonly sleeps: number[] = [];
  now(): number {
    return this.time;
  }
  async sleep(milliseconds: number): Promise<void> {
    this.sleeps.push(milliseconds);
    if (milliseconds > 0) this.time += milliseconds;
  }
}

/** A light-grey screen with a dark block whose left edge is at `offset` (a picture per offset). */
function screenWithBlockAt(offset: number): Frame {
  const rgba = Buffer.alloc(WIDTH * HEIGHT * 4, 230);
  for (let y = 60; y < 140; y++) rgba.fill(20, (y * WIDTH + offset) * 4, (y * WIDTH + offset + 40) * 4);
  return asFrame(rgba);
}

function asFrame(rgba: Buffer): Frame {
  for (let index = 3; index < rgba.length; index += 4) rgba[index] = 255;
  return { rgba, width: WIDTH, height: HEIGHT, scaleFactor: 1, displayId: 1, bounds: { x: 0, y: 0, width: WIDTH, height: HEIGHT }, capturedAt: 0 };
}

/** Each capture takes CAPTURE_MS of the clock and shows `pictureAt(index)` (index counts from 0). */
class ScriptedScreen implements FrameSource {
  readonly startedAt: number[] = [];
  constructor(
    private readonly clock: VirtualClock,
    private readonly pictureAt: (index: number) => Frame,
  ) {}
  async capture(): Promise<Frame> {
    this.startedAt.push(this.clock.now());
    const frame = this.pictureAt(this.startedAt.length - 1);
    this.clock.time += CAPTURE_MS;
    return frame;
  }
}

describe('watching the screen settle', () => {
  it.each([0, 1, 4, 9])('settles on the first equal pair after the screen changed %i times, and returns its second frame', async (changes) => {
    const clock = new VirtualClock();
    // Captures 0..changes show distinct pictures; from then on the last one stays.
    const screen = new ScriptedScreen(clock, (index) => screenWithBlockAt(Math.min(index, changes) * 25));
    const settled = await watchUntilSettled(screen, { settings: SETTINGS, comparison: COMPARISON, clock });
    expect(settled.settled).toBe(true);
    expect(settled.frames).toBe(changes + 2);
    expect(screen.startedAt).toHaveLength(changes + 2);
    expect(settled.frame.rgba.equals(screenWithBlockAt(changes * 25).rgba)).toBe(true);
    expect(settled.hash).toBe(computeHash(settled.frame, 'phash'));
    // The first wait, then captures at least the frame interval apart.
    expect(screen.startedAt[0]).toBe(SETTINGS.firstWaitMs);
    for (let index = 1; index < screen.startedAt.length; index++) {
      expect(screen.startedAt[index]! - screen.startedAt[index - 1]!).toBe(SETTINGS.frameIntervalMs);
    }
    expect(settled.waitedMs).toBe(screen.startedAt.at(-1));
  });

  it('hashes only the frame it returns when the settled pair is the same pixels twice', async () => {
    const clock = new VirtualClock();
    const screen = new ScriptedScreen(clock, () => screenWithBlockAt(50));
    const hashes = vi.mocked(computeHash);
    hashes.mockClear();
    const settled = await watchUntilSettled(screen, { settings: SETTINGS, comparison: COMPARISON, clock });
    expect(settled).toMatchObject({ settled: true, frames: 2 });
    expect(hashes).toHaveBeenCalledTimes(1);
    expect(hashes.mock.calls[0]![0]).toBe(settled.frame);
    expect(settled.hash).toBe(computeHash(screenWithBlockAt(50), 'phash'));
  });

  it('takes a screen that never stops changing at the cap, marked unsettled, and starts no capture after it', async () => {
    const clock = new VirtualClock();
    const screen = new ScriptedScreen(clock, (index) => screenWithBlockAt((index * 7) % 280));
    const settled = await watchUntilSettled(screen, { settings: SETTINGS, comparison: COMPARISON, clock });
    expect(settled.settled).toBe(false);
    // Captures start at 30, 80, …, 2980 ms: the next would start at 3030, past the cap.
    expect(settled.frames).toBe(60);
    expect(screen.startedAt.at(-1)).toBe(2980);
    expect(Math.max(...screen.startedAt)).toBeLessThan(SETTINGS.maxMs);
    expect(settled.frame.rgba.equals(screenWithBlockAt((59 * 7) % 280).rgba)).toBe(true);
    expect(clock.time).toBeLessThanOrEqual(SETTINGS.maxMs + CAPTURE_MS);
  });

  it('counts one typed character as a change, though the global hash cannot see it', async () => {
    const blank = screenWithBlockAt(100).rgba;
    const typed = Buffer.from(blank);
    // A 3x9 dark stroke: a typed "l" in a text field.
    for (let y = 20; y < 29; y++) typed.fill(40, (y * WIDTH + 250) * 4, (y * WIDTH + 253) * 4);
    const before = asFrame(blank);
    const after = asFrame(typed);
    expect(hammingDistance(computeHash(before, 'phash'), computeHash(after, 'phash'))).toBeLessThanOrEqual(COMPARISON.threshold);

    const clock = new VirtualClock();
    const screen = new ScriptedScreen(clock, (index) => (index === 0 ? before : after));
    const settled = await watchUntilSettled(screen, { settings: SETTINGS, comparison: COMPARISON, clock });
    expect(settled.settled).toBe(true);
    expect(settled.frames).toBe(3);
    expect(settled.frame.rgba.equals(typed)).toBe(true);
  });

  it('keeps watching a screen that still shows what it showed before the action, until the unchanged minimum', async () => {
    const clock = new VirtualClock();
    const before = screenWithBlockAt(0);
    const screen = new ScriptedScreen(clock, () => screenWithBlockAt(0));
    const settled = await watchUntilSettled(screen, { settings: SETTINGS, comparison: COMPARISON, clock, before: { frame: before } });
    // Captures at 30, 80, …, 480 each equal the one before, but also the screen before the action: 530 is the first past 500 ms.
    expect(settled).toMatchObject({ settled: true, waitedMs: 530, frames: 11 });
  });

  it('shows a reaction that comes after two equal frames of the screen as it was before the action', async () => {
    const clock = new VirtualClock();
    const before = screenWithBlockAt(0);
    const screen = new ScriptedScreen(clock, () => (clock.now() < 250 ? screenWithBlockAt(0) : screenWithBlockAt(100)));
    const settled = await watchUntilSettled(screen, { settings: SETTINGS, comparison: COMPARISON, clock, before: { frame: before } });
    expect(settled).toMatchObject({ settled: true, waitedMs: 330 });
    expect(settled.frame.rgba.equals(screenWithBlockAt(100).rgba)).toBe(true);
    // Without knowing the screen before, the first equal pair (30 and 80 ms) would have been taken.
    const unaware = await watchUntilSettled(new ScriptedScreen(new VirtualClock(), () => before), { settings: SETTINGS, comparison: COMPARISON, clock: new VirtualClock() });
    expect(unaware.frames).toBe(2);
  });

  it('settles at the first frame pixel-identical to a frame known to be the settled screen', async () => {
    const clock = new VirtualClock();
    const known = screenWithBlockAt(100);
    const screen = new ScriptedScreen(clock, () => screenWithBlockAt(100));
    const settled = await watchUntilSettled(screen, { settings: SETTINGS, comparison: COMPARISON, clock, before: { frame: screenWithBlockAt(0) }, knownSettled: known });
    expect(settled).toMatchObject({ settled: true, frames: 1, waitedMs: SETTINGS.firstWaitMs });
    // One pixel off is not the known frame: a pair is watched for as always.
    const near = screenWithBlockAt(100);
    near.rgba[0] = 0;
    const watched = await watchUntilSettled(new ScriptedScreen(new VirtualClock(), () => screenWithBlockAt(100)), { settings: SETTINGS, comparison: COMPARISON, clock: new VirtualClock(), knownSettled: near });
    expect(watched.frames).toBe(2);
  });

  it('takes a known settled frame that is still the screen before the action only after the unchanged minimum', async () => {
    const clock = new VirtualClock();
    const before = screenWithBlockAt(0);
    const screen = new ScriptedScreen(clock, () => screenWithBlockAt(0));
    const settled = await watchUntilSettled(screen, { settings: SETTINGS, comparison: COMPARISON, clock, before: { frame: before }, knownSettled: screenWithBlockAt(0) });
    expect(settled).toMatchObject({ settled: true, waitedMs: 530 });
  });

  it('compares pixel-identical frames without a hash or change detection (the pixel-equality fast path)', async () => {
    const { compareFrames } = await import('../../src/main/perception/compare-frames.js');
    const { judgeReplayFrame, strictlyIdentical } = await import('../../src/main/perception/replay-divergence.js');
    const { dedupFrame } = await import('../../src/main/perception/capture-with-dedup.js');
    const hashes = vi.mocked(computeHash);
    const first = screenWithBlockAt(40);
    const second = screenWithBlockAt(40);
    hashes.mockClear();
    expect(compareFrames(first, second, COMPARISON)).toEqual({ duplicate: true, distance: 0, algorithm: 'phash', regions: [] });
    expect(judgeReplayFrame(first, second, { x: 10, y: 10 }, COMPARISON)).toEqual({ same: true, distance: 0, regions: [], identical: true });
    expect(strictlyIdentical(first, second, COMPARISON)).toBe(true);
    expect(dedupFrame({ frame: second, hash: 'f'.repeat(16) }, { frame: first, imageId: 'img_1' }, { enabled: true, ...COMPARISON })).toMatchObject({ kind: 'unchanged', sameAs: 'img_1' });
    expect(hashes).not.toHaveBeenCalled();
  });

  it('counts a resized screen as a change', async () => {
    const clock = new VirtualClock();
    const small = asFrame(Buffer.alloc(160 * 100 * 4, 230));
    const resized = { ...small, width: 160, height: 100, bounds: { x: 0, y: 0, width: 160, height: 100 } };
    const screen = new ScriptedScreen(clock, (index) => (index === 0 ? resized : screenWithBlockAt(0)));
    const settled = await watchUntilSettled(screen, { settings: SETTINGS, comparison: COMPARISON, clock });
    expect(settled.frames).toBe(3);
    expect(settled.frame.width).toBe(WIDTH);
  });

  it("waits for the source's pending work after the first wait and before the first frame, with what is left of the cap", async () => {
    const clock = new VirtualClock();
    const screen = new ScriptedScreen(clock, () => screenWithBlockAt(0));
    const order: string[] = [];
    const settled = await watchUntilSettled(screen, {
      settings: SETTINGS,
      comparison: COMPARISON,
      clock,
      waitForPendingWork: async (remainingMs) => {
        order.push(`pending ${remainingMs} at ${clock.now()} after ${screen.startedAt.length} captures`);
        clock.time += 400;
      },
    });
    expect(order).toEqual(['pending 2970 at 30 after 0 captures']);
    expect(screen.startedAt[0]).toBe(430);
    expect(settled).toMatchObject({ settled: true, frames: 2, waitedMs: 480 });
  });

  it('takes one frame, unsettled, when the pending work used up the whole cap', async () => {
    const clock = new VirtualClock();
    const screen = new ScriptedScreen(clock, () => screenWithBlockAt(0));
    const settled = await watchUntilSettled(screen, {
      settings: SETTINGS,
      comparison: COMPARISON,
      clock,
      waitForPendingWork: async (remainingMs) => {
        clock.time += remainingMs;
      },
    });
    expect(settled).toMatchObject({ settled: false, frames: 1 });
  });

  it('tells the model how long it watched', () => {
    expect(unsettledNotice(3000)).toContain('the screen was still changing after 3 s');
    expect(unsettledNotice(1500)).toContain('after 1500 ms');
  });
});

describe('perception.settle.maxMs', () => {
  it('defaults to 3000 ms and is read from SIGHTLINE_PERCEPTION_SETTLE_MAX_MS', () => {
    expect(DEFAULT_CONFIG.perception.settle.maxMs).toBe(3000);
    const home = homeAt(mkdtempSync(join(tmpdir(), 'sightline-settle-')));
    try {
      const { config } = loadConfig({ home, env: { SIGHTLINE_PERCEPTION_SETTLE_MAX_MS: '1200' } });
      expect(config.perception.settle.maxMs).toBe(1200);
    } finally {
      rmSync(home.root, { recursive: true, force: true });
    }
  });
});
