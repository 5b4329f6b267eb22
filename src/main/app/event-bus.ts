/**
 * Fan-out of live events to every subscriber (each Electron window, each SSE connection). A subscriber that
 * throws is dropped from that one delivery, never from the run: a broken listener must not stop the agent.
 */
import type { AppEvent } from '../../shared/app-api.js';

export type AppEventListener = (event: AppEvent) => void;

export class EventBus {
  private readonly listeners = new Set<AppEventListener>();

  /** Returns the function that unsubscribes. */
  subscribe(listener: AppEventListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  publish(event: AppEvent): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (error) {
        console.error(`A live event subscriber failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }

  get subscriberCount(): number {
    return this.listeners.size;
  }
}
