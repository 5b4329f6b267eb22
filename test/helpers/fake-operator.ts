/**
 * An in-memory Operator for agent tests. Its "screen" is a synthetic frame: a grey background with a dark
 * block that moves each time an action changes the screen, so perception sees every change and nothing
 * else. Points are mapped with the real coordinate mapping (off-screen points are refused, nothing runs)
 * and keys with the real key parser; every executed action is recorded with its screen points.
 *
 *   const operator = new FakeOperator({ screen: { width: 800, height: 500 }, scaleFactor: 2 });
 *   … run the agent …
 *   expect(operator.executed.map((entry) => entry.screen)).toEqual([[{ x: 400, y: 250 }]]);
 */
import type { ComputerAction } from '../../src/shared/actions.js';
import type { ModelView } from '../../src/shared/model-view.js';
import { mapModelPoint, mapModelPoints, type FrameGeometry, type Point } from '../../src/main/operators/coordinates.js';
import { parseKeyCombinations } from '../../src/main/operators/key-combination.js';
import type {
  ActionResult,
  FocusedApplication,
  FocusedFieldKind,
  FocusReading,
  Operator,
  OperatorDescription,
} from '../../src/main/operators/operator.js';
import type { Frame } from '../../src/main/perception/frame.js';

export interface FakeOperatorOptions {
  /** Screen size in screen units (default 640x400). */
  screen?: { width: number; height: number };
  /** Frame pixels per screen unit (default 1). */
  scaleFactor?: number;
  kind?: 'desktop' | 'browser';
  /** What kind of field has the focus (default: the operator cannot tell, so the method is absent). */
  focusedFieldKind?: FocusedFieldKind;
  /**
   * The application that has the focus, as the desktop reads it from the OS (default: the operator cannot
   * tell, so focus() is absent). With it, focus() answers it and the field kind (default 'unknown').
   */
  focusedApplication?: FocusedApplication;
  /** Whether an executed action changes the screen (default: all but screenshot, wait and move). */
  changesScreen?: (action: ComputerAction) => boolean;
  /** Runs inside each executed action, after it is recorded (a test can stop the turn here). */
  onExecute?: (action: ComputerAction) => Promise<void> | void;
  /** What describe() throws, as a desktop operator whose display cannot be reached does. */
  describeError?: Error;
  /**
   * Where the focus goes after each executed action, as a page moves it (`key Tab` to the next field): the
   * field kind the operator reads from then on. Runs after the action is recorded.
   */
  focusAfter?: (action: ComputerAction, focused: FocusedFieldKind | undefined) => FocusedFieldKind | undefined;
  /** Whether the focus read right after a key is where the key put it (the browser's); absent by default (the desktop's). */
  focusCurrentAfterKeys?: boolean;
  /** Whether a middle click pastes the primary selection (Linux); absent by default. */
  middleClickPastes?: boolean;
  /** The field under each point of the model's view, where the operator can tell it (the browser); absent by default. */
  fieldKindAt?: (point: { x: number; y: number } | 'pointer') => FocusedFieldKind;
}

export interface ExecutedAction {
  action: ComputerAction;
  /** Where the action landed, in screen units (empty for keyboard actions). */
  screen: Point[];
  /** The view the agent passed, as the operator received it. */
  view: ModelView;
}

const PASSIVE = new Set<ComputerAction['action']>(['screenshot', 'wait', 'move']);

export class FakeOperator implements Operator {
  readonly executed: ExecutedAction[] = [];
  /** Whether a mouse_down left the left button down (a mouse_up or releaseHeldInput lets it go). */
  buttonHeld = false;
  /** How many times releaseHeldInput let go of a button left down (the end of a turn does it). */
  heldButtonReleases = 0;
  /** Every ModelView passed to execute, refused actions included. */
  readonly views: ModelView[] = [];
  captures = 0;
  /** How many times the screen has changed; the block's position follows it. */
  private version = 0;
  private readonly screen: { width: number; height: number };
  private readonly scaleFactor: number;
  private readonly kind: 'desktop' | 'browser';
  private lastFrame: FrameGeometry | undefined;
  focusedField: FocusedFieldKind | undefined;

  constructor(private readonly options: FakeOperatorOptions = {}) {
    this.screen = options.screen ?? { width: 640, height: 400 };
    this.scaleFactor = options.scaleFactor ?? 1;
    this.kind = options.kind ?? 'desktop';
    this.focusedField = options.focusedFieldKind;
    if (this.focusedField !== undefined) {
      this.focusedFieldKind = async () => this.focusedField ?? 'unknown';
    }
    if (options.focusCurrentAfterKeys !== undefined) this.focusCurrentAfterKeys = options.focusCurrentAfterKeys;
    if (options.middleClickPastes !== undefined) this.middleClickPastes = options.middleClickPastes;
    const fieldAt = options.fieldKindAt;
    if (fieldAt !== undefined) this.fieldKindAt = async (place) => fieldAt(place);
    const application = options.focusedApplication;
    if (application !== undefined) {
      this.focus = async () => ({ fieldKind: this.focusedField ?? 'unknown', application });
    }
  }

