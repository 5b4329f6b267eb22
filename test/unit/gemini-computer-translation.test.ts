/**
 * Gemini's computer_use functions as Sightline's computer actions, and where their points land through the one
 * coordinate mapping. The mapping is pinned with Google's own published example: the computer-use guide
 * (https://ai.google.dev/gemini-api/docs/computer-use, "Execute the received actions") sizes the screen at
 * SCREEN_WIDTH = 1440, SCREEN_HEIGHT = 900 and denormalizes with `int(x / 1000 * screen_width)`, and its table
 * of Gemini 2.5 actions gives `{"name": "click_at", "arguments": {"y": 300, "x": 500}}`: pixel (720, 270).
 */
import { describe, expect, it } from 'vitest';
import {
  excludedGeminiFunctions,
  GeminiComputerArgumentsSchema,
  geminiSafetyDecisionOf,
  translateGeminiCall,
} from '../../src/main/agent/tools/gemini-computer-translation.js';
import { createGeminiComputerTools } from '../../src/main/agent/tools/gemini-computer-tools.js';
import { toGeminiTools } from '../../src/main/llm/gemini-tools.js';
import { resolveModelProfile } from '../../src/main/llm/model-profiles.js';
import { mapModelPoint, type FrameGeometry } from '../../src/main/operators/coordinates.js';
import type { ModelView } from '../../src/shared/model-view.js';

const CONTEXT = { screenWidth: 1440, screenHeight: 900, selectAll: 'ctrl+a' };

function geometry(width: number, height: number, scaleFactor = 1): FrameGeometry {
  return { width, height, scaleFactor, bounds: { x: 0, y: 0, width: width / scaleFactor, height: height / scaleFactor } };
}

function normalizedView(frame: FrameGeometry, imageWidth: number, imageHeight: number): ModelView {
  return { frameWidth: frame.width, frameHeight: frame.height, imageWidth, imageHeight, coordinateSpace: 'normalized-1000' };
}

function pointOf(name: string, args: Record<string, unknown>): { x: number; y: number } {
  const step = translateGeminiCall(name, args, CONTEXT);
  if (step.kind !== 'act') throw new Error(step.message);
  const action = step.actions[0]!;
  if (!('x' in action) || action.x === undefined || action.y === undefined) throw new Error(`${action.action} has no point`);
  return { x: action.x, y: action.y };
}

