/**
 * The stop indicator's preload: its page gets Stop and the state to show, as
 * `window.sightlineStopIndicator`, and nothing else (not the app API, no raw ipcRenderer, no channel
 * parameter). The main process checks the sender and the arguments; the page checks the state it gets.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { STOP_INDICATOR_STATE_CHANNEL, STOP_INDICATOR_STOP_CHANNEL } from '../shared/stop-indicator-channels.js';
import type { StopIndicatorBridge, StopIndicatorState, StopIndicatorStopResult } from '../shared/stop-indicator.js';

const bridge: StopIndicatorBridge = {
  stop: () => ipcRenderer.invoke(STOP_INDICATOR_STOP_CHANNEL) as Promise<StopIndicatorStopResult>,
  onState(listener) {
    // The page gets the state only, never Electron's IpcRendererEvent (it holds `sender`).
    const relay = (_event: IpcRendererEvent, state: StopIndicatorState): void => listener(state);
    ipcRenderer.on(STOP_INDICATOR_STATE_CHANNEL, relay);
    return () => {
      ipcRenderer.removeListener(STOP_INDICATOR_STATE_CHANNEL, relay);
    };
  },
};

contextBridge.exposeInMainWorld('sightlineStopIndicator', bridge);
