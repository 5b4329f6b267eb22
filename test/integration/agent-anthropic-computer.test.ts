/**
 * The anthropic-computer dialect through the real agent loop, storage and FakeOperator, with a scripted Claude
 * (test/helpers/scripted-claude-model.ts) standing in for the Anthropic Messages adapter: Claude's computer
 * tool declared natively in the version its profile names, its calls (Anthropic's documented shapes) run
 * through the same pipeline and coordinate mapping as every dialect's (here a 1280x800 screen shown at
 * 640x400), cursor_position and zoom answered by the tool, versions refusing what they lack, the
 * confirmation policy the same as for Sightline's own computer tool, and hostile arguments never breaking a turn.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { scaledLimit } from '../helpers/time-limits.js';
import type { TurnOutcome } from '../../src/main/agent/agent-contract.js';
import { textOfParts, userText, type Message } from '../../src/shared/messages.js';
import { TURN_END_REASONS } from '../../src/shared/statuses.js';
import { computerCall, finishCall, startAgentHarness, type AgentHarness } from '../helpers/agent-harness.js';
import type { InputDriver, MouseButton } from '../../src/main/operators/action-performer.js';
import { DesktopFrameSource, type MonitorLike } from '../../src/main/operators/desktop-frame-source.js';
import { DesktopOperator } from '../../src/main/operators/desktop-operator.js';
import type { KeyChord } from '../../src/main/operators/key-combination.js';
import type { Sleep } from '../../src/main/operators/pause.js';
import { claudeComputer, claudeFinish, scriptedClaude, type ScriptedClaude, type ScriptedClaudeReply } from '../helpers/scripted-claude-model.js';

let harness: AgentHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function startClaude(claude: ScriptedClaude, options: Parameters<typeof startAgentHarness>[0] = {}): Promise<AgentHarness> {
  return startAgentHarness({
    operator: { screen: { width: 1280, height: 800 } },
    ...options,
    config: { ...options.config, perception: { maxImageEdge: 640 } },
    extra: { ...options.extra, model: claude },
  });
}

function toolResults(turnId: string): Array<{ text: string; isError: boolean; images: number }> {
  return harness!.storage.messages
    .listByTurn(turnId)
    .map((record) => record.message as Message)
    .filter((message) => message.role === 'tool')
    .map((message) => ({
      text: textOfParts(message.parts),
      isError: message.role === 'tool' && message.isError === true,
      images: message.parts.filter((part) => part.type === 'image').length,
    }));
}

describe('anthropic-computer: a scripted Claude turn', () => {
  it('declares the native tool at the size of the image sent, and runs its actions through the downscaled view', async () => {
    const claude = scriptedClaude('claude-opus-4-5-20251101', [
      claudeComputer({ action: 'left_click', coordinate: [320, 116] }, 'I will click the Team name field.'),
      claudeComputer({ action: 'type', text: 'Platform' }),
      claudeComputer({ action: 'mouse_move', coordinate: [100, 50] }),
      claudeComputer({ action: 'cursor_position' }),
      claudeComputer({ action: 'double_click' }),
      claudeComputer({ action: 'scroll', coordinate: [320, 200], scroll_direction: 'down', scroll_amount: 3 }),
      claudeComputer({ action: 'key', text: 'Return' }),
      claudeFinish('Named the team Platform.'),
    ]);
    harness = await startClaude(claude);
    const outcome = await harness.agent.runTurn({ request: userText('Name the team Platform.') });

    expect(outcome).toMatchObject({ status: 'finished', summary: 'Named the team Platform.' });
    // Each image pixel is two screen pixels; the mapping lands on the middle of the pixel named (operators/coordinates.ts).
    expect(harness.operator.executed.map((entry) => [entry.action, entry.screen])).toEqual([
      [{ action: 'click', x: 320, y: 116 }, [{ x: 641, y: 233 }]],
      [{ action: 'type', text: 'Platform' }, []],
      [{ action: 'move', x: 100, y: 50 }, [{ x: 201, y: 101 }]],
      [{ action: 'double_click', x: 100, y: 50 }, [{ x: 201, y: 101 }]],
      [{ action: 'scroll', x: 320, y: 200, scroll_x: 0, scroll_y: 3 }, [{ x: 641, y: 401 }]],
      [{ action: 'key', keys: 'Return' }, []],
    ]);
    const tools = claude.requests[0]!.tools!;
    expect(tools.map((tool) => tool.name)).toEqual(['computer', 'finish', 'ask_user', 'get_history_image', 'crop_image']);
    expect(tools[0]!.native).toEqual({ kind: 'anthropic-computer', toolType: 'computer_20251124', displayWidth: 640, displayHeight: 400, enableZoom: true });
    expect(tools.slice(1).every((tool) => tool.native === undefined)).toBe(true);
    const results = toolResults(outcome.turnId);
    expect(results[3]).toEqual({ text: 'X=100,Y=50', isError: false, images: 0 });
    expect(results[0]!.images).toBe(1);
    const system = textOfParts(claude.requests[0]!.messages[0]!.parts);
    expect(system).toContain('Screenshots are 640x400 pixels.');
    expect(system).toContain('Call finish when the task is done');
    expect(system).toContain('<img_');
  });

  it('zooms into the present screen at full resolution: a region of the 640x400 image is 2x as many frame pixels', async () => {
    const claude = scriptedClaude('claude-opus-4-5', [claudeComputer({ action: 'zoom', region: [0, 0, 64, 40] }), claudeFinish()]);
    harness = await startClaude(claude);
    const outcome = await harness.agent.runTurn({ request: userText('Read the corner.') });

    const [zoom] = toolResults(outcome.turnId);
    expect(zoom).toMatchObject({ isError: false, images: 1, text: expect.stringContaining('at full resolution (128x80 pixels)') });
    const crops = harness.storage.images.listByTurn(outcome.turnId).filter((image) => image.source === 'crop');
    expect(crops.map((image) => [image.width, image.height])).toEqual([[128, 80]]);
    expect(harness.operator.executed).toEqual([]);
  });

  it('refuses an action its version lacks, tells the model, and goes on', async () => {
    const claude = scriptedClaude('claude-3-5-sonnet-20241022', [
      claudeComputer({ action: 'scroll', coordinate: [10, 10], scroll_direction: 'down', scroll_amount: 3 }),
      claudeComputer({ action: 'zoom', region: [0, 0, 10, 10] }),
      claudeFinish(),
    ]);
    harness = await startClaude(claude);
    const outcome = await harness.agent.runTurn({ request: userText('Scroll.') });

    expect(claude.requests[0]!.tools![0]!.native).toEqual({ kind: 'anthropic-computer', toolType: 'computer_20241022', displayWidth: 640, displayHeight: 400 });
    expect(toolResults(outcome.turnId).slice(0, 2)).toEqual([
      { text: expect.stringContaining('The scroll action is not supported by computer_20241022'), isError: true, images: 0 },
      { text: expect.stringContaining('The zoom action is not supported by computer_20241022'), isError: true, images: 0 },
    ]);
    expect(harness.operator.executed).toEqual([]);
    expect(outcome.status).toBe('finished');
  });

  it('shift-clicks with shift held, and scrolls with the key held during the scroll', async () => {
    const claude = scriptedClaude('claude-sonnet-4-20250514', [
      claudeComputer({ action: 'left_click', coordinate: [10, 10], text: 'shift' }),
      claudeComputer({ action: 'scroll', coordinate: [10, 10], scroll_direction: 'down', scroll_amount: 1, text: 'ctrl' }),
      claudeFinish(),
    ]);
    harness = await startClaude(claude);
    const outcome = await harness.agent.runTurn({ request: userText('Select a range.') });
    expect(harness.operator.executed.map((entry) => entry.action)).toEqual([
      { action: 'click', x: 10, y: 10, modifiers: 'shift' },
      { action: 'scroll', x: 10, y: 10, scroll_x: 0, scroll_y: 1, modifiers: 'ctrl' },
    ]);
    expect(toolResults(outcome.turnId)[1]).toMatchObject({ isError: false, images: 1 });
    expect(harness.storage.steps.listByTurn(outcome.turnId)[1]!.action).toEqual({ action: 'scroll', x: 10, y: 10, scroll_x: 0, scroll_y: 1, modifiers: 'ctrl' });
  });
});

/**
 * A DesktopOperator on a fake 1280x800 display (scale 1) whose input driver writes down what it is asked to
 * do: the real action performer, mapping and held-button bookkeeping between Claude and the input events.
 */
