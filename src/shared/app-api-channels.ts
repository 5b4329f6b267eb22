/**
 * The IPC channel of each app API call. Kept apart from the schemas in app-api.ts so the preload can import
 * them without bundling zod: the preload only forwards calls, validation happens in the main process.
 */
export const APP_API_CHANNELS = {
  appInfo: 'app:info',
} as const;

export type AppApiName = keyof typeof APP_API_CHANNELS;
