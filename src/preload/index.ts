/**
 * The preload: the only bridge between the sandboxed renderer and the main process. It exposes one method
 * per app API call as `window.sightline`, and nothing generic (no raw ipcRenderer, no channel parameter),
 * so a compromised page can only make the calls the app API defines. Validation happens in the main process.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { APP_API_CHANNELS, APP_EVENT_CHANNEL, type AppApiName } from '../shared/app-api-channels.js';
import type { AppApiArguments, AppApiResult, AppEvent, SightlineBridge } from '../shared/app-api.js';

/** One forwarding method for one call: its own channel, fixed here, never chosen by the page. */
function forward<Name extends AppApiName>(name: Name): (...callArguments: AppApiArguments<Name>) => Promise<AppApiResult<Name>> {
  const channel = APP_API_CHANNELS[name];
  return (...callArguments) => ipcRenderer.invoke(channel, ...callArguments) as Promise<AppApiResult<Name>>;
}

const bridge: SightlineBridge = {
  appInfo: forward('appInfo'),
  listSessions: forward('listSessions'),
  getSession: forward('getSession'),
  deleteSession: forward('deleteSession'),
  exportReport: forward('exportReport'),
  listSteps: forward('listSteps'),
  getImage: forward('getImage'),
  pinImage: forward('pinImage'),
  unpinImage: forward('unpinImage'),
  listMedia: forward('listMedia'),
  getMedia: forward('getMedia'),
  listSearchReports: forward('listSearchReports'),
  listInjections: forward('listInjections'),
  listRuns: forward('listRuns'),
  startRun: forward('startRun'),
  stopRun: forward('stopRun'),
  pauseRun: forward('pauseRun'),
  resumeRun: forward('resumeRun'),
  answerConfirmation: forward('answerConfirmation'),
  answerQuestion: forward('answerQuestion'),
  getKeyStatus: forward('getKeyStatus'),
  saveApiKey: forward('saveApiKey'),
  permissionStatus: forward('permissionStatus'),
  openPermissionSettings: forward('openPermissionSettings'),
  onEvent(listener) {
    // The page gets the event only, never Electron's IpcRendererEvent (it holds `sender`).
    const relay = (_event: IpcRendererEvent, appEvent: AppEvent): void => listener(appEvent);
    ipcRenderer.on(APP_EVENT_CHANNEL, relay);
    return () => {
      ipcRenderer.removeListener(APP_EVENT_CHANNEL, relay);
    };
  },
};

contextBridge.exposeInMainWorld('sightline', bridge);
