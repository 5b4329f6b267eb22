/**
 * A page whose click does not end until the test says go: the click handler makes a synchronous request to
 * /latch, which this server holds until `release()`. The page's main thread is blocked meanwhile, so the
 * browser's input call (and with it the agent's current action) is still running, however slow the machine.
 * For tests of what happens *while* an action runs, without guessing how long it takes.
 *
 *   const latch = await startLatchPage();
 *   … sightline run --url latch.url, the model clicks anywhere …
 *   await latch.reached;   // the click is under way and held
 *   …                      // what the test wants to happen mid-action
 *   latch.release();
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LatchPage {
  url: string;
  /** Resolves when a click has reached the latch (the action is running, held). */
  reached: Promise<void>;
  /** Lets the held click finish. Safe to call more than once. */
  release(): void;
  close(): Promise<void>;
}

const PAGE = `<!doctype html><html><head><title>Latch</title><style>
html, body { margin: 0; height: 100%; } button { width: 100%; height: 100%; font-size: 40px; }
</style></head><body><button id="hold">Hold</button><script>
document.getElementById('hold').addEventListener('click', () => {
  const request = new XMLHttpRequest();
  request.open('GET', '/latch', false);
  try { request.send(); } catch {}
});
</script></body></html>`;

export async function startLatchPage(): Promise<LatchPage> {
  let reach: () => void = () => {};
  const reached = new Promise<void>((resolve) => (reach = resolve));
  let releaseHeld: () => void = () => {};
  const released = new Promise<void>((resolve) => (releaseHeld = resolve));
  const server = createServer((request, response) => {
    if (request.url === '/latch') {
      reach();
      void released.then(() => response.writeHead(204).end());
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    reached,
    release: () => releaseHeld(),
    close: async () => {
      releaseHeld();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
