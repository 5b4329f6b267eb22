/**
 * Serves the app API over IPC. Every call goes through the same gate: the sending frame must be the app's
 * own page, then dispatchAppApiCall checks the arguments against the call's schema, runs the implementation
 * and checks the result before it leaves the main process. A refused call rejects in the renderer with a
 * message that says why, in the `[code] message` form the renderer's client decodes.
 */
import { ipcMain, type IpcMainInvokeEvent } from 'electron';
import { APP_API, AppApiError, encodeAppApiError, type AppApiCall, type AppApiName } from '../../shared/app-api.js';
import { dispatchAppApiCall, type AppApiImplementation, type DispatchOptions } from '../api/app-api-dispatch.js';

export type { AppApiImplementation };

export interface AppApiHandlerOptions {
  implementation: AppApiImplementation;
  /** Whether a frame URL is the app's own page (security-policy.ts `isAppUrl` bound to the entry URL). */
  isTrustedFrameUrl: (frameUrl: string) => boolean;
  dispatch?: DispatchOptions;
}

export function registerAppApiHandlers({ implementation, isTrustedFrameUrl, dispatch }: AppApiHandlerOptions): void {
  for (const name of Object.keys(APP_API) as AppApiName[]) {
    const call: AppApiCall = APP_API[name];
    ipcMain.handle(call.channel, async (event: IpcMainInvokeEvent, ...rawArguments: unknown[]) => {
      try {
        assertTrustedSender(event, call.channel, isTrustedFrameUrl);
        return await dispatchAppApiCall(implementation, name, rawArguments, dispatch);
      } catch (error) {
        // Electron passes only the message to the renderer; the code travels inside it.
        throw new Error(encodeAppApiError(error instanceof AppApiError ? error : new AppApiError('internal', String(error))), { cause: error });
      }
    });
  }
}

function assertTrustedSender(event: IpcMainInvokeEvent, channel: string, isTrustedFrameUrl: (frameUrl: string) => boolean): void {
  // senderFrame is null when the frame navigated away or was destroyed before the call arrived.
  const frameUrl = event.senderFrame?.url;
  if (!frameUrl || !isTrustedFrameUrl(frameUrl)) {
    throw new AppApiError('refused', `Refused ${channel}: the caller is not Sightline's own page.`);
  }
}
