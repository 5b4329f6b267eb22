/**
 * Claude's computer tool calls → Sightline's computer actions, per tool version. The calls are the examples
 * of Anthropic's computer use tool documentation (https://docs.claude.com/en/docs/agents-and-tools/tool-use/
 * computer-use-tool, "Available actions" and its per-version example actions) and the actions of the
 * reference implementation (anthropics/anthropic-quickstarts, computer-use-demo/computer_use_demo/tools/
 * computer.py: xdotool `key -- <text>`, scroll buttons 4–7 repeated scroll_amount times, left_click_drag
 * from start_coordinate to coordinate).
 */
import { describe, expect, it } from 'vitest';
import {
  CLAUDE_ACTIONS_BY_VERSION,
  ClaudeComputerArgumentsSchema,
  translateClaudeAction,
  type ClaudeComputerToolType,
  type ClaudePointerState,
} from '../../src/main/agent/tools/claude-computer-translation.js';
import { frameBox } from '../../src/main/agent/tools/frame-box.js';
import { parseKeyCombinations } from '../../src/main/operators/key-combination.js';
import { MAX_HOLD_SECONDS } from '../../src/shared/actions.js';

const UNPLACED: ClaudePointerState = { pointer: undefined, centre: { x: 640, y: 400 } };
const PLACED: ClaudePointerState = { pointer: { x: 100, y: 200 }, centre: { x: 640, y: 400 } };

function step(input: Record<string, unknown>, toolType: ClaudeComputerToolType = 'computer_20251124', state = UNPLACED) {
  return translateClaudeAction(ClaudeComputerArgumentsSchema.parse(input), toolType, state);
}

describe('translateClaudeAction: every action of computer_20241022', () => {
  it.each([
    [{ action: 'key', text: 'Return' }, { action: 'key', keys: 'Return' }],
    [{ action: 'key', text: 'ctrl+s' }, { action: 'key', keys: 'ctrl+s' }],
    [{ action: 'key', text: 'alt+Tab' }, { action: 'key', keys: 'alt+Tab' }],
    [{ action: 'key', text: 'super' }, { action: 'key', keys: 'super' }],
    [{ action: 'key', text: 'KP_Enter' }, { action: 'key', keys: 'KP_Enter' }],
    [{ action: 'key', text: 'KP_0' }, { action: 'key', keys: '0' }],
    [{ action: 'key', text: 'Control_L+a' }, { action: 'key', keys: 'ctrl+a' }],
    [{ action: 'key', text: 'ctrl+a BackSpace' }, { action: 'key', keys: 'ctrl+a BackSpace' }],
    [{ action: 'type', text: 'Hello, world!' }, { action: 'type', text: 'Hello, world!' }],
    [{ action: 'mouse_move', coordinate: [500, 300] }, { action: 'move', x: 500, y: 300 }],
    [{ action: 'left_click', coordinate: [500, 300] }, { action: 'click', x: 500, y: 300 }],
    [{ action: 'right_click', coordinate: [500, 300] }, { action: 'right_click', x: 500, y: 300 }],
    [{ action: 'middle_click', coordinate: [500, 300] }, { action: 'middle_click', x: 500, y: 300 }],
    [{ action: 'double_click', coordinate: [500, 300] }, { action: 'double_click', x: 500, y: 300 }],
    [{ action: 'left_click_drag', coordinate: [300, 300] }, { action: 'drag', x: 100, y: 200, to_x: 300, to_y: 300 }],
    [{ action: 'screenshot' }, { action: 'screenshot' }],
  ])('%j → %j', (input, action) => {
    expect(step(input, 'computer_20241022', PLACED)).toEqual({ kind: 'act', action });
  });

  it('clicks where the pointer is when no coordinate is given (mouse_move, then left_click)', () => {
    expect(step({ action: 'left_click' }, 'computer_20241022', PLACED)).toEqual({ kind: 'act', action: { action: 'click', x: 100, y: 200 } });
    const refused = step({ action: 'left_click' }, 'computer_20241022', UNPLACED);
    expect(refused).toMatchObject({ kind: 'refuse', message: expect.stringContaining('no earlier action has placed it') });
  });

  it('answers cursor_position itself', () => {
    expect(step({ action: 'cursor_position' }, 'computer_20241022')).toEqual({ kind: 'cursor-position' });
  });

  it('every key it produces is one the operators know', () => {
    for (const text of ['Return', 'ctrl+s', 'alt+Tab', 'super', 'KP_Enter', 'KP_0', 'Control_L+a', 'Page_Down', 'Escape', 'ctrl+shift+t', 'Super_L', 'KP_Add']) {
      const translated = step({ action: 'key', text });
      expect(translated.kind, text).toBe('act');
      if (translated.kind === 'act' && translated.action.action === 'key') expect(parseKeyCombinations(translated.action.keys).ok, text).toBe(true);
    }
  });
});

