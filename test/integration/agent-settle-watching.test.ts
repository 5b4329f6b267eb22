/**
 * The screenshot after an action, through the computer tool and the screen recorder with real storage: the
 * screen is watched until it settles, only the settled frame is stored, the step records how it settled,
 * and the model is told when the screen was still changing at the cap. Time is a virtual clock.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as imageEncoding from '../../src/main/perception/image-encoding.js';
import type { ComputerAction } from '../../src/shared/actions.js';
import { DEFAULT_CONFIG } from '../../src/shared/config.js';
import type { ModelView } from '../../src/shared/model-view.js';
import { createEventEmitter } from '../../src/main/agent/event-emitter.js';
import { ScreenRecorder } from '../../src/main/agent/screen-recorder.js';
import { performComputerAction } from '../../src/main/agent/tools/computer-tool.js';
import type { ToolCallScope } from '../../src/main/agent/tools/tool-definition.js';
import type { ActionResult } from '../../src/main/operators/operator.js';
import type { Frame } from '../../src/main/perception/frame.js';
import { computeHash } from '../../src/main/perception/hashes.js';
import { SETTLE_TIMING, type SettleClock } from '../../src/main/perception/settle-watch.js';
import type { Storage } from '../../src/main/storage/index.js';
import { FakeOperator } from '../helpers/fake-operator.js';
import { startDispatchTurn } from '../helpers/hostile-turns.js';
import { createTemporaryHome, openHomeStorage } from '../helpers/seed.js';

// The real encoder, watched: when a frame's PNG starts to be made, against the captures.
vi.mock('../../src/main/perception/image-encoding.js', async (importOriginal) => {
  const actual = await importOriginal<typeof imageEncoding>();
  return { ...actual, encodeLossless: vi.fn(actual.encodeLossless) };
});

const SCREEN = { width: 320, height: 200 };
const CLICK: ComputerAction = { action: 'click', x: 10, y: 10 };

class VirtualClock implements SettleClock {
  time = 0;
  now(): number {
    return this.time;
  }
  async sleep(milliseconds: number): Promise<void> {
    if (milliseconds > 0) this.time += milliseconds;
  }
}

/**
 * The fake screen, plus an animation after each action: a bar that grows for `animationFrames` captures
 * (forever when Infinity) before the screen shows the action's end state. Each capture takes 20 ms.
 */
class AnimatingOperator extends FakeOperator {
  private framesLeft = 0;
  private step = 0;
  readonly captured: Frame[] = [];

  constructor(
    private readonly clock: VirtualClock,
    private readonly animationFrames: number,
  ) {
    super({ screen: SCREEN });
  }

  override async execute(action: ComputerAction, view: ModelView): Promise<ActionResult> {
    const result = await super.execute(action, view);
    this.framesLeft = this.animationFrames;
    return result;
  }

  override async capture(): Promise<Frame> {
    const frame = await super.capture();
    this.clock.time += 20;
    if (this.framesLeft > 0) {
      this.framesLeft -= 1;
      this.step += 1;
      const barWidth = 10 + ((this.step * 13) % 280);
      for (let y = 170; y < 190; y++) frame.rgba.fill(0, (y * SCREEN.width + 10) * 4, (y * SCREEN.width + 10 + barWidth) * 4);
      for (let offset = 3; offset < frame.rgba.length; offset += 4) frame.rgba[offset] = 255;
    }
    this.captured.push(frame);
    return frame;
  }
}

let home: ReturnType<typeof createTemporaryHome>;
let storage: Storage;

beforeEach(() => {
  home = createTemporaryHome('sightline-settle');
  storage = openHomeStorage(home);
});

afterEach(() => {
  storage.close();
  home.remove();
});

async function clickOnce(animationFrames: number, maxMs = 3000): Promise<{ operator: AnimatingOperator; scope: ToolCallScope; result: Awaited<ReturnType<typeof performComputerAction>> }> {
  const clock = new VirtualClock();
  const operator = new AnimatingOperator(clock, animationFrames);
  const emit = createEventEmitter(() => undefined, (text) => text);
  const screen = new ScreenRecorder({
    operator,
    storage,
    dedup: DEFAULT_CONFIG.perception.dedup,
    emit,
    settle: { ...SETTLE_TIMING, maxMs },
    settleClock: clock,
  });
  const scope = await startDispatchTurn(storage, screen, emit, { operator: 'desktop', model: 'fake', size: SCREEN });
  const result = await performComputerAction(CLICK, scope, { operator, screen, policy: 'never', confirm: async () => true });
  return { operator, scope, result };
}