describe("Gemini's 0–999 grid through the one coordinate mapping", () => {
  it("lands Google's published click_at example where Google's own denormalization puts it", () => {
    expect(resolveModelProfile('gemini-2.5-computer-use-preview-10-2025').coordinateSpace).toBe('normalized-1000');
    const frame = geometry(1440, 900);
    const point = pointOf('click_at', { y: 300, x: 500 });
    expect(mapModelPoint(point, normalizedView(frame, 1440, 900), frame)).toEqual({ ok: true, framePixel: { x: 720, y: 270 }, screen: { x: 720, y: 270 } });
  });

  it('lands the same point on a HiDPI screen and when the screenshot was sent downscaled', () => {
    // A 2x display: the frame has twice the pixels, the screen point is the same.
    const retina = geometry(2880, 1800, 2);
    expect(mapModelPoint(pointOf('click', { x: 500, y: 300, intent: 'Click.' }), normalizedView(retina, 1280, 800), retina)).toMatchObject({
      framePixel: { x: 1440, y: 540 },
      screen: { x: 720, y: 270 },
    });
  });

  it('reads both sets: drag_and_drop in its 2.5 and 3.5 shapes, scroll magnitudes on the grid, keys as one combination', () => {
    expect(translateGeminiCall('drag_and_drop', { x: 100, y: 100, destination_x: 500, destination_y: 500 }, CONTEXT)).toEqual({
      kind: 'act',
      actions: [{ action: 'drag', x: 100, y: 100, to_x: 500, to_y: 500 }],
    });
    expect(translateGeminiCall('drag_and_drop', { start_x: 1, start_y: 2, end_x: 3, end_y: 4, intent: 'Move it.' }, CONTEXT)).toEqual({
      kind: 'act',
      actions: [{ action: 'drag', x: 1, y: 2, to_x: 3, to_y: 4 }],
    });
    // scroll_at's default magnitude 800 of a 900-pixel-high screen: 720 pixels, about 7 notches of 100.
    expect(translateGeminiCall('scroll_at', { x: 500, y: 500, direction: 'down' }, CONTEXT)).toEqual({
      kind: 'act',
      actions: [{ action: 'scroll', x: 500, y: 500, scroll_x: 0, scroll_y: 7 }],
    });
    expect(translateGeminiCall('key_combination', { keys: 'Control+A' }, CONTEXT)).toEqual({ kind: 'act', actions: [{ action: 'key', keys: 'Control+A' }] });
    expect(translateGeminiCall('hotkey', { keys: ['ctrl', 'shift', 't'] }, CONTEXT)).toEqual({ kind: 'act', actions: [{ action: 'key', keys: 'ctrl+shift+t' }] });
  });

  it('types at a point: a click, the field cleared, the text, and Enter only when asked', () => {
    expect(translateGeminiCall('type_text_at', { x: 10, y: 20, text: 'hi', press_enter: true }, CONTEXT)).toEqual({
      kind: 'act',
      actions: [{ action: 'click', x: 10, y: 20 }, { action: 'key', keys: 'ctrl+a BackSpace' }, { action: 'type', text: 'hi\n' }],
    });
    expect(translateGeminiCall('type_text_at', { x: 10, y: 20, text: 'hi', clear_before_typing: false }, CONTEXT)).toEqual({
      kind: 'act',
      actions: [{ action: 'click', x: 10, y: 20 }, { action: 'type', text: 'hi' }],
    });
    expect(translateGeminiCall('click_at', { x: 10 }, CONTEXT)).toMatchObject({ kind: 'refuse', message: expect.stringMatching(/needs x and y/) });
  });

  it('excludes what no computer action can do: navigation always, opening a browser on the desktop', () => {
    expect(excludedGeminiFunctions('gemini-2.5', 'browser')).toEqual(['go_back', 'go_forward', 'search', 'navigate']);
    expect(excludedGeminiFunctions('gemini-2.5', 'desktop')).toEqual(['open_web_browser', 'go_back', 'go_forward', 'search', 'navigate']);
    expect(excludedGeminiFunctions('gemini-3.5', 'desktop')).toEqual(['key_down', 'key_up', 'go_back', 'navigate', 'go_forward']);
  });
});

/**
 * Gemini's safety_decision (https://ai.google.dev/gemini-api/docs/computer-use, "Safety decision": "regular /
 * allowed", or no decision, lets the action run; `require_confirmation` asks a person). Issue 33, finding 5:
 * anything but the exact `require_confirmation` used to run unasked.
 */
