/**
 * What the timeline UI talks to: the app API, whichever way the page was opened. Inside the Electron app the
 * calls go over IPC (window.sightline, see ipc-client.ts); in a browser opened by `sightline timeline` they
 * go over HTTP with the token from the page's URL (http-client.ts). Components take an AppApiClient and never
 * ask which one it is.
 *
 *   const client = connectAppApi();              // null: a plain preview of the page, nothing to load
 *   const { sessions } = await client.listSessions({ limit: 50 });
 *   const stop = client.subscribe((event) => …); // live AppEvents of every run; call stop() to unsubscribe
 *   const image = await client.getImage({ imageId, thumbnailWidth: 320 });
 *
 * Every call rejects with an AppApiError ({code, message}) when the main process refuses it.
 */
import type { AppApiArguments, AppApiName, AppApiResult, AppEvent } from '../../../shared/app-api.js';
import type { ImageUnavailableReason, TimelineImageZone } from '../../../shared/images.js';

export { AppApiError, type AppApiErrorCode, type AppEvent } from '../../../shared/app-api.js';

export type AppApiCalls = {
  [Name in AppApiName]: (...callArguments: AppApiArguments<Name>) => Promise<AppApiResult<Name>>;
};

export interface AppApiClient extends AppApiCalls {
  /** 'ipc' inside the Electron app, 'http' in a browser served by `sightline timeline`. */
  readonly transport: 'ipc' | 'http';
  /**
   * Calls `listener` with every live event until the returned function is called. `onResync` is called when
   * events may have been missed (the HTTP stream connected after this subscription, or reconnected): state
   * read before then should be read again. Over IPC nothing is missed and it is never called.
   */
  subscribe(listener: LiveEventListener, onResync?: () => void): () => void;
}

export type LiveEventListener = (event: AppEvent) => void;

/** The bytes of a getImage result as a URL an <img> can show (a data: URL: the CSP allows data: images). */
export function imageDataUrl(image: { mime: string; dataBase64: string }): string {
  return `data:${image.mime};base64,${image.dataBase64}`;
}

export type LoadedImage =
  | { status: 'ok'; url: string; width: number; height: number; zone: TimelineImageZone }
  | { status: 'unavailable'; reason: ImageUnavailableReason; message: string };

/**
 * An image by id, ready for <img src>, on either transport; `unavailable` says why it cannot be shown
 * (purged by retention, missing, damaged, larger than the limit).
 */
export async function loadImage(client: AppApiClient, imageId: string, options: { thumbnailWidth?: number } = {}): Promise<LoadedImage> {
  const image = await client.getImage({ imageId, ...options });
  if (image.status === 'unavailable') return { status: 'unavailable', reason: image.reason, message: image.message };
  return { status: 'ok', url: imageDataUrl(image), width: image.width, height: image.height, zone: image.zone };
}