function recordingDesktop(options: { sleep?: Sleep; onInput?: (entry: string) => void } = {}): { operator: DesktopOperator; log: string[] } {
  const log: string[] = [];
  const pressed = new Set<MouseButton>();
  const write = (entry: string): void => {
    log.push(entry);
    options.onInput?.(entry);
  };
  const keys = (chord: KeyChord): string => chord.map((key) => key.nut).join('+');
  const input: InputDriver = {
    move: async (to) => write(`move ${to.x},${to.y}`),
    click: async (at, button, count) => write(`click ${button}x${count} ${at.x},${at.y}`),
    drag: async (path) => write(`drag ${path.map((point) => `${point.x},${point.y}`).join(' -> ')}`),
    scroll: async (at, notches, held = []) => write(`scroll ${notches.x},${notches.y} at ${at.x},${at.y} holding ${keys(held)}`),
    cannotType: () => undefined,
    type: async (text) => write(`type ${text}`),
    pressChord: async (chord) => write(`chord ${keys(chord)}`),
    holdChord: async (chord, during) => {
      write(`hold ${keys(chord)}`);
      try {
        return await during();
      } finally {
        write(`let go ${keys(chord)}`);
      }
    },
    pressButton: async (button) => {
      pressed.add(button);
      write(`press ${button}`);
    },
    releaseButton: async (button) => {
      pressed.delete(button);
      write(`release ${button}`);
    },
    isPressed: (button) => pressed.has(button),
    releaseHeldButtons: async () => {
      for (const button of [...pressed]) {
        pressed.delete(button);
        write(`release ${button}`);
      }
    },
  };
  const monitor = {
    id: () => 1,
    name: () => 'fake',
    x: () => 0,
    y: () => 0,
    width: () => 1280,
    height: () => 800,
    scaleFactor: () => 1,
    isPrimary: () => true,
    captureImage: async () => ({ width: 1280, height: 800, toRaw: async () => Buffer.alloc(1280 * 800 * 4, 200) }),
  } as unknown as MonitorLike;
  const operator = new DesktopOperator({
    frameSource: new DesktopFrameSource({ displayId: 1, listMonitors: () => [monitor] }),
    input,
    ...(options.sleep === undefined ? {} : { sleep: options.sleep }),
  });
  return { operator, log };
}