describe("Gemini's safety decision", () => {
  const click = { x: 500, y: 300 };
  const decisionOf = (args: Record<string, unknown>) => geminiSafetyDecisionOf(GeminiComputerArgumentsSchema.parse({ ...click, ...args }));

  it('lets a call run only without a decision or with the documented proceed value under the documented key', () => {
    expect(decisionOf({})).toEqual({ kind: 'proceed' });
    expect(decisionOf({ safety_decision: { decision: 'regular' } })).toEqual({ kind: 'proceed' });
    expect(decisionOf({ safety_decision: { decision: 'regular', explanation: 'A plain click.' } })).toEqual({ kind: 'proceed' });
  });

  it('sends every other decision, however spelt, to the gate', () => {
    const confirmations: Array<[Record<string, unknown>, string, string]> = [
      [{ safety_decision: { decision: 'require_confirmation', explanation: 'Deleting the account.' } }, 'safety_decision', 'require_confirmation'],
      [{ safety_decision: { decision: 'REQUIRE_CONFIRMATION' } }, 'safety_decision', 'REQUIRE_CONFIRMATION'],
      [{ safety_decision: { decision: 'require_confirmation ' } }, 'safety_decision', 'require_confirmation '],
      [{ safety_decision: { decision: 'block' } }, 'safety_decision', 'block'],
      [{ safety_decision: { decision: 'Regular' } }, 'safety_decision', 'Regular'],
      [{ safety_decision: { decision: 'regular ' } }, 'safety_decision', 'regular '],
      [{ safety_decision: { decision: 'allowed' } }, 'safety_decision', 'allowed'],
      [{ safetyDecision: { decision: 'require_confirmation' } }, 'safetyDecision', 'require_confirmation'],
      // Even the proceed value, under a key that is not the documented one, is not known to mean "proceed".
      [{ safetyDecision: { decision: 'regular' } }, 'safetyDecision', 'regular'],
      [{ SAFETY_DECISION: { decision: 'regular' } }, 'SAFETY_DECISION', 'regular'],
    ];
    for (const [args, field, decision] of confirmations) {
      expect(decisionOf(args), JSON.stringify(args)).toMatchObject({ kind: 'confirm', field, decision });
    }
  });

  it('refuses a safety field it cannot read as malformed, so the call never runs', () => {
    const malformed: Array<Record<string, unknown>> = [
      { safety_decision: 'require_confirmation' },
      { safety_decision: null },
      { safety_decision: true },
      { safety_decision: ['require_confirmation'] },
      { safety_decision: {} },
      { safety_decision: { decision: '' } },
      { safety_decision: { decision: 7 } },
      { safety_decision: { decision: { decision: 'regular' } } },
      { safety_decision: { safety_decision: { decision: 'regular' } } },
      { safety_decision: { decision: 'regular', acknowledged: true } },
      { safety_decision: { decision: 'regular', explanation: 42 } },
      { safetyDecision: 'regular' },
      { safety_decision: { decision: 'regular' }, safetyDecision: { decision: 'require_confirmation' } },
    ];
    for (const args of malformed) {
      const parsed = GeminiComputerArgumentsSchema.safeParse({ ...click, ...args });
      expect(parsed.success, JSON.stringify(args)).toBe(false);
      expect(JSON.stringify(parsed.error?.issues), JSON.stringify(args)).toMatch(/safety/i);
    }
  });
});

/**
 * Gemini 3.5 Flash's streamlined functions, each with its `intent`
 * (https://ai.google.dev/gemini-api/docs/generate-content/computer-use, read 2026-11-28): every one becomes an
 * action of the one vocabulary, the intent read and never acted on.
 */
describe("Gemini 3.5's renamed functions", () => {
  const intent = 'Because the model says so.';
  const at = { x: 500, y: 300, intent };
  it.each([
    ['click', at, [{ action: 'click', x: 500, y: 300 }]],
    ['double_click', at, [{ action: 'double_click', x: 500, y: 300 }]],
    ['triple_click', at, [{ action: 'triple_click', x: 500, y: 300 }]],
    ['middle_click', at, [{ action: 'middle_click', x: 500, y: 300 }]],
    ['right_click', at, [{ action: 'right_click', x: 500, y: 300 }]],
    ['mouse_down', at, [{ action: 'mouse_down', x: 500, y: 300 }]],
    ['mouse_up', at, [{ action: 'mouse_up', x: 500, y: 300 }]],
    ['move', at, [{ action: 'move', x: 500, y: 300 }]],
    ['type', { text: 'Platform', intent }, [{ action: 'type', text: 'Platform' }]],
    ['type', { text: 'Platform', press_enter: true, intent }, [{ action: 'type', text: 'Platform\n' }]],
    ['type', { ...at, text: 'Ada' }, [{ action: 'click', x: 500, y: 300 }, { action: 'type', text: 'Ada' }]],
    ['drag_and_drop', { start_x: 10, start_y: 20, end_x: 30, end_y: 40, intent }, [{ action: 'drag', x: 10, y: 20, to_x: 30, to_y: 40 }]],
    ['wait', { seconds: 2, intent }, [{ action: 'wait', seconds: 2 }]],
    ['press_key', { key: 'Enter', intent }, [{ action: 'key', keys: 'Enter' }]],
    ['hotkey', { keys: ['Control', 'a'], intent }, [{ action: 'key', keys: 'Control+a' }]],
    ['hotkey', { keys: 'Control + Shift + t', intent }, [{ action: 'key', keys: 'Control+Shift+t' }]],
    ['take_screenshot', { intent }, [{ action: 'screenshot' }]],
    ['scroll', { ...at, direction: 'down', magnitude_in_pixels: 500 }, [{ action: 'scroll', x: 500, y: 300, scroll_x: 0, scroll_y: 5 }]],
  ])('%s %j', (name, args, actions) => {
    expect(translateGeminiCall(name, GeminiComputerArgumentsSchema.parse(args), CONTEXT)).toEqual({ kind: 'act', actions });
  });

  it("answers a call missing its own arguments with the function's words, and does nothing", () => {
    expect(translateGeminiCall('press_key', { intent }, CONTEXT)).toEqual({ kind: 'refuse', message: 'press_key needs key. Nothing was done.' });
    expect(translateGeminiCall('hotkey', { intent }, CONTEXT)).toEqual({ kind: 'refuse', message: 'hotkey needs keys. Nothing was done.' });
    expect(translateGeminiCall('click', { intent }, CONTEXT)).toMatchObject({ kind: 'refuse' });
  });
});