describe('translateClaudeAction: what computer_20250124 adds', () => {
  it.each([
    [{ action: 'scroll', coordinate: [500, 400], scroll_direction: 'down', scroll_amount: 3 }, { action: 'scroll', x: 500, y: 400, scroll_x: 0, scroll_y: 3 }],
    [{ action: 'scroll', coordinate: [500, 400], scroll_direction: 'up', scroll_amount: 5 }, { action: 'scroll', x: 500, y: 400, scroll_x: 0, scroll_y: -5 }],
    [{ action: 'scroll', coordinate: [500, 400], scroll_direction: 'left', scroll_amount: 2 }, { action: 'scroll', x: 500, y: 400, scroll_x: -2, scroll_y: 0 }],
    [{ action: 'scroll', coordinate: [500, 400], scroll_direction: 'right', scroll_amount: 2 }, { action: 'scroll', x: 500, y: 400, scroll_x: 2, scroll_y: 0 }],
    [{ action: 'scroll', scroll_direction: 'down', scroll_amount: 1 }, { action: 'scroll', x: 640, y: 400, scroll_x: 0, scroll_y: 1 }],
    [{ action: 'scroll', coordinate: [1, 2], scroll_direction: 'down', scroll_amount: 500 }, { action: 'scroll', x: 1, y: 2, scroll_x: 0, scroll_y: 100 }],
    [{ action: 'triple_click', coordinate: [500, 300] }, { action: 'triple_click', x: 500, y: 300 }],
    [{ action: 'left_click_drag', start_coordinate: [100, 100], coordinate: [300, 300] }, { action: 'drag', x: 100, y: 100, to_x: 300, to_y: 300 }],
    [{ action: 'wait', duration: 2 }, { action: 'wait', seconds: 2 }],
    [{ action: 'wait', duration: 600 }, { action: 'wait', seconds: 60 }],
    [{ action: 'left_click', coordinate: [500, 300], text: null }, { action: 'click', x: 500, y: 300 }],
  ])('%j → %j', (input, action) => {
    expect(step(input, 'computer_20250124')).toEqual({ kind: 'act', action });
  });

  it('holds the modifiers named in `text` during a click (shift-click, ctrl-click)', () => {
    expect(step({ action: 'left_click', coordinate: [500, 300], text: 'shift' }, 'computer_20250124')).toEqual({ kind: 'act', action: { action: 'click', x: 500, y: 300, modifiers: 'shift' } });
    expect(step({ action: 'left_click', coordinate: [500, 300], text: 'ctrl' }, 'computer_20250124')).toEqual({ kind: 'act', action: { action: 'click', x: 500, y: 300, modifiers: 'ctrl' } });
    expect(step({ action: 'right_click', coordinate: [5, 6], text: 'Control_L+shift' }, 'computer_20250124')).toEqual({ kind: 'act', action: { action: 'right_click', x: 5, y: 6, modifiers: 'ctrl+shift' } });
    expect(step({ action: 'double_click', text: 'alt' }, 'computer_20250124', PLACED)).toEqual({ kind: 'act', action: { action: 'double_click', x: 100, y: 200, modifiers: 'alt' } });
  });

  it('holds the modifiers named in `text` during a scroll (ctrl-scroll zooms, shift-scroll goes sideways)', () => {
    expect(step({ action: 'scroll', coordinate: [500, 400], scroll_direction: 'down', scroll_amount: 3, text: 'ctrl' }, 'computer_20250124')).toEqual({
      kind: 'act',
      action: { action: 'scroll', x: 500, y: 400, scroll_x: 0, scroll_y: 3, modifiers: 'ctrl' },
    });
    expect(step({ action: 'scroll', scroll_direction: 'up', scroll_amount: 1, text: 'Shift_L' }, 'computer_20250124', PLACED)).toEqual({
      kind: 'act',
      action: { action: 'scroll', x: 100, y: 200, scroll_x: 0, scroll_y: -1, modifiers: 'shift' },
    });
  });

  it('refuses keys that are not modifiers during a click or a scroll, rather than acting without them', () => {
    expect(step({ action: 'left_click', coordinate: [500, 300], text: 'a' }, 'computer_20250124')).toEqual({
      kind: 'refuse',
      message: 'The keys to hold during left_click (`text`) cannot be held: modifiers may hold only ctrl, shift, alt or cmd, not "a". Nothing was done.',
    });
    expect(step({ action: 'left_click', coordinate: [500, 300], text: 'Hyper_Q' }, 'computer_20250124')).toMatchObject({ kind: 'refuse', message: expect.stringContaining('unknown key "Hyper_Q"') });
    // Names of Object.prototype's members are no xdotool names: passed on as written, for the key parser to refuse.
    expect(step({ action: 'key', text: 'ctrl+constructor' })).toEqual({ kind: 'act', action: { action: 'key', keys: 'ctrl+constructor' } });
    expect(step({ action: 'scroll', coordinate: [500, 400], scroll_direction: 'down', scroll_amount: 3, text: 'ctrl+w' }, 'computer_20250124')).toEqual({
      kind: 'refuse',
      message: 'The keys to hold during scroll (`text`) cannot be held: modifiers may hold only ctrl, shift, alt or cmd, not "w". Nothing was done.',
    });
  });

  it('presses and releases the left button alone: left_mouse_down and left_mouse_up are mouse_down and mouse_up', () => {
    expect(step({ action: 'left_mouse_down' }, 'computer_20250124')).toEqual({ kind: 'act', action: { action: 'mouse_down' } });
    expect(step({ action: 'left_mouse_up', coordinate: null }, 'computer_20250124')).toEqual({ kind: 'act', action: { action: 'mouse_up' } });
    // The reference tool takes no coordinate; one is honoured (the press moves there first), as on clicks.
    expect(step({ action: 'left_mouse_down', coordinate: [10, 20] }, 'computer_20251124')).toEqual({ kind: 'act', action: { action: 'mouse_down', x: 10, y: 20 } });
    expect(step({ action: 'left_mouse_up', coordinate: [30, 40] }, 'computer_20251124')).toEqual({ kind: 'act', action: { action: 'mouse_up', x: 30, y: 40 } });
  });

  it('holds keys for the duration asked, in Sightline key names, at most MAX_HOLD_SECONDS, and says so when it holds less', () => {
    expect(step({ action: 'hold_key', text: 'shift', duration: 1 }, 'computer_20250124')).toEqual({ kind: 'act', action: { action: 'hold_key', keys: 'shift', seconds: 1 } });
    expect(step({ action: 'hold_key', text: 'Control_L+a', duration: 0.5 }, 'computer_20250124')).toEqual({ kind: 'act', action: { action: 'hold_key', keys: 'ctrl+a', seconds: 0.5 } });
    expect(step({ action: 'hold_key', text: 'space', duration: MAX_HOLD_SECONDS }, 'computer_20250124')).toEqual({ kind: 'act', action: { action: 'hold_key', keys: 'space', seconds: MAX_HOLD_SECONDS } });
    expect(step({ action: 'hold_key', text: 'shift', duration: 30 }, 'computer_20250124')).toEqual({
      kind: 'act',
      action: { action: 'hold_key', keys: 'shift', seconds: 10 },
      notice: 'The keys were held for 10 s, the longest one hold_key may hold them here, not the 30 s asked for.',
    });
  });

  it('refuses a hold_key without its keys or its duration', () => {
    expect(step({ action: 'hold_key', duration: 1 }, 'computer_20250124')).toMatchObject({ kind: 'refuse', message: expect.stringContaining('hold_key needs the key or combination to hold in `text`') });
    expect(step({ action: 'hold_key', text: ' ', duration: 1 }, 'computer_20250124')).toMatchObject({ kind: 'refuse', message: expect.stringContaining('in `text`') });
    expect(step({ action: 'hold_key', text: 'shift' }, 'computer_20250124')).toMatchObject({ kind: 'refuse', message: expect.stringContaining('hold_key needs `duration`') });
  });

  it('refuses a scroll without its direction or amount', () => {
    expect(step({ action: 'scroll', coordinate: [1, 1], scroll_amount: 3 }, 'computer_20250124')).toMatchObject({ kind: 'refuse', message: expect.stringContaining('scroll_direction') });
    expect(step({ action: 'scroll', coordinate: [1, 1], scroll_direction: 'up' }, 'computer_20250124')).toMatchObject({ kind: 'refuse', message: expect.stringContaining('scroll_amount') });
  });
});