describe('anthropic-computer: the button alone, and keys held for a time', () => {
  it('presses, moves and releases the left button in separate calls: the input driver sees a drag', async () => {
    const desktop = recordingDesktop();
    const claude = scriptedClaude('claude-sonnet-4-5', [
      claudeComputer({ action: 'mouse_move', coordinate: [50, 50] }),
      claudeComputer({ action: 'left_mouse_down' }),
      claudeComputer({ action: 'mouse_move', coordinate: [300, 200] }),
      claudeComputer({ action: 'left_mouse_up' }),
      claudeFinish('Moved the card.'),
    ]);
    harness = await startClaude(claude, { extra: { operator: desktop.operator } });
    const outcome = await harness.agent.runTurn({ request: userText('Drag the card to the done column.') });

    expect(outcome).toMatchObject({ status: 'finished', summary: 'Moved the card.' });
    // 640x400 image of a 1280x800 screen: each image pixel is two screen pixels, landing on the middle one.
    expect(desktop.log).toEqual(['move 101,101', 'press left', 'move 601,401', 'release left']);
    expect(toolResults(outcome.turnId).map((result) => result.isError)).toEqual([false, false, false, false, false]);
    expect(harness.storage.steps.listByTurn(outcome.turnId).map((step) => step.action)).toEqual([
      { action: 'move', x: 50, y: 50 },
      { action: 'mouse_down' },
      { action: 'move', x: 300, y: 200 },
      { action: 'mouse_up' },
      { tool: 'finish', arguments: { summary: 'Moved the card.', success: true } },
    ]);
  });

  it('holds a key for the duration asked, and at most 10 s, telling the model when it held less', async () => {
    const slept: number[] = [];
    const desktop = recordingDesktop({ sleep: async (milliseconds) => void slept.push(milliseconds) });
    const claude = scriptedClaude('claude-sonnet-4-5', [
      claudeComputer({ action: 'hold_key', text: 'shift', duration: 2 }),
      claudeComputer({ action: 'hold_key', text: 'Control_L', duration: 30 }),
      claudeFinish(),
    ]);
    harness = await startClaude(claude, { extra: { operator: desktop.operator } });
    const outcome = await harness.agent.runTurn({ request: userText('Hold shift.') });

    expect(desktop.log).toEqual(['hold LeftShift', 'let go LeftShift', 'hold LeftControl', 'let go LeftControl']);
    expect(slept).toEqual([2000, 10_000]);
    const [first, second] = toolResults(outcome.turnId);
    expect(first).toMatchObject({ isError: false, text: expect.stringContaining('held shift for 2 s, then released') });
    expect(second).toMatchObject({ isError: false, text: expect.stringContaining('the longest one hold_key may hold them here, not the 30 s asked for') });
    expect(harness.storage.steps.listByTurn(outcome.turnId)[1]!.action).toEqual({ action: 'hold_key', keys: 'ctrl', seconds: 10 });
  });

  it('releases a button left down when the turn finishes, is stopped, or fails', async () => {
    const stop = new AbortController();
    const desktop = recordingDesktop({ onInput: (entry) => entry === 'press left' && desktop.log.length > 3 && stop.abort() });
    const claude = scriptedClaude('claude-sonnet-4-5', [
      // Finished with the button down.
      claudeComputer({ action: 'left_mouse_down', coordinate: [10, 10] }),
      claudeFinish(),
      // Stopped by the user while the button is down.
      claudeComputer({ action: 'left_mouse_down', coordinate: [20, 20] }),
      // Failed (the model has no more replies) with the button down.
      claudeComputer({ action: 'left_mouse_down', coordinate: [30, 30] }),
    ]);
    harness = await startClaude(claude, { extra: { operator: desktop.operator } });

    const finished = await harness.agent.runTurn({ request: userText('Press and finish.') });
    expect(finished.status).toBe('finished');
    expect(desktop.log).toEqual(['move 21,21', 'press left', 'release left']);

    const stopped = await harness.agent.runTurn({ request: userText('Press and be stopped.'), signal: stop.signal });
    expect(stopped.status).toBe('stopped');
    expect(desktop.log.slice(3)).toEqual(['move 41,41', 'press left', 'release left']);

    const failed = await harness.agent.runTurn({ request: userText('Press and fail.') });
    expect(failed.status).toBe('failed');
    expect(desktop.log.slice(6)).toEqual(['move 61,61', 'press left', 'release left']);
  });

  it('lets go of held keys as soon as the turn is stopped, not when the hold would have ended', async () => {
    const stop = new AbortController();
    // The hold's sleep ends only when the stop cuts it short: no clock decides, however loaded the machine.
    const slept: string[] = [];
    const sleep: Sleep = (milliseconds, signal) => {
      if (signal === undefined) {
        slept.push(`${milliseconds} ms, not stoppable`);
        return Promise.resolve();
      }
      return new Promise((resolve) => {
        const cut = (): void => {
          slept.push(`${milliseconds} ms, cut short by the stop`);
          resolve();
        };
        if (signal.aborted) cut();
        else signal.addEventListener('abort', cut, { once: true });
      });
    };
    const desktop = recordingDesktop({ sleep, onInput: (entry) => entry === 'hold LeftShift' && void stop.abort() });
    const claude = scriptedClaude('claude-sonnet-4-5', [claudeComputer({ action: 'hold_key', text: 'shift', duration: 10 }), claudeFinish()]);
    harness = await startClaude(claude, { extra: { operator: desktop.operator } });
    const outcome = await harness.agent.runTurn({ request: userText('Hold shift.'), signal: stop.signal });

    expect(outcome.status).toBe('stopped');
    expect(slept).toEqual(['10000 ms, cut short by the stop']);
    expect(desktop.log).toEqual(['hold LeftShift', 'let go LeftShift']);
  });
});

