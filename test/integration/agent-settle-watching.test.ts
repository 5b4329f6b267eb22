/**
 * The screenshot after an action, through the computer tool and the screen recorder with real storage: the
 * screen is watched until it settles, only the settled frame is stored, the step records how it settled,
 * and the model is told when the screen was still changing at the cap. Time is a virtual clock.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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
