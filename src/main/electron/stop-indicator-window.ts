/**
 * The emergency stop indicator: a small always-on-top window shown while the agent acts, with a Stop
 * button. Content protection keeps it out of the agent's screenshots where the system supports it; the
 * state machine (app/stop-indicator-model.ts) decides when it is shown and when it lets clicks through.
 * Its page talks to the main process on its own two channels only, checked like the app API: the sender
 * must be the indicator's page, Stop takes no arguments, and the state sent is validated before it leaves.
 */
import { BrowserWindow, ipcMain, screen, type IpcMainInvokeEvent } from 'electron';
import {
  STOP_INDICATOR_STATE_CHANNEL,
  STOP_INDICATOR_STOP_CHANNEL,
  StopIndicatorStateSchema,
  StopIndicatorStopArgumentsSchema,
  StopIndicatorStopResultSchema,
  type StopIndicatorStopResult,
} from '../../shared/stop-indicator.js';
import type { IndicatorPresentation, StopIndicatorModel } from '../app/stop-indicator-model.js';
import type { OwnWindowHook } from '../operators/operator.js';
import { HIDE_SETTLE_MS } from './own-window.js';
import { isAppUrl } from './security-policy.js';
import { stopIndicatorBounds, stopIndicatorWindowOptions } from './stop-indicator-options.js';

export interface StopIndicatorWindowOptions {
  model: StopIndicatorModel;
  pageUrl: string;
  preloadPath: string;
  /** What Stop does: stops every run and answers how many. */
  onStop: () => number;
}

export interface StopIndicatorWindow {
  /** Shows what the model presents now. */
  present(presentation: IndicatorPresentation): void;
  /** Kept out of the agent's way around its captures and actions (joined to the main window's hook). */
  ownWindow: OwnWindowHook;
  close(): void;
}

/**
 * The window exists only while a run does: with no run there is no extra window, so closing the main
 * window still quits the app on Windows and Linux (window-all-closed) as it did before.
 */
export function openStopIndicatorWindow({ model, pageUrl, preloadPath, onStop }: StopIndicatorWindowOptions): StopIndicatorWindow {
  let window: BrowserWindow | null = null;
  // After close (the app quits), a last capture or action of a run being stopped must not reopen it.
  let closed = false;

  ipcMain.handle(STOP_INDICATOR_STOP_CHANNEL, (event: IpcMainInvokeEvent, ...rawArguments: unknown[]): StopIndicatorStopResult => {
    const frameUrl = event.senderFrame?.url;
    if (!frameUrl || !isAppUrl(frameUrl, pageUrl)) throw new Error(`Refused ${STOP_INDICATOR_STOP_CHANNEL}: the caller is not Sightline's stop indicator.`);
    if (!StopIndicatorStopArgumentsSchema.safeParse(rawArguments).success) throw new Error(`Refused ${STOP_INDICATOR_STOP_CHANNEL}: Stop takes no arguments.`);
    return StopIndicatorStopResultSchema.parse({ stopped: onStop() });
  });

  const open = (): BrowserWindow => {
    const created = new BrowserWindow(stopIndicatorWindowOptions(preloadPath, stopIndicatorBounds(screen.getPrimaryDisplay().workArea)));
    // The agent's screenshots must not show it (macOS, Windows; on Linux it is hidden for each capture instead).
    created.setContentProtection(true);
    // Above full-screen windows too, where the agent may be working.
    created.setAlwaysOnTop(true, 'screen-saver');
    // The page asks for nothing at load: it is sent the state it missed once it has loaded.
    created.webContents.on('did-finish-load', () => sendState(created, model.presentation()));
    created.on('closed', () => {
      if (window === created) window = null;
    });
    created.loadURL(pageUrl).catch((error: unknown) => {
      console.error(`Sightline could not load its stop indicator (${pageUrl}): ${error instanceof Error ? error.message : String(error)}`);
    });
    return created;
  };

  const present = (presentation: IndicatorPresentation): void => {
    if (closed) return;
    if (presentation.state.runs === 0) {
      if (window !== null && !window.isDestroyed()) window.close();
      window = null;
      return;
    }
    window ??= open();
    sendState(window, presentation);
    window.setIgnoreMouseEvents(presentation.clickThrough);
    if (presentation.visible && !window.isVisible()) window.showInactive();
    if (!presentation.visible && window.isVisible()) window.hide();
  };

  return {
    present,
    ownWindow: {
      async hide() {
        const wasVisible = window !== null && window.isVisible();
        const concealed = model.conceal();
        present(concealed);
        // As for the main window: the window manager needs a moment to unmap it before the screenshot.
        if (wasVisible && !concealed.visible) await new Promise((resolve) => setTimeout(resolve, HIDE_SETTLE_MS));
      },
      async show() {
        present(model.reveal());
      },
    },
    close() {
      closed = true;
      ipcMain.removeHandler(STOP_INDICATOR_STOP_CHANNEL);
      if (window !== null && !window.isDestroyed()) window.close();
      window = null;
    },
  };
}

function sendState(window: BrowserWindow, presentation: IndicatorPresentation): void {
  if (window.isDestroyed()) return;
  window.webContents.send(STOP_INDICATOR_STATE_CHANNEL, StopIndicatorStateSchema.parse(presentation.state));
}
