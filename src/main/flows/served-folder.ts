/**
 * Midscene's `serve:`: a script's folder served read-only on loopback for the flow's lifetime, so that its `url`
 * can name a page in it. Only GET and HEAD of a file inside the folder (its real path too: a symbolic link does
 * not lead out); anything else is 404 or 405, saying nothing of what lies outside.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readStaticFile } from '../api/http/static-files.js';

export interface ServedFolder {
  /** `http://127.0.0.1:PORT`, without a trailing slash. */
  origin: string;
  /** A page of the folder: Midscene puts the script's url after the server's address, a leading `/` or not. */
  urlOf(path: string): string;
  close(): Promise<void>;
}

export async function serveFolder(folder: string): Promise<ServedFolder> {
  const server: Server = createServer((request, response) => {
    const method = request.method ?? 'GET';
    if (method !== 'GET' && method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    let pathname: string;
    try {
      pathname = new URL(request.url ?? '/', 'http://served.invalid').pathname;
    } catch {
      response.writeHead(400).end();
      return;
    }
    void readStaticFile(folder, pathname).then(
      (file) => {
        if (file === undefined) {
          response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found');
          return;
        }
        response.writeHead(200, { 'content-type': file.contentType, 'content-length': file.bytes.length, 'cache-control': 'no-store' });
        response.end(method === 'HEAD' ? undefined : file.bytes);
      },
      () => response.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    urlOf: (path) => new URL(`${origin}/${path.replace(/^\/+/, '')}`).href,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
