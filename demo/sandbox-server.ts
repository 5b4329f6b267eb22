/**
 * Serves the bundled sandbox page (resources/sandbox) on 127.0.0.1 and keeps its state: the page sends
 * it to /api/settings when Save or Add is clicked, and loads it from there when it opens. So a new browser
 * (each `sightline run` starts its own) continues where the last one left off, and the demo and the
 * tests can read what the agent's clicks and keystrokes did, as the page itself reported it.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve } from 'node:path';
import { z } from 'zod';

export const SANDBOX_FOLDER = resolve(import.meta.dirname, '../resources/sandbox');

export const SandboxStateSchema = z.object({
  teamName: z.string().max(200),
  weeklySummary: z.boolean(),
  plan: z.enum(['free', 'team', 'enterprise']),
  members: z.array(z.string().max(200)).max(100),
});
export type SandboxState = z.infer<typeof SandboxStateSchema>;

export const INITIAL_SANDBOX_STATE: SandboxState = { teamName: '', weeklySummary: false, plan: 'free', members: [] };

export interface SandboxServer {
  /** The page's address, e.g. http://127.0.0.1:41234/ */
  url: string;
  /** The state as the page last sent it. */
  state(): SandboxState;
  /** How many times the page has sent its state (each Save or Add). */
  saves(): number;
  close(): Promise<void>;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

const MAX_BODY_BYTES = 64 * 1024;

export async function startSandboxServer(): Promise<SandboxServer> {
  let state = INITIAL_SANDBOX_STATE;
  let saves = 0;
  const server = createServer((request, response) => {
    void handle(request, response).catch(() => send(response, 500, 'text/plain', 'sandbox server error'));
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = new URL(request.url ?? '/', 'http://sandbox').pathname;
    if (path === '/api/settings' && request.method === 'GET') return send(response, 200, 'application/json', JSON.stringify(state));
    if (path === '/api/settings' && request.method === 'POST') {
      const parsed = SandboxStateSchema.safeParse(parseJson(await readBody(request)));
      if (!parsed.success) return send(response, 400, 'text/plain', 'not a sandbox state');
      state = parsed.data;
      saves += 1;
      return send(response, 204, 'text/plain', '');
    }
    if (request.method !== 'GET') return send(response, 405, 'text/plain', 'method not allowed');
    await sendFile(path === '/' ? '/index.html' : path, response);
  }

  await new Promise<void>((resolveListen) => server.listen(0, '127.0.0.1', resolveListen));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    state: () => state,
    saves: () => saves,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolveClose) => server.close(() => resolveClose()));
    },
  };
}

async function sendFile(path: string, response: ServerResponse): Promise<void> {
  // normalize() resolves any "..": a request can only name files inside the sandbox folder.
  const file = join(SANDBOX_FOLDER, normalize(decodeURIComponent(path)).replace(/^(\.\.[/\\])+/, ''));
  const type = CONTENT_TYPES[extname(file)];
  if (!file.startsWith(SANDBOX_FOLDER) || type === undefined) return send(response, 404, 'text/plain', 'not found');
  const body = await readFile(file).catch(() => undefined);
  if (body === undefined) return send(response, 404, 'text/plain', 'not found');
  send(response, 200, type, body);
}

function send(response: ServerResponse, status: number, type: string, body: string | Buffer): void {
  if (response.headersSent) return;
  response.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
  response.end(body);
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolveBody, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error('body too large'));
        request.destroy();
      } else chunks.push(chunk);
    });
    request.on('end', () => resolveBody(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