describe('anthropic-computer: the confirmation policy', () => {
  /** What a refused ctrl+w leaves behind: what was asked, what ran, what the step says, what the model was told. */
  async function refusedCloseTab(start: () => Promise<AgentHarness>) {
    const own = await start();
    try {
      const outcome = await own.agent.runTurn({ request: userText('Close the tab') });
      const [step] = own.storage.steps.listByTurn(outcome.turnId);
      const refusal = own.storage.messages
        .listByTurn(outcome.turnId)
        .map((record) => record.message as Message)
        .find((message) => message.role === 'tool' && message.isError === true);
      return {
        confirmations: own.confirmations.map(({ action, reason }) => ({ action, reason })),
        executed: own.operator.executed,
        step: { action: step!.action, error: step!.error },
        refusal: refusal === undefined ? '' : textOfParts(refusal.parts),
      };
    } finally {
      await own.close();
    }
  }

  it("refuses a ctrl+w from Claude's key action exactly as one from Sightline's computer tool", async () => {
    const fromComputerTool = await refusedCloseTab(async () => {
      const own = await startAgentHarness({ confirm: async () => false });
      own.server.script([computerCall({ action: 'key', keys: 'ctrl+w' }), finishCall('Kept the tab.', false)]);
      return own;
    });
    const fromClaude = await refusedCloseTab(() =>
      startAgentHarness({
        confirm: async () => false,
        extra: { model: scriptedClaude('claude-sonnet-4-5', [claudeComputer({ action: 'key', text: 'ctrl+w' }), claudeFinish('Kept the tab.', false)]) },
      }),
    );
    expect(fromComputerTool.confirmations).toEqual([{ action: { action: 'key', keys: 'ctrl+w' }, reason: 'key combination ctrl+w may close a window or tab' }]);
    expect(fromComputerTool.executed).toEqual([]);
    expect(fromComputerTool.refusal).toContain('the user refused this action: key combination ctrl+w may close a window or tab');
    expect(fromClaude).toEqual(fromComputerTool);
  });

  it('judges a ctrl+w held by hold_key as the key press: asked, refused, never pressed', async () => {
    const held = await refusedCloseTab(() =>
      startAgentHarness({
        confirm: async () => false,
        extra: { model: scriptedClaude('claude-sonnet-4-5', [claudeComputer({ action: 'hold_key', text: 'ctrl+w', duration: 1 }), claudeFinish('Kept the tab.', false)]) },
      }),
    );
    expect(held.confirmations).toEqual([{ action: { action: 'hold_key', keys: 'ctrl+w', seconds: 1 }, reason: 'key combination ctrl+w may close a window or tab' }]);
    expect(held.executed).toEqual([]);
    expect(held.step).toEqual({ action: { action: 'hold_key', keys: 'ctrl+w', seconds: 1 }, error: expect.stringContaining('refused') });
    expect(held.refusal).toContain('the user refused this action: key combination ctrl+w may close a window or tab');
  });
});