describe('the screenshot after an action', () => {
  it('is the settled frame, stored alone: the frames seen while watching are not', async () => {
    const { operator, scope, result } = await clickOnce(4);
    // The turn's first screenshot, then 4 animated frames and two equal ones after the click.
    expect(operator.captured).toHaveLength(1 + 6);
    const images = storage.images.listByTurn(scope.turnId);
    expect(images).toHaveLength(2);
    const settledFrame = operator.captured.at(-1)!;
    expect(images[1]!.phash).toBe(computeHash(settledFrame, 'phash'));
    expect(result.parts.map((part) => part.type)).toEqual(['text', 'image']);
    expect(result.record?.result).toMatchObject({ ok: true, screenshotImageId: images[1]!.id, settle: { settled: true, frames: 6, maxMs: 3000 } });
  });

  it('is taken at the cap when the screen never stops changing, and the model and the step are told', async () => {
    const { operator, scope, result } = await clickOnce(Infinity, 1000);
    const images = storage.images.listByTurn(scope.turnId);
    expect(images).toHaveLength(2);
    expect(images[1]!.phash).toBe(computeHash(operator.captured.at(-1)!, 'phash'));
    const texts = result.parts.filter((part) => part.type === 'text').map((part) => part.text);
    expect(texts[1]).toContain('the screen was still changing after 1 s');
    expect(result.parts.at(-1)?.type).toBe('image');
    expect(result.record?.result).toMatchObject({ settle: { settled: false, maxMs: 1000 } });
    const settle = (result.record?.result as { settle: { waitedMs: number; frames: number } }).settle;
    expect(settle.waitedMs).toBeLessThan(1000);
    expect(settle.frames).toBe(operator.captured.length - 1);
  });

  it('says "unchanged" after an action that changed nothing, once the screen settled and the unchanged minimum passed', async () => {
    const clock = new VirtualClock();
    const operator = new AnimatingOperator(clock, 2);
    const emit = createEventEmitter(() => undefined, (text) => text);
    const screen = new ScreenRecorder({ operator, storage, dedup: DEFAULT_CONFIG.perception.dedup, emit, settle: { ...SETTLE_TIMING, maxMs: 3000 }, settleClock: clock });
    const scope = await startDispatchTurn(storage, screen, emit, { operator: 'desktop', model: 'fake', size: SCREEN });
    // A move changes nothing in the fake screen; the animation after it ends where it began.
    const result = await performComputerAction({ action: 'move', x: 5, y: 5 }, scope, { operator, screen, policy: 'never', confirm: async () => true });
    expect(storage.images.listByTurn(scope.turnId)).toHaveLength(1);
    // Equal frames that still look like the screen before the action are watched until 500 ms after it.
    expect(result.record).toMatchObject({ result: { unchanged: true, settle: { settled: true, frames: 11, waitedMs: 530 } } });
  });

  it('is watched inside one series of captures when the operator prepares its screen for captures (the app window hidden once)', async () => {
    const clock = new VirtualClock();
    const events: string[] = [];
    const operator = new (class extends AnimatingOperator {
      inSeries = false;
      async aroundCaptures<T>(work: () => Promise<T>): Promise<T> {
        events.push('series starts');
        this.inSeries = true;
        try {
          return await work();
        } finally {
          this.inSeries = false;
          events.push('series ends');
        }
      }
      override async capture(): Promise<Frame> {
        events.push(this.inSeries ? 'capture in series' : 'capture alone');
        return super.capture();
      }
    })(clock, 3);
    const emit = createEventEmitter(() => undefined, (text) => text);
    const screen = new ScreenRecorder({ operator, storage, dedup: DEFAULT_CONFIG.perception.dedup, emit, settle: { ...SETTLE_TIMING, maxMs: 3000 }, settleClock: clock });
    const scope = await startDispatchTurn(storage, screen, emit, { operator: 'desktop', model: 'fake', size: SCREEN });
    const result = await performComputerAction(CLICK, scope, { operator, screen, policy: 'never', confirm: async () => true });
    // The turn's first screenshot is one capture; the watch's five (three animated, two equal) share one series.
    expect(events).toEqual(['capture alone', 'series starts', ...Array(5).fill('capture in series'), 'series ends']);
    expect(result.record?.result).toMatchObject({ settle: { settled: true, frames: 5 } });
  });

  it('is taken at once, unwatched, when no settle settings are given (what tests of fake screens use)', async () => {
    const operator = new FakeOperator({ screen: SCREEN });
    const emit = createEventEmitter(() => undefined, (text) => text);
    const screen = new ScreenRecorder({ operator, storage, dedup: DEFAULT_CONFIG.perception.dedup, emit });
    const scope = await startDispatchTurn(storage, screen, emit, { operator: 'desktop', model: 'fake', size: SCREEN });
    const result = await performComputerAction(CLICK, scope, { operator, screen, policy: 'never', confirm: async () => true });
    expect(operator.captures).toBe(2);
    expect(result.record?.result).not.toHaveProperty('settle');
  });
});