/**
 * Which models Sightline says carry Gemini's computer_use, and where the desktop: only what a Google page says
 * (src/main/llm/model-profiles.ts cites each). Gemini 3 Flash and 3/3.1 Pro were claimed for the browser with no
 * page saying so, and later 3.x names with the desktop: those claims are gone.
 */
describe("Gemini's computer-use claims, each from a Google page", () => {
  it.each([
    ['gemini-3.5-flash', 'gemini-computer-use', true],
    ['gemini-3.5-flash-preview-06-2026', 'gemini-computer-use', true],
    ['gemini-2.5-computer-use-preview-10-2025', 'gemini-computer-use', undefined],
    ['gemini-3.5-flash-lite', 'function-tools', undefined],
    ['gemini-3.6-flash', 'function-tools', undefined],
    ['gemini-3-flash-preview', 'function-tools', undefined],
    ['gemini-3.1-pro-preview', 'function-tools', undefined],
    ['gemini-2.5-flash', 'function-tools', undefined],
  ])('%s: %s, desktop %s', (model, dialect, desktop) => {
    const profile = resolveModelProfile(model);
    expect(profile.dialect).toBe(dialect);
    expect(profile.computerUseDesktop).toBe(desktop);
  });
});

/** The computerUse entry a desktop run sends: ENVIRONMENT_DESKTOP only for the model whose profile Google's page backs. */
describe("Gemini's computerUse environment on the desktop", () => {
  function sentFor(model: string, kind: 'desktop' | 'browser'): unknown {
    const profile = resolveModelProfile(model);
    const operator = { describe: () => ({ kind, url: null, scaleFactor: 1 }) };
    const tools = createGeminiComputerTools({
      operator,
      functionSet: profile.family === 'gemini-3.5' ? 'gemini-3.5' : 'gemini-2.5',
      desktopEnvironment: profile.computerUseDesktop === true,
    } as unknown as Parameters<typeof createGeminiComputerTools>[0]);
    const declarations = tools.map((tool) => ({ name: tool.name, description: tool.description, parameters: {}, native: tool.nativeDeclaration }));
    return toGeminiTools(declarations)[0];
  }

  it('sends ENVIRONMENT_DESKTOP for gemini-3.5-flash on the desktop, and the browser environment everywhere else', () => {
    expect(sentFor('gemini-3.5-flash', 'desktop')).toEqual({
      computerUse: { environment: 'ENVIRONMENT_DESKTOP', excludedPredefinedFunctions: ['key_down', 'key_up', 'go_back', 'navigate', 'go_forward'] },
    });
    expect(sentFor('gemini-3.5-flash', 'browser')).toMatchObject({ computerUse: { environment: 'ENVIRONMENT_BROWSER' } });
    expect(sentFor('gemini-2.5-computer-use-preview-10-2025', 'desktop')).toMatchObject({ computerUse: { environment: 'ENVIRONMENT_BROWSER' } });
  });
});