describe('anthropic-computer: hostile arguments', () => {
  /** A small seeded generator (mulberry32), so a failure names its seed and replays. */
  function random(seed: number): () => number {
    let state = seed;
    return () => {
      state = (state + 0x6d2b79f5) | 0;
      let value = Math.imul(state ^ (state >>> 15), 1 | state);
      value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
      return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
    };
  }

  function hostileReply(next: () => number): ScriptedClaudeReply {
    const pick = <T,>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
    const number = () => pick([Math.round(next() * 640), -5, 10_000, 1e308, 0.5, Number.MAX_SAFE_INTEGER]);
    const coordinate = () => pick([[number(), number()], ['12', 40], [1], null, 'left', [NaN, 1]]);
    const inputs: unknown[] = [
      { action: pick(['left_click', 'right_click', 'double_click', 'triple_click', 'middle_click', 'mouse_move']), coordinate: coordinate() },
      { action: 'left_click_drag', start_coordinate: coordinate(), coordinate: coordinate() },
      { action: 'scroll', coordinate: coordinate(), scroll_direction: pick(['up', 'down', 'sideways', 3]), scroll_amount: pick([3, -1, 1e9, 'many']) },
      { action: 'type', text: pick(['hello', '', 'x'.repeat(1_048_576), 42]) },
      { action: 'key', text: pick(['ctrl+s', 'Hyper_Q', '++', '', 'a '.repeat(300)]) },
      { action: 'zoom', region: pick([[0, 0, 64, 40], [-10, -10, 5000, 5000], [5, 5, 5, 5], 'all']) },
      { action: pick(['teleport', 'left_mouse_down', 'hold_key', 'wait', 'cursor_position', 'screenshot']), duration: pick([1, -1, 1e6]) },
      '{"action": "left_click", "coordinate": [1, ',
      'not json at all',
      { coordinate: [1, 1] },
    ];
    if (next() < 0.1) return claudeFinish('Stopped.');
    return claudeComputer(pick(inputs));
  }

  // Thirty turns of hostile replies (a megabyte of text among them) is CPU work: its limit scales with the load.
  it('never breaks a turn, never acts off the screen, never runs more actions than steps', { timeout: scaledLimit(30_000) }, async () => {
    const seed = 14;
    const next = random(seed);
    const maxSteps = 6;
    const replies = Array.from({ length: 400 }, () => hostileReply(next));
    harness = await startClaude(scriptedClaude('claude-opus-4-5', replies), { config: { agent: { maxSteps } } });
    const failures: string[] = [];
    for (let turn = 0; turn < 30; turn += 1) {
      const before = harness.operator.executed.length;
      let outcome: TurnOutcome;
      try {
        outcome = await harness.agent.runTurn({ request: userText(`Hostile turn ${turn}`) });
      } catch (error) {
        failures.push(`turn ${turn} threw: ${String(error)}`);
        continue;
      }
      if (!TURN_END_REASONS.includes(outcome.reason)) failures.push(`turn ${turn}: unknown reason ${outcome.reason}`);
      if (harness.operator.executed.length - before > maxSteps) failures.push(`turn ${turn}: more actions than steps`);
    }
    const offScreen = harness.operator.executed.filter((entry) => entry.screen.some((point) => point.x < 0 || point.y < 0 || point.x > 1280 || point.y > 800));
    expect(failures, `seed ${seed}`).toEqual([]);
    expect(offScreen, `seed ${seed}`).toEqual([]);
    expect(harness.operator.executed.length).toBeGreaterThan(0);
  });
});
