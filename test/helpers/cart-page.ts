/**
 * A small page for the SDK and flow tests, served on 127.0.0.1: a text field at a known place (a click at
 * (250, 120) focuses it), a cart total, and a banner the test may change. Positions are fixed so scripted models
 * can act on them at a 1280×800 viewport.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export const CART_PAGE = `<!doctype html><html><head><title>Cart</title><style>
  body { margin: 0; font: 20px sans-serif; }
  #name { position: absolute; left: 100px; top: 100px; width: 300px; height: 40px; font-size: 20px; }
  #total { position: absolute; left: 100px; top: 200px; }
  #banner { position: absolute; left: 100px; top: 300px; }
</style></head><body>
  <input id="name" autocomplete="off" aria-label="Name">
  <div id="total">Total: $12.50</div>
  <div id="banner">Processing…</div>
</body></html>`;

/** Where a click focuses the name field. */
export const NAME_FIELD = { x: 250, y: 120 };

export interface CartPageServer {
  url: string;
  close(): Promise<void>;
}

export async function startCartPage(): Promise<CartPageServer> {
  const server: Server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(CART_PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
