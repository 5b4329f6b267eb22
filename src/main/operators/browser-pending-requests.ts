/**
 * The requests a browser action started and that are still on their way: a click on a link fetches the next
 * document, a button fetches data and draws it when it comes. The screen cannot show what has not arrived,
 * so after an action the operator waits for these before the screen is watched settle (settle-watch.ts).
 *
 * Only requests started since the last action count: a long poll or a stream that was open before it would
 * otherwise hold every step to the cap. Media, websockets and event streams are never waited for: they may
 * never end by design.
 */
import type { BrowserContext, Request } from 'playwright-core';

const AWAITED_RESOURCE_TYPES = new Set(['document', 'stylesheet', 'image', 'font', 'script', 'xhr', 'fetch']);

export class PendingRequests {
  private sequence = 0;
  /** Requests numbered at least this were started since the last action. */
  private firstOfAction = 1;
  private readonly inFlight = new Map<Request, number>();
  /** Whether a request since the last action was for a document: a navigation, whose page must then load. */
  private documentSinceAction = false;
  private readonly waiters = new Set<() => void>();

  /** `counts`: in the person's own browser, only the requests of Sightline's tabs (browser-owned-tabs.ts). */
  constructor(context: BrowserContext, counts: (request: Request) => boolean = () => true) {
    context.on('request', (request) => {
      if (!counts(request)) return;
      this.sequence += 1;
      const type = request.resourceType();
      if (type === 'document') this.documentSinceAction = true;
      if (AWAITED_RESOURCE_TYPES.has(type)) this.inFlight.set(request, this.sequence);
    });
    const ended = (request: Request): void => {
      if (!this.inFlight.delete(request)) return;
      for (const wake of [...this.waiters]) wake();
    };
    context.on('requestfinished', ended);
    context.on('requestfailed', ended);
  }

  /** Called as an action starts: what was in flight before it is not its doing. */
  markAction(): void {
    this.firstOfAction = this.sequence + 1;
    this.documentSinceAction = false;
  }

  /** Whether the last action started a navigation (of the page or of a frame in it). */
  navigatedSinceAction(): boolean {
    return this.documentSinceAction;
  }

  /** Resolves when no request the last action started is in flight, or at `deadline` (Date.now() time). */
  async untilDone(deadline: number): Promise<void> {
    while (this.anyOfActionInFlight()) {
      const left = deadline - Date.now();
      if (left <= 0) return;
      await this.nextEndOrTimeout(left);
    }
  }

  private anyOfActionInFlight(): boolean {
    for (const number of this.inFlight.values()) if (number >= this.firstOfAction) return true;
    return false;
  }

  private nextEndOrTimeout(milliseconds: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        this.waiters.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, milliseconds);
      this.waiters.add(wake);
    });
  }
}