/** A recorder watching `operator` on the virtual clock, with a turn started (its first screenshot taken at once). */
async function watchedTurn(operator: AnimatingOperator, clock: VirtualClock): Promise<{ screen: ScreenRecorder; scope: ToolCallScope }> {
  const emit = createEventEmitter(() => undefined, (text) => text);
  const screen = new ScreenRecorder({ operator, storage, dedup: DEFAULT_CONFIG.perception.dedup, emit, settle: { ...SETTLE_TIMING, maxMs: 3000 }, settleClock: clock });
  const scope = await startDispatchTurn(storage, screen, emit, { operator: 'desktop', model: 'fake', size: SCREEN });
  return { screen, scope };
}

describe('a frame already known to be the settled screen (issue 36: replay at the speed of the screen)', () => {
  it("starts a replayed turn from the last watch's settled frame when a fresh capture is pixel-identical: one capture, no first wait", async () => {
    const clock = new VirtualClock();
    const operator = new AnimatingOperator(clock, 2);
    const { screen, scope } = await watchedTurn(operator, clock);
    await performComputerAction(CLICK, scope, { operator, screen, policy: 'never', confirm: async () => true });
    const settledOn = operator.captured.at(-1)!;
    const before = operator.captured.length;
    const started = clock.time;
    screen.beginTurn({ sessionId: scope.sessionId, turnId: storage.turns.start({ sessionId: scope.sessionId, userRequest: 'next' }).id });
    const first = await screen.capture(true);
    expect(operator.captured.length - before).toBe(1);
    expect(first).toMatchObject({ kind: 'new', settle: { settled: true, frames: 1, waitedMs: 0 } });
    expect(clock.time - started).toBe(20);
    expect(operator.captured.at(-1)!.rgba.equals(settledOn.rgba)).toBe(true);
  });

  it('watches a turn start as before when the screen changed since the last watch settled', async () => {
    const clock = new VirtualClock();
    const operator = new AnimatingOperator(clock, 0);
    const { screen, scope } = await watchedTurn(operator, clock);
    await performComputerAction(CLICK, scope, { operator, screen, policy: 'never', confirm: async () => true });
    // Something outside the turns moved the screen: the next turn's first frames animate again.
    await operator.execute({ action: 'click', x: 1, y: 1 }, scope.shown!.view);
    (operator as unknown as { framesLeft: number }).framesLeft = 2;
    screen.beginTurn({ sessionId: scope.sessionId, turnId: storage.turns.start({ sessionId: scope.sessionId, userRequest: 'next' }).id });
    expect(await screen.capture(true)).toMatchObject({ kind: 'new', settle: { settled: true, frames: 4 } });
  });

  it("settles at the first frame after an action that is pixel-identical to the recording's settled frame", async () => {
    const clock = new VirtualClock();
    // A recorded run of the same screen: what the click led to there.
    const recordedClock = new VirtualClock();
    const recordedOperator = new AnimatingOperator(recordedClock, 0);
    const recorded = await watchedTurn(recordedOperator, recordedClock);
    await performComputerAction(CLICK, recorded.scope, { operator: recordedOperator, screen: recorded.screen, policy: 'never', confirm: async () => true });
    const recordedSettled = recordedOperator.captured.at(-1)!;

    const operator = new AnimatingOperator(clock, 0);
    const { screen, scope } = await watchedTurn(operator, clock);
    screen.expectSettledFrame(recordedSettled);
    const result = await performComputerAction(CLICK, scope, { operator, screen, policy: 'never', confirm: async () => true });
    expect(result.record?.result).toMatchObject({ settle: { settled: true, frames: 1, waitedMs: SETTLE_TIMING.firstWaitMs } });
    // Used once: the next action is watched for a pair again.
    const next = await performComputerAction(CLICK, scope, { operator, screen, policy: 'never', confirm: async () => true });
    expect(next.record?.result).toMatchObject({ settle: { settled: true, frames: 2 } });
  });

  it('watches on when the first frame is only close to the recorded one, and keeps the unchanged minimum when it equals the screen before', async () => {
    const clock = new VirtualClock();
    const operator = new AnimatingOperator(clock, 3);
    const { screen, scope } = await watchedTurn(operator, clock);
    screen.expectSettledFrame(operator.captured.at(-1)!);
    const moved = await performComputerAction({ action: 'move', x: 5, y: 5 }, scope, { operator, screen, policy: 'never', confirm: async () => true });
    // The expected frame is the screen before the move: not settled before 500 ms after it.
    expect(moved.record).toMatchObject({ result: { unchanged: true, settle: { settled: true, waitedMs: 530 } } });
  });
});

