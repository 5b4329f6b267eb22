/**
 * Serves the app API over IPC. Every call goes through the same gate: the sending frame must be the app's
 * own page, the arguments must match the call's schema, and so must the result before it leaves the main
 * process. A refused call rejects in the renderer with a message that says why.
 */
import { ipcMain, type IpcMainInvokeEvent } from 'electron';
import { z } from 'zod';
import { APP_API, type AppApiCall, type AppApiName } from '../../shared/app-api.js';

/** What the main process does for each call: it receives parsed arguments and returns an unvalidated result. */
export type AppApiImplementation = {
  [Name in AppApiName]: (
    ...callArguments: z.output<(typeof APP_API)[Name]['arguments']>
  ) => z.input<(typeof APP_API)[Name]['result']> | Promise<z.input<(typeof APP_API)[Name]['result']>>;
};

export interface AppApiHandlerOptions {
  implementation: AppApiImplementation;
  /** Whether a frame URL is the app's own page (security-policy.ts `isAppUrl` bound to the entry URL). */
  isTrustedFrameUrl: (frameUrl: string) => boolean;
}

export function registerAppApiHandlers({ implementation, isTrustedFrameUrl }: AppApiHandlerOptions): void {
  for (const name of Object.keys(APP_API) as AppApiName[]) {
    const call: AppApiCall = APP_API[name];
    const run = implementation[name] as (...callArguments: unknown[]) => unknown;
    ipcMain.handle(call.channel, async (event: IpcMainInvokeEvent, ...rawArguments: unknown[]) => {
      assertTrustedSender(event, call.channel, isTrustedFrameUrl);
      const callArguments = call.arguments.safeParse(rawArguments);
      if (!callArguments.success) {
        throw new Error(`Invalid arguments for ${call.channel}: ${z.prettifyError(callArguments.error)}`);
      }
      const result = call.result.safeParse(await run(...callArguments.data));
      if (!result.success) {
        // A bug on our side, not the renderer's: say so rather than hand over a malformed value.
        throw new Error(`The main process produced an invalid result for ${call.channel}: ${z.prettifyError(result.error)}`);
      }
      return result.data;
    });
  }
}

function assertTrustedSender(event: IpcMainInvokeEvent, channel: string, isTrustedFrameUrl: (frameUrl: string) => boolean): void {
  // senderFrame is null when the frame navigated away or was destroyed before the call arrived.
  const frameUrl = event.senderFrame?.url;
  if (!frameUrl || !isTrustedFrameUrl(frameUrl)) {
    throw new Error(`Refused ${channel}: the caller is not Sightline's own page.`);
  }
}