  focusedFieldKind?: () => Promise<FocusedFieldKind>;
  focus?: () => Promise<FocusReading>;
  focusCurrentAfterKeys?: boolean;
  middleClickPastes?: boolean;
  fieldKindAt?: (place: { x: number; y: number } | 'pointer', view: ModelView) => Promise<FocusedFieldKind>;

  async capture(): Promise<Frame> {
    this.captures += 1;
    const width = this.screen.width * this.scaleFactor;
    const height = this.screen.height * this.scaleFactor;
    const rgba = Buffer.alloc(width * height * 4, 210);
    // A block an eighth of the screen wide, stepping across it as the version grows.
    const blockWidth = Math.max(4, Math.floor(width / 8));
    const blockHeight = Math.max(4, Math.floor(height / 8));
    const left = ((this.version * blockWidth) % (width - blockWidth + 1));
    const top = (Math.floor((this.version * blockWidth) / (width - blockWidth + 1)) * blockHeight) % (height - blockHeight + 1);
    for (let y = top; y < top + blockHeight; y += 1) {
      rgba.fill(30, (y * width + left) * 4, (y * width + left + blockWidth) * 4);
    }
    for (let offset = 3; offset < rgba.length; offset += 4) rgba[offset] = 255;
    const frame: Frame = {
      rgba,
      width,
      height,
      scaleFactor: this.scaleFactor,
      displayId: this.kind === 'desktop' ? 1 : null,
      bounds: { x: 0, y: 0, width: this.screen.width, height: this.screen.height },
      capturedAt: Date.now(),
    };
    this.lastFrame = { width, height, scaleFactor: this.scaleFactor, bounds: frame.bounds };
    return frame;
  }

  async execute(action: ComputerAction, view: ModelView): Promise<ActionResult> {
    this.views.push(view);
    const frame = this.lastFrame ?? (await this.capture(), this.lastFrame!);
    const points = this.mapPoints(action, view, frame);
    if (!points.ok) return { ok: false, error: `${points.error}. Nothing was done.` };
    if (action.action === 'key') {
      const parse = parseKeyCombinations(action.keys);
      if (!parse.ok) return { ok: false, error: `${parse.error}. Nothing was done.` };
    }
    this.executed.push({ action, screen: points.screens, view });
    if (action.action === 'mouse_down') this.buttonHeld = true;
    if (action.action === 'mouse_up') this.buttonHeld = false;
    const changes = this.options.changesScreen?.(action) ?? !PASSIVE.has(action.action);
    if (changes) this.version += 1;
    if (this.options.focusAfter !== undefined) this.focusedField = this.options.focusAfter(action, this.focusedField);
    await this.options.onExecute?.(action);
    return { ok: true, detail: `${action.action} done${points.screens.length > 0 ? ` at ${points.screens.map((p) => `(${p.x}, ${p.y})`).join(' → ')}` : ''}` };
  }

  describe(): OperatorDescription {
    if (this.options.describeError !== undefined) throw this.options.describeError;
    return {
      kind: this.kind,
      target: `fake ${this.kind} ${this.screen.width}x${this.screen.height} @${this.scaleFactor}x`,
      displayId: this.kind === 'desktop' ? 1 : null,
      url: this.kind === 'browser' ? 'http://fake.test/' : null,
      screen: this.screen,
      scaleFactor: this.scaleFactor,
    };
  }

  async releaseHeldInput(): Promise<void> {
    if (!this.buttonHeld) return;
    this.buttonHeld = false;
    this.heldButtonReleases += 1;
  }

  async close(): Promise<void> {}

  private mapPoints(action: ComputerAction, view: ModelView, frame: FrameGeometry): { ok: true; screens: Point[] } | { ok: false; error: string } {
    switch (action.action) {
      case 'click':
      case 'double_click':
      case 'triple_click':
      case 'right_click':
      case 'middle_click':
      case 'move':
      case 'scroll': {
        const mapping = mapModelPoint(action, view, frame);
        return mapping.ok ? { ok: true, screens: [mapping.screen] } : mapping;
      }
      case 'mouse_down':
      case 'mouse_up': {
        if (action.x === undefined || action.y === undefined) return { ok: true, screens: [] };
        const mapping = mapModelPoint({ x: action.x, y: action.y }, view, frame);
        return mapping.ok ? { ok: true, screens: [mapping.screen] } : mapping;
      }
      case 'drag':
        return mapModelPoints(
          [
            { point: action, names: { x: 'x', y: 'y' } },
            ...(action.via ?? []).map((point, index) => ({ point, names: { x: `via[${index}].x`, y: `via[${index}].y` } })),
            { point: { x: action.to_x, y: action.to_y }, names: { x: 'to_x', y: 'to_y' } },
          ],
          view,
          frame,
        );
      default:
        return { ok: true, screens: [] };
    }
  }
}
