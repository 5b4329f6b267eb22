/**
 * The desktop as an operator: frames from node-screenshots (DesktopFrameSource), input through nut-js.
 * Points the model names are mapped onto the display that was captured, offset and HiDPI included.
 * Nothing here touches a display until the first capture or action.
 */
import type { ComputerAction } from '../../shared/actions.js';
import type { Frame } from '../perception/frame.js';
import { performAction, type InputDriver } from './action-performer.js';
import type { FrameGeometry } from './coordinates.js';
import { DesktopFrameSource } from './desktop-frame-source.js';
import type { DesktopFocusReader } from './focus/focus-reading.js';
import { createPlatformFocusReader } from './focus/platform-focus-reader.js';
import { NutJsInput } from './nut-js-input.js';
import { sleepUnlessAborted, type Sleep } from './pause.js';
import type { ModelView } from '../../shared/model-view.js';
import {
  withOwnWindowHidden,
  type ActionResult,
  type FocusedFieldKind,
  type FocusReading,
  type Operator,
  type OperatorDescription,
  type OwnWindowHook,
  type PressCheck,
} from './operator.js';
import { describeStopShortcut, type StopShortcut } from '../../shared/stop-shortcut.js';
import { stopCombinationChord, stopCombinationRefusal } from './stop-combination-guard.js';
import type { KeyChord } from './key-combination.js';

export interface DesktopOperatorOptions {
  /** The display to capture and act on (config: perception.displayId); the primary display when absent. */
  displayId?: number | undefined;
  /** Hides the Electron app's window around captures and actions; the CLI has no window. */
  ownWindow?: OwnWindowHook | undefined;
  /** Where frames come from; node-screenshots by default. */
  frameSource?: DesktopFrameSource;
  /** Where input goes; nut-js by default. */
  input?: InputDriver;
  /** Resolves after the time, or early when the signal aborts (pause.ts). */
  sleep?: Sleep;
  /** Asks the OS what has the keyboard focus; the one for this platform by default (focus/platform-focus-reader.ts). */
  focusReader?: DesktopFocusReader;
  /** The emergency stop's combination, which key actions may not press (stop-combination-guard.ts). */
  stopShortcut?: StopShortcut | undefined;
}

export class DesktopOperator implements Operator {
  /** X11 and Wayland applications paste the primary selection where a middle click lands. */
  readonly middleClickPastes = process.platform === 'linux';
  private readonly frameSource: DesktopFrameSource;
  private readonly input: InputDriver;
  private readonly ownWindow: OwnWindowHook | undefined;
  private readonly sleep: Sleep;
  private readonly focusReader: DesktopFocusReader;
  /** The geometry of the last frame captured: the model's screenshots are made from it. */
  private lastFrame: FrameGeometry | undefined;
  /** True inside aroundCaptures: the app's window is already hidden, captures leave it so. */
  private hiddenForCaptures = false;
  private readonly stopChord: KeyChord | undefined;
  private readonly stopLabel: string;

  constructor(options: DesktopOperatorOptions = {}) {
    this.frameSource = options.frameSource ?? new DesktopFrameSource({ displayId: options.displayId });
    this.input = options.input ?? new NutJsInput();
    this.ownWindow = options.ownWindow;
    this.sleep = options.sleep ?? sleepUnlessAborted;
    // Started at the first question (Linux's AT-SPI helper), so an operator that never types starts nothing.
    this.focusReader = options.focusReader ?? createPlatformFocusReader();
    this.stopChord = options.stopShortcut === undefined ? undefined : stopCombinationChord(options.stopShortcut);
    this.stopLabel = options.stopShortcut === undefined ? '' : describeStopShortcut(options.stopShortcut, process.platform);
  }

  async capture(): Promise<Frame> {
    const frame = this.hiddenForCaptures ? await this.frameSource.capture() : await withOwnWindowHidden(this.ownWindow, () => this.frameSource.capture());
    this.lastFrame = { width: frame.width, height: frame.height, scaleFactor: frame.scaleFactor, bounds: frame.bounds };
    return frame;
  }

  async aroundCaptures<T>(work: () => Promise<T>): Promise<T> {
    if (this.ownWindow === undefined || this.hiddenForCaptures) return work();
    return withOwnWindowHidden(this.ownWindow, async () => {
      this.hiddenForCaptures = true;
      try {
        return await work();
      } finally {
        this.hiddenForCaptures = false;
      }
    });
  }

  async execute(action: ComputerAction, view: ModelView, signal?: AbortSignal, check?: PressCheck): Promise<ActionResult> {
    const refusal = stopCombinationRefusal(action, this.stopChord, this.stopLabel);
    if (refusal !== undefined) return { ok: false, error: refusal };
    // A model cannot have seen the screen before the first capture, but an MCP client may act first:
    // the geometry is then read from a capture, so a point is still checked against the real screen.
    const frame = this.lastFrame ?? (await this.capture());
    // The desktop cannot name the element under the point: the last look is a capture (the window is hidden already).
    const beforePress =
      check === undefined
        ? undefined
        : async (at: { x: number; y: number }) => ({ refusal: await check({ at, element: async () => undefined, capture: () => this.frameSource.capture(), texts: async () => undefined }) });
    const environment = { view, frame, input: this.input, sleep: this.sleep, signal, beforePress };
    // Waiting with the window hidden would hide it for nothing; everything else must not hit it.
    if (action.action === 'wait' || action.action === 'screenshot') return performAction(action, environment);
    return withOwnWindowHidden(this.ownWindow, () => performAction(action, environment));
  }

  describe(): OperatorDescription {
    const display = this.frameSource.chosenDisplay();
    const { width, height } = display.bounds;
    return {
      kind: 'desktop',
      target: `display ${display.id} (${display.name}, ${width}x${height} @${display.scaleFactor}x)`,
      displayId: display.id,
      url: null,
      screen: { width, height },
      scaleFactor: display.scaleFactor,
    };
  }

  /** What has the keyboard focus, as the OS tells it: 'unknown' wherever it cannot (focus/focus-reading.ts). */
  focus(): Promise<FocusReading> {
    return this.focusReader.focusedField();
  }

  async focusedFieldKind(): Promise<FocusedFieldKind> {
    return (await this.focus()).fieldKind;
  }

  async releaseHeldInput(): Promise<void> {
    await this.input.releaseHeldButtons();
  }

  async close(): Promise<void> {
    // Keys are released at the end of each action; a button a mouse_down left down is released here, so
    // the person's mouse is not left pressed. nut-js holds nothing else worth closing; the focus reader
    // may hold a helper process.
    try {
      await this.releaseHeldInput();
    } finally {
      await this.focusReader.close();
    }
  }
}
