/**
 * The page's live events over HTTP: every subscriber shares one EventSource (a browser holds six
 * connections to an origin, and each open stream keeps one), the stream closes with its last subscriber,
 * and each subscriber is told to read its state again when the stream opens or reopens after it subscribed.
 */
import { describe, expect, it } from 'vitest';
import { createHttpClient } from '../../src/renderer/src/api/http-client.js';
import type { EventStreamHandlers } from '../../src/renderer/src/api/shared-event-stream.js';
import type { AppEvent } from '../../src/shared/app-api.js';

class FakeStream {
  closed = false;
  constructor(
    readonly url: string,
    private readonly handlers: EventStreamHandlers,
  ) {}
  close(): void {
    this.closed = true;
  }
  send(event: AppEvent): void {
    this.handlers.onMessage(JSON.stringify(event));
  }
  open(): void {
    this.handlers.onOpen();
  }
}

function clientWithFakeStreams() {
  const opened: FakeStream[] = [];
  const client = createHttpClient({
    origin: 'http://127.0.0.1:4123',
    token: 'the-token',
    fetch: () => Promise.reject(new Error('no calls in this test')),
    openEventStream: (url, handlers) => {
      const source = new FakeStream(url, handlers);
      opened.push(source);
      return source;
    },
  });
  return { client, opened };
}

const WARNING: AppEvent = { type: 'warning', sessionId: 'ses_000000000001', at: 0, message: 'slow' };

describe('live events over HTTP', () => {
  it('opens one stream for every subscriber, with the token, and closes it with the last one', () => {
    const { client, opened } = clientWithFakeStreams();
    const first: AppEvent[] = [];
    const second: AppEvent[] = [];
    const stopFirst = client.subscribe((event) => first.push(event));
    const stopSecond = client.subscribe((event) => second.push(event));
    expect(opened).toHaveLength(1);
    expect(opened[0]?.url).toBe('http://127.0.0.1:4123/api/events?token=the-token');

    opened[0]?.send(WARNING);
    expect(first).toEqual([WARNING]);
    expect(second).toEqual([WARNING]);

    stopFirst();
    stopFirst();
    expect(opened[0]?.closed).toBe(false);
    opened[0]?.send(WARNING);
    expect(first).toHaveLength(1);
    stopSecond();
    expect(opened[0]?.closed).toBe(true);

    // A later subscriber gets a stream of its own again.
    const stopThird = client.subscribe(() => undefined);
    expect(opened).toHaveLength(2);
    stopThird();
  });

  it('tells each subscriber to read again when the stream opens or reopens, and only those still subscribed', () => {
    const { client, opened } = clientWithFakeStreams();
    let early = 0;
    let late = 0;
    const stopEarly = client.subscribe(() => undefined, () => (early += 1));
    opened[0]?.open();
    expect(early).toBe(1);

    // Subscribed to a stream already open: nothing was missed, nothing to read again.
    client.subscribe(() => undefined, () => (late += 1));
    expect(late).toBe(0);

    // The connection dropped and EventSource reconnected: events in between are gone for everyone.
    opened[0]?.open();
    expect([early, late]).toEqual([2, 1]);
    stopEarly();
    opened[0]?.open();
    expect([early, late]).toEqual([2, 2]);
  });

  it('lets a listener unsubscribe while an event is delivered without skipping the others', () => {
    const { client, opened } = clientWithFakeStreams();
    const received: string[] = [];
    const stop = client.subscribe(() => {
      received.push('first');
      stop();
    });
    client.subscribe(() => received.push('second'));
    opened[0]?.send(WARNING);
    opened[0]?.send(WARNING);
    expect(received).toEqual(['first', 'second', 'second']);
  });
});