describe('the settled frame stored (issue 36, part 4: the step\'s own work)', () => {
  it("starts each watched frame's PNG as it is captured, so the settled one's is made while the watch waits for the next frame", async () => {
    const clock = new VirtualClock();
    const events: string[] = [];
    const operator = new (class extends AnimatingOperator {
      override async capture(): Promise<Frame> {
        events.push('capture');
        return super.capture();
      }
    })(clock, 0);
    const { screen, scope } = await watchedTurn(operator, clock);
    const encode = vi.mocked(imageEncoding.encodeLossless);
    encode.mockClear();
    events.length = 0;
    encode.mockImplementation(async (image) => {
      events.push('encode');
      return (await vi.importActual<typeof imageEncoding>('../../src/main/perception/image-encoding.js')).encodeLossless(image);
    });
    try {
      const result = await performComputerAction(CLICK, scope, { operator, screen, policy: 'never', confirm: async () => true });
      // The first frame's PNG was under way before the second frame was captured, and no third encode was needed to store.
      expect(events).toEqual(['capture', 'encode', 'capture', 'encode']);
      const stored = storage.images.listByTurn(scope.turnId).at(-1)!;
      expect(result.record?.result).toMatchObject({ screenshotImageId: stored.id, settle: { frames: 2 } });
      const read = await storage.images.read(stored.id);
      expect(read.status).toBe('ok');
      const decoded = await imageEncoding.decodeImageBytes((read as { bytes: Buffer }).bytes);
      expect(decoded.rgba.equals(operator.captured.at(-1)!.rgba)).toBe(true);
    } finally {
      encode.mockReset();
      const actual = await vi.importActual<typeof imageEncoding>('../../src/main/perception/image-encoding.js');
      encode.mockImplementation(actual.encodeLossless);
    }
  });

  it('stores the PNG the source gave as it came (a browser\'s DevTools screenshot), not one encoded again', async () => {
    const clock = new VirtualClock();
    const operator = new (class extends AnimatingOperator {
      lastPng: Buffer | undefined;
      override async capture(): Promise<Frame> {
        const frame = await super.capture();
        const actual = await vi.importActual<typeof imageEncoding>('../../src/main/perception/image-encoding.js');
        this.lastPng = await actual.encodeLossless(frame);
        return { ...frame, png: this.lastPng };
      }
    })(clock, 0);
    const { screen, scope } = await watchedTurn(operator, clock);
    const encode = vi.mocked(imageEncoding.encodeLossless);
    encode.mockClear();
    await performComputerAction(CLICK, scope, { operator, screen, policy: 'never', confirm: async () => true });
    expect(encode).not.toHaveBeenCalled();
    const stored = storage.images.listByTurn(scope.turnId).at(-1)!;
    const read = await storage.images.read(stored.id);
    expect((read as { bytes: Buffer }).bytes.equals(operator.lastPng!)).toBe(true);
  });
});
