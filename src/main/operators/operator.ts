/**
 * The contract between the agent and whatever it acts on. An operator is a frame source plus an input
 * driver: the desktop (node-screenshots + nut-js) or a browser page (playwright-core). The agent shows the
 * model a scaled copy of `capture()`'s frame, and hands the model's action back to `execute()` together
 * with the `ModelView` (src/shared/model-view.ts) the model was looking at, which says how that copy relates
 * to the frame, so the operator can map the model's coordinates to the screen (see coordinates.ts).
 */
import type { ComputerAction } from '../../shared/actions.js';
import type { OperatorKind } from '../../shared/config.js';
import type { Frame } from '../perception/frame.js';
import type { FrameSource } from '../perception/frame-source.js';
import type { ModelView } from '../../shared/model-view.js';

/**
 * What an action came to. A failure's `error` is written for the model (it is sent back as the tool
 * result), e.g. "x=2100 is outside the screenshot (0–1279)"; nothing was done when `ok` is false.
 */
export type ActionResult =
  | {
      ok: true;
      detail?: string;
      /** The element a click pressed, read after the pointer reached it (operators that can tell: the browser). */
      element?: ElementIdentity;
      /** The page's visible text when the click pressed (the browser): what a replay reads the changed regions against. */
      texts?: PageText[];
    }
  | { ok: false; error: string };

/**
 * The element under a point as a page describes it: its tag, its role (the ARIA one, or the tag's implicit one),
 * its accessible name, and its box in screen units. What a replay checks the element under the pointer against
 * right before it presses: the recorded click's element must still be the one there.
 */
export interface ElementIdentity {
  tag: string;
  role: string;
  name: string;
  box: { x: number; y: number; width: number; height: number };
}

/** A run of visible text and its box in screen units (a text node of a page). */
export interface PageText {
  text: string;
  box: { x: number; y: number; width: number; height: number };
}

/**
 * The last look before a button is pressed, given to execute(): called once the pointer is on the point (so hover
 * effects have shown), as close to the press as the operator allows. A reason it returns stops the action before
 * any button goes down (the action fails with that reason); undefined lets it go on.
 */
export type PressCheck = (moment: PressMoment) => Promise<string | undefined>;

export interface PressMoment {
  /** Where the press will land, in screen units. */
  at: { x: number; y: number };
  /** The element under the point now (read when asked, so it can be the last look); undefined where the operator cannot tell (the desktop). */
  element(): Promise<ElementIdentity | undefined>;
  /** A capture of the screen as it is now, the pointer on the point. */
  capture(): Promise<Frame>;
  /** The visible text now (the browser); undefined where the operator cannot read it (the desktop). */
  texts(): Promise<PageText[] | undefined>;
}

export type FocusedFieldKind = 'password' | 'text' | 'other' | 'unknown';

/** The application that has the keyboard focus, as the OS names it (X11's WM_CLASS, a bundle id, a process name). */
export interface FocusedApplication {
  name: string;
  /** Enter typed into a terminal runs a command line (src/main/operators/focus/terminal-applications.ts). */
  isTerminal: boolean;
}

/** What has the keyboard focus: the kind of field, and the application when the operator can tell it. */
export interface FocusReading {
  fieldKind: FocusedFieldKind;
  application?: FocusedApplication;
}

export interface OperatorDescription {
  kind: OperatorKind;
  /** One line for logs and the timeline: "display 0 (Xvfb screen, 1280x800 @1x)" or the page's URL. */
  target: string;
  /** The display acted on (desktop), as node-screenshots names it; null for a browser. */
  displayId: number | null;
  /** The page's URL (browser); null for the desktop. */
  url: string | null;
  /** The area acted on, in screen units (the desktop's logical pixels, the browser's CSS pixels). */
  screen: { width: number; height: number };
  /** Frame pixels per screen unit (2 on a Retina display or a page with devicePixelRatio 2). */
  scaleFactor: number;
}

