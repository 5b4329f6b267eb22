/**
 * The IPC channel of each app API call. Kept apart from the schemas in app-api.ts so the preload can import
 * them without bundling zod: the preload only forwards calls, validation happens in the main process.
 * The HTTP transport (`sightline timeline`) serves the same calls as POST /api/<name>.
 */
export const APP_API_CHANNELS = {
  appInfo: 'app:info',
  listSessions: 'sessions:list',
  getSession: 'sessions:get',
  deleteSession: 'sessions:delete',
  exportReport: 'sessions:export-report',
  listSteps: 'steps:list',
  getImage: 'images:get',
  pinImage: 'images:pin',
  unpinImage: 'images:unpin',
  listMedia: 'media:list',
  getMedia: 'media:get',
  listSearchReports: 'search-reports:list',
  listInjections: 'injections:list',
  listRuns: 'runs:list',
  startRun: 'runs:start',
  stopRun: 'runs:stop',
  pauseRun: 'runs:pause',
  resumeRun: 'runs:resume',
  answerConfirmation: 'runs:answer-confirmation',
  answerQuestion: 'runs:answer-question',
  getKeyStatus: 'keys:status',
  saveApiKey: 'keys:save',
  permissionStatus: 'permissions:status',
  openPermissionSettings: 'permissions:open-settings',
} as const;

export type AppApiName = keyof typeof APP_API_CHANNELS;

/** The channel on which the main process pushes live events (AppEvent) to the renderer (webContents.send). */
export const APP_EVENT_CHANNEL = 'app:event';