describe('translateClaudeAction: zoom (computer_20251124)', () => {
  it('is a region of the screen, corners in any order', () => {
    expect(step({ action: 'zoom', region: [0, 0, 400, 300] })).toEqual({ kind: 'zoom', region: { left: 0, top: 0, right: 400, bottom: 300 } });
    expect(step({ action: 'zoom', region: [400, 300, 10.4, 20.6] })).toEqual({ kind: 'zoom', region: { left: 10, top: 21, right: 400, bottom: 300 } });
    expect(step({ action: 'zoom', region: [5, 5, 5, 50] })).toMatchObject({ kind: 'refuse' });
    expect(step({ action: 'zoom' })).toMatchObject({ kind: 'refuse', message: expect.stringContaining('region') });
  });

  it('maps a region of a downscaled image to the frame, and of a HiDPI frame to its device pixels', () => {
    // 1280x800 screen shown at 640x400: each image pixel is two frame pixels.
    expect(frameBox({ left: 10, top: 20, right: 110, bottom: 70 }, { width: 640, height: 400 }, { width: 1280, height: 800 })).toEqual({ left: 20, top: 40, right: 220, bottom: 140 });
    // An 800x500 screen at scale factor 2 (1600x1000 frame) shown at 1568x980.
    expect(frameBox({ left: 0, top: 0, right: 784, bottom: 490 }, { width: 1568, height: 980 }, { width: 1600, height: 1000 })).toEqual({ left: 0, top: 0, right: 800, bottom: 500 });
    // Never outside the frame, never empty.
    expect(frameBox({ left: 639, top: 399, right: 640, bottom: 400 }, { width: 640, height: 400 }, { width: 1280, height: 800 })).toEqual({ left: 1278, top: 798, right: 1280, bottom: 800 });
  });
});

