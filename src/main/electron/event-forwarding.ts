/**
 * Live events to the renderer: every event on the bus is sent to the app's window on APP_EVENT_CHANNEL,
 * where the preload hands it to `window.sightline.onEvent` listeners. Only our own window receives them.
 */
import type { WebContents } from 'electron';
import { APP_EVENT_CHANNEL } from '../../shared/app-api.js';
import type { EventBus } from '../app/event-bus.js';

export function forwardEvents(events: EventBus, currentContents: () => WebContents | null): () => void {
  return events.subscribe((event) => {
    const contents = currentContents();
    if (contents !== null && !contents.isDestroyed()) contents.send(APP_EVENT_CHANNEL, event);
  });
}
