/**
 * OpenAI's computer tool actions → Sightline's computer actions, over a table of the actions as OpenAI's
 * documentation, types and sample app show them (test/fixtures/openai-computer/computer-calls.ts cites
 * each), plus the arguments' schema: one action or a batch, the batch's bound, the safety checks.
 */
import { describe, expect, it } from 'vitest';
import {
  MAX_BATCHED_ACTIONS,
  OpenAiComputerActionSchema,
  OpenAiComputerArgumentsSchema,
  scrollNotches,
  toComputerAction,
} from '../../src/main/agent/tools/openai-computer-actions.js';
import { ACTION_TABLE, MALICIOUS_INSTRUCTIONS_CHECK } from '../fixtures/openai-computer/computer-calls.js';

const SAME_SIZE = { screenUnitsPerImagePixel: 1 };

function mapped(native: Record<string, unknown>, context = SAME_SIZE) {
  const parsed = OpenAiComputerActionSchema.safeParse(native);
  if (!parsed.success) return { ok: false as const, error: `schema: ${parsed.error.message}` };
  return toComputerAction(parsed.data, context);
}

describe('OpenAI computer actions as computer actions', () => {
  it.each(ACTION_TABLE.filter((entry) => entry.expected !== undefined))('$name ($source)', ({ native, expected }) => {
    expect(mapped(native)).toEqual({ ok: true, action: expected });
  });

  it.each(ACTION_TABLE.filter((entry) => entry.expected === undefined))('$name ($source) is refused with a reason', ({ native }) => {
    const result = mapped(native);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.length).toBeGreaterThan(10);
  });

  it('says why back and forward and held keys cannot be done', () => {
    expect(mapped({ type: 'click', button: 'back', x: 1, y: 1 })).toMatchObject({ ok: false, error: expect.stringContaining('no back button') });
    expect(mapped({ type: 'scroll', x: 1, y: 1, scroll_x: 0, scroll_y: 10, keys: ['CTRL'] })).toMatchObject({
      ok: false,
      error: expect.stringContaining('keys held (CTRL)'),
    });
    expect(mapped({ type: 'keypress', keys: ['CTRL', 'HYPER'] })).toMatchObject({ ok: false, error: expect.stringContaining('unknown key "HYPER"') });
  });

  it('passes coordinates through unchanged: they are pixels of the image sent, the view maps them', () => {
    expect(mapped({ type: 'click', button: 'left', x: 639.5, y: 0 }, { screenUnitsPerImagePixel: 2 })).toEqual({
      ok: true,
      action: { action: 'click', x: 639.5, y: 0 },
    });
  });

  it('turns scroll pixels into notches of 100 screen units, measured on the screen', () => {
    // Shown at half size: 300 pixels of the image are 600 on the screen, six notches.
    expect(scrollNotches(300, { screenUnitsPerImagePixel: 2 })).toBe(6);
    expect(scrollNotches(-149, SAME_SIZE)).toBe(-1);
    expect(scrollNotches(151, SAME_SIZE)).toBe(2);
    expect(scrollNotches(1, SAME_SIZE)).toBe(1);
    expect(scrollNotches(0, SAME_SIZE)).toBe(0);
    expect(scrollNotches(-1e12, SAME_SIZE)).toBe(-100);
  });

  it('refuses what the computer action itself cannot hold', () => {
    expect(mapped({ type: 'keypress', keys: Array.from({ length: 10 }, () => 'x'.repeat(25)) }).ok).toBe(false);
    expect(mapped({ type: 'type', text: '' }).ok).toBe(false);
    expect(mapped({ type: 'click', button: 'left', x: Number.NaN, y: 1 }).ok).toBe(false);
    expect(mapped({ type: 'drag', path: Array.from({ length: 200 }, (_, index) => ({ x: index, y: index })) }).ok).toBe(false);
  });
});

describe('the computer call arguments', () => {
  it('take one action (computer-use-preview) or a batched list (the GA computer tool), not both or neither', () => {
    const click = { type: 'click', button: 'left', x: 1, y: 2 };
    expect(OpenAiComputerArgumentsSchema.safeParse({ action: click, pending_safety_checks: [] }).success).toBe(true);
    expect(OpenAiComputerArgumentsSchema.safeParse({ actions: [click, { type: 'type', text: 'hi' }] }).success).toBe(true);
    expect(OpenAiComputerArgumentsSchema.safeParse({ action: click, actions: [click] }).success).toBe(false);
    expect(OpenAiComputerArgumentsSchema.safeParse({ pending_safety_checks: [] }).success).toBe(false);
    expect(OpenAiComputerArgumentsSchema.safeParse({ actions: [] }).success).toBe(false);
    expect(OpenAiComputerArgumentsSchema.safeParse({ actions: Array.from({ length: MAX_BATCHED_ACTIONS + 1 }, () => click) }).success).toBe(false);
  });

  it('keep the pending safety checks as OpenAI wrote them', () => {
    const parsed = OpenAiComputerArgumentsSchema.parse({ action: { type: 'screenshot' }, pending_safety_checks: [MALICIOUS_INSTRUCTIONS_CHECK] });
    expect(parsed.pending_safety_checks).toEqual([MALICIOUS_INSTRUCTIONS_CHECK]);
    expect(OpenAiComputerArgumentsSchema.parse({ action: { type: 'wait' } }).pending_safety_checks).toEqual([]);
  });

  it('refuse an action OpenAI does not have', () => {
    expect(OpenAiComputerArgumentsSchema.safeParse({ action: { type: 'triple_click', x: 1, y: 1 } }).success).toBe(false);
  });
});