export interface Operator extends FrameSource {
  capture(): Promise<Frame>;
  /**
   * Performs one action. Never throws for the model's mistakes (a point off the screen, an unknown key).
   * `signal` is the turn's: a stop cuts a wait or a hold_key short (the keys are released at once).
   * `check` (a replay's) is asked after the pointer has moved and before a click's button goes down.
   */
  execute(action: ComputerAction, view: ModelView, signal?: AbortSignal, check?: PressCheck): Promise<ActionResult>;
  /**
   * Releases a mouse button that an action left down (mouse_down without its mouse_up), so the person's
   * mouse is never left pressed: called when a turn ends, however it ends, and by close(). Does nothing,
   * and touches no device, when nothing is held.
   */
  releaseHeldInput(): Promise<void>;
  describe(): OperatorDescription;
  /**
   * What kind of field has the keyboard focus, for the safety policy (typing into a password field needs
   * a person's confirmation). Only operators that can tell implement it; absent means "unknown".
   */
  focusedFieldKind?(): Promise<FocusedFieldKind>;
  /**
   * The field kind and the focused application in one reading, for operators that can tell the application
   * (the desktop, from the OS: Enter in a terminal is risky). Preferred over focusedFieldKind when present.
   */
  focus?(): Promise<FocusReading>;
  /**
   * True when the focus read right after a key is where that key put it: a page moves the focus (Tab,
   * shift+Tab, an arrow in a radio group) while the key is dispatched, before the press returns. A key that
   * starts a navigation is waited for first (waitForPendingWork). Absent where the reading may still show the
   * field before the key (the desktop, whose accessibility events arrive later): after a key that may move the
   * focus, such a reading counts only if it says password field, and otherwise as 'unknown'.
   */
  readonly focusCurrentAfterKeys?: boolean;
  /**
   * True where a middle click pastes the primary selection (the text last selected) where it clicks: X11 and
   * Wayland on Linux, the desktop and Chromium alike. The gate then judges a middle click like a paste.
   */
  readonly middleClickPastes?: boolean;
  /**
   * What kind of field lies under a point of the model's view (mapped through `view` like an action's), or
   * under the pointer: where a drag would drop dragged text. Only operators that can tell implement it
   * (the browser, looking into frames); absent means "unknown".
   */
  /** The visible text and where it is (the browser): what a replay reads changed regions with. Absent: unknown. */
  pageTexts?(): Promise<PageText[] | undefined>;
  fieldKindAt?(place: { x: number; y: number } | 'pointer', view: ModelView): Promise<FocusedFieldKind>;
  /**
   * The text of a password field: the focused one, or the one under a point or the pointer. Read before and
   * after a paste or a drop into it, so that what landed there is known and masked like typed text (it is
   * held in memory only). Undefined where no password field is, or it cannot be read; absent on operators
   * that cannot read one (the desktop: accessibility APIs never give a password field's text).
   */
  passwordFieldText?(place: 'focused' | { x: number; y: number } | 'pointer', view: ModelView): Promise<string | undefined>;
  /**
   * The text the focused field holds when it is not a password field (a text input, a textarea, an editable
   * element): read after an action types, so that a configured secret the field ends up holding is found however
   * it was put together (a caret moved by a click, text typed in pieces out of order). Held in memory only. Only
   * operators that can read a field implement it (the browser); the desktop's accessibility APIs are not asked.
   */
  focusedFieldText?(): Promise<string | undefined>;
  /**
   * After an action, before the screen is watched settle: waits, for at most `remainingMs`, for what the
   * operator itself knows is still coming (a browser's pending navigation and the requests the action
   * started). Only operators that can tell implement it; the desktop's screen is all there is to watch.
   */
  waitForPendingWork?(remainingMs: number): Promise<void>;
  /**
   * Runs a series of captures (a settle watch) with what the operator does around one capture done once
   * around them all: the desktop hides the Electron app's window once (each hide waits for the window manager,
   * and a window shown between two frames would redraw what lies under it), the browser hides text carets
   * once. Each capture inside gives the frame it would give alone. Only operators that prepare anything
   * around a capture implement it.
   */
  aroundCaptures?<T>(work: () => Promise<T>): Promise<T>;
  /**
   * What the operator refused on its own since the last call, one sentence each, for the model: a browser's
   * navigation outside its URL scope, which a click may start after execute() has returned. Called after an
   * action's screen has settled. Only operators that refuse anything implement it.
   */
  takeNotices?(): string[];
  /**
   * Opens a URL in the page acted on, inside the operator's scope: a flow's `goto`, which the flow's author asks
   * for, not the model. Only operators that show pages implement it.
   */
  navigate?(url: string): Promise<ActionResult>;
  /**
   * Runs a script's own JavaScript expression in the page acted on, once the page is inside the scope, and gives
   * its JSON value (a Midscene script's `javascript:`, which its author wrote, not the model). Only operators
   * that show pages implement it; the signal stops the wait for a value that never comes.
   */
  /**
   * Files (absolute paths the script named) that a file chooser opened during `work` receives, as a person
   * picking them would (a Midscene script's fileChooserAccept). Only operators that show pages implement it.
   */
  acceptingFiles?<T>(files: readonly string[], work: () => Promise<T>): Promise<T>;
  evaluate?(code: string, signal?: AbortSignal): Promise<{ ok: true; value: unknown } | { ok: false; error: string }>;
  /** Releases what the operator holds (the browser process; pressed buttons). Safe to call twice. */
  close(): Promise<void>;
}

/**
 * The Electron app's window must never be in the screenshot it acts on, nor under the pointer when the
 * operator clicks. The app passes this hook; the CLI has no window and passes nothing. `show` must not
 * take the keyboard focus (Electron: `showInactive()`), or keys typed next would go to the app.
 */
export interface OwnWindowHook {
  hide(): Promise<void>;
  show(): Promise<void>;
}

/** Runs `work` with the app's window hidden (when there is a hook), and shows it again whatever happens. */
export async function withOwnWindowHidden<T>(hook: OwnWindowHook | undefined, work: () => Promise<T>): Promise<T> {
  if (!hook) return work();
  await hook.hide();
  try {
    return await work();
  } finally {
    await hook.show();
  }
}
