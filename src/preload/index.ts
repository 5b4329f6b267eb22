/**
 * The preload: the only bridge between the sandboxed renderer and the main process. It exposes one method
 * per app API call as `window.sightline`, and nothing generic (no raw ipcRenderer, no channel parameter),
 * so a compromised page can only make the calls the app API defines. Validation happens in the main process.
 */
import { contextBridge, ipcRenderer } from 'electron';
import { APP_API_CHANNELS } from '../shared/app-api-channels.js';
import type { AppApiResult, SightlineBridge } from '../shared/app-api.js';

const bridge: SightlineBridge = {
  appInfo: () => ipcRenderer.invoke(APP_API_CHANNELS.appInfo) as Promise<AppApiResult<'appInfo'>>,
};

contextBridge.exposeInMainWorld('sightline', bridge);
