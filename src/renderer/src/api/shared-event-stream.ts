/**
 * One server-sent event stream per page, shared by every subscriber.
 *
 * Why one: a browser holds at most six HTTP/1.1 connections to an origin, and an open stream keeps one for
 * good. A stream per hook (the session list, the open session, the permissions) left half of them for the
 * API calls and images. And a stream opened when a view mounts misses whatever happens before it connects:
 * a session view that mounted just as its run started lost the run's first step and its end.
 *
 * Events sent while the stream was down are lost for good (EventSource reconnects, it does not replay), so
 * each subscriber is told to read its state again whenever the stream (re)opens after it subscribed.
 */
import type { AppEvent } from '../../../shared/app-api.js';
import type { LiveEventListener } from './app-api-client.js';

/** What the stream does with a connection's messages (each a JSON AppEvent) and its (re)openings. */
export interface EventStreamHandlers {
  onMessage(data: string): void;
  onOpen(): void;
}

/** Opens a connection that calls `handlers` until closed: the page's EventSource, or a fake in tests. */
export type OpenEventStream = (handlers: EventStreamHandlers) => { close(): void };

interface Subscriber {
  listener: LiveEventListener;
  onResync: (() => void) | undefined;
}

export interface SharedEventStream {
  subscribe(listener: LiveEventListener, onResync?: () => void): () => void;
}

export function createSharedEventStream(open: OpenEventStream): SharedEventStream {
  const subscribers = new Set<Subscriber>();
  let connection: { close(): void } | null = null;

  const handlers: EventStreamHandlers = {
    onMessage(data) {
      const event = JSON.parse(data) as AppEvent;
      // A copy: a listener may unsubscribe (or subscribe another) while it is called.
      for (const subscriber of [...subscribers]) subscriber.listener(event);
    },
    // Called on the first connection and after each reconnection: either way, what happened before it was
    // not seen by this stream.
    onOpen() {
      for (const subscriber of [...subscribers]) subscriber.onResync?.();
    },
  };

  return {
    subscribe(listener, onResync) {
      const subscriber: Subscriber = { listener, onResync };
      subscribers.add(subscriber);
      connection ??= open(handlers);
      return () => {
        if (!subscribers.delete(subscriber) || subscribers.size > 0) return;
        connection?.close();
        connection = null;
      };
    },
  };
}
