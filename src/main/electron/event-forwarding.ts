/**
 * Live events to the renderer: every event on the bus is sent to the app's window on APP_EVENT_CHANNEL,
 * where the preload hands it to `window.sightline.onEvent` listeners. Only our own window receives them.
 */
import type { WebContents } from 'electron';
import { APP_EVENT_CHANNEL, type AppEvent } from '../../shared/app-api.js';
import type { EventBus } from '../app/event-bus.js';

export function forwardEvents(events: EventBus, currentContents: () => WebContents | null): () => void {
  return events.subscribe((event) => sendToWindow(currentContents, event));
}

/** One event to the app's window, if it has one that is still open. */
export function sendToWindow(currentContents: () => WebContents | null, event: AppEvent): void {
  const contents = currentContents();
  if (contents !== null && !contents.isDestroyed()) contents.send(APP_EVENT_CHANNEL, event);
}
