/**
 * After the scope refuses a popup, the browser operator goes on in the page that opened it: the guard closes
 * the popup, and the capture and the click that follow act on the opener, every time (the popup was the page
 * acted on for a moment, and a capture or click on it failed with "Target page, context or browser has been
 * closed" or was lost). Each round does what the agent does after an action (the pending work, then a
 * series of captures), then waits for the refusal as the model learns of it (takeNotices), never by a sleep.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserOperator } from '../../src/main/operators/browser-operator.js';
import type { ModelView } from '../../src/shared/model-view.js';
import { waitFor } from '../helpers/wait-for.js';

// The left half opens a blocked popup; the right half is a button that reports each click.
const PAGE = `<!doctype html><body style="margin:0">
  <a href="/blocked/popup" target="_blank" style="position:fixed;left:0;top:0;width:50%;height:100%;font-size:40px">Open</a>
  <button style="position:fixed;left:50%;top:0;width:50%;height:100%" onclick="fetch('/clicked', { method: 'POST' })">Press</button>
</body>`;

const VIEW: ModelView = { frameWidth: 1280, frameHeight: 800, imageWidth: 1280, imageHeight: 800, coordinateSpace: 'pixels' };
const ROUNDS = 5;

let server: Server;
let origin: string;
let clicks = 0;
const hits: string[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    hits.push(`${request.method} ${request.url}`);
    if (request.url === '/clicked') {
      clicks += 1;
      response.writeHead(204).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((done) => server?.close(() => done()));
});

describe('a popup the scope refuses', () => {
  it('leaves the operator capturing and clicking in the page that opened it', { timeout: 60_000 }, async () => {
    const operator = await BrowserOperator.launch({ url: `${origin}/`, scope: { blockedUrls: ['http://127.0.0.1/blocked/*'] } });
    try {
      for (let round = 1; round <= ROUNDS; round += 1) {
        await operator.capture();
        expect(await operator.execute({ action: 'click', x: 300, y: 400 }, VIEW)).toMatchObject({ ok: true });
        // As the agent watches the screen settle after an action: the popup may open, and close, meanwhile.
        await operator.waitForPendingWork(3000);
        await operator.aroundCaptures(async () => {
          for (let frame = 0; frame < 3; frame += 1) await operator.capture();
        });
        const notices = await waitFor(() => {
          const taken = operator.takeNotices();
          return taken.length > 0 ? taken : undefined;
          // Probed without a pause, so the next action follows the moment the refusal is known.
        }, { description: `the refusal of round ${round}'s popup`, intervalMs: 0 });
        expect(notices).toEqual([expect.stringContaining(`The browser did not open ${origin}/blocked/popup`)]);

        const frame = await operator.capture();
        expect(frame.width).toBe(1280);
        expect(operator.describe().url).toBe(`${origin}/`);
        expect(await operator.execute({ action: 'click', x: 900, y: 400 }, VIEW)).toMatchObject({ ok: true });
        await waitFor(() => clicks === round, { description: `round ${round}'s click on the opener's button` });
      }
      expect(hits.filter((hit) => hit.includes('/blocked/'))).toEqual([]);
    } finally {
      await operator.close();
    }
  });
});