describe('translateClaudeAction: versions refuse what they lack, as the tool would', () => {
  const added20250124 = ['scroll', 'left_mouse_down', 'left_mouse_up', 'hold_key', 'wait', 'triple_click'];
  it.each(added20250124)('computer_20241022 refuses %s', (action) => {
    expect(step({ action, coordinate: [1, 1], scroll_direction: 'down', scroll_amount: 1 }, 'computer_20241022')).toEqual({
      kind: 'refuse',
      message: expect.stringMatching(new RegExp(`^The ${action} action is not supported by computer_20241022; its actions are key, type, .*cursor_position\\. Nothing was done\\.$`)),
    });
  });

  it('computer_20241022 and computer_20250124 refuse zoom', () => {
    for (const toolType of ['computer_20241022', 'computer_20250124'] as const) {
      expect(step({ action: 'zoom', region: [0, 0, 10, 10] }, toolType)).toMatchObject({ kind: 'refuse', message: expect.stringContaining(`The zoom action is not supported by ${toolType}`) });
    }
  });

  it('each version has the actions of the one before it', () => {
    expect(CLAUDE_ACTIONS_BY_VERSION.computer_20250124).toEqual(expect.arrayContaining([...CLAUDE_ACTIONS_BY_VERSION.computer_20241022]));
    expect(CLAUDE_ACTIONS_BY_VERSION.computer_20251124).toEqual([...CLAUDE_ACTIONS_BY_VERSION.computer_20250124, 'zoom']);
  });
});

describe('ClaudeComputerArgumentsSchema', () => {
  it('rejects unknown actions, unknown fields and non-numeric coordinates', () => {
    expect(ClaudeComputerArgumentsSchema.safeParse({ action: 'teleport' }).success).toBe(false);
    expect(ClaudeComputerArgumentsSchema.safeParse({ action: 'left_click', coordinate: ['a', 1] }).success).toBe(false);
    expect(ClaudeComputerArgumentsSchema.safeParse({ action: 'left_click', coordinate: [1] }).success).toBe(false);
    expect(ClaudeComputerArgumentsSchema.safeParse({ action: 'left_click', x: 1 }).success).toBe(false);
  });

  it('refuses a megabyte of text rather than typing it', () => {
    expect(step({ action: 'type', text: 'x'.repeat(1_000_000) })).toMatchObject({ kind: 'refuse' });
    expect(step({ action: 'key', text: 'a '.repeat(500_000) })).toMatchObject({ kind: 'refuse' });
  });
});

describe('translateClaudeAction: the computer toolset (computer_toolset_20260801)', () => {
  // Anthropic's computer use tool page, "Available actions": the 17 members, and `repeat` (1 to 100) on key.
  it('has every action of computer_20251124, each a member', () => {
    expect(CLAUDE_ACTIONS_BY_VERSION.computer_toolset_20260801).toEqual(CLAUDE_ACTIONS_BY_VERSION.computer_20251124);
    expect(step({ action: 'zoom', region: [0, 0, 10, 10] }, 'computer_toolset_20260801')).toEqual({ kind: 'zoom', region: { left: 0, top: 0, right: 10, bottom: 10 } });
  });

  it('presses a key `repeat` times, and refuses a repeat outside 1 to 100 as the schema does', () => {
    expect(step({ action: 'key', text: 'Down', repeat: 3 }, 'computer_toolset_20260801')).toEqual({ kind: 'act', action: { action: 'key', keys: 'Down Down Down' } });
    expect(step({ action: 'key', text: 'Return' }, 'computer_toolset_20260801')).toEqual({ kind: 'act', action: { action: 'key', keys: 'Return' } });
    expect(ClaudeComputerArgumentsSchema.safeParse({ action: 'key', text: 'a', repeat: 0 }).success).toBe(false);
    expect(ClaudeComputerArgumentsSchema.safeParse({ action: 'key', text: 'a', repeat: 101 }).success).toBe(false);
  });
});
