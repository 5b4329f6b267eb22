/**
 * The stop indicator's IPC channels, apart from their schemas: the sandboxed preload is one bundled file,
 * and these names are all it needs (validation happens in the main process and the page).
 */

/** The indicator asks the main process to stop every run (invoke, no arguments). */
export const STOP_INDICATOR_STOP_CHANNEL = 'sightline:stop-indicator:stop';
/** The main process tells the indicator what to show (send). */
export const STOP_INDICATOR_STATE_CHANNEL = 'sightline:stop-indicator:state';
