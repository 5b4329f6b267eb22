/** The renderer's way to the app API: see app-api-client.ts for how to use it. */
export { AppApiError, imageDataUrl, loadImage, type LoadedImage, type AppApiClient, type AppApiCalls, type AppApiErrorCode, type AppEvent } from './app-api-client.js';
export { connectAppApi, tokenFromLocation, type PageLocation } from './connect.js';
export { createHttpClient, type HttpAppApiClient, type HttpClientOptions } from './http-client.js';
export { createIpcClient } from './ipc-client.js';
