/**
 * The browser operator's scope (agent.blockedUrls, agent.allowFileUrls) through `sightline run`: a scripted
 * model clicks its way toward a blocked URL by a link, a redirect, a form post and a popup. The browser
 * never asks the server for the blocked page, the model is told in the click's tool result, and the run
 * goes on. Pages that ask Chromium to prefetch or prerender a blocked page (speculation rules, link hints)
 * get no request to it either, and a page a service worker answers itself is left after the action.
 * A file: start URL is refused without --allow-file-urls (exit 2) and opened with it; a start page that
 * loads a blocked frame or posts itself to a blocked redirect opens, the model told.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/main/cli/program.js';
import { AgentEventSchema, type AgentEvent } from '../../src/shared/events.js';
import { captureIo } from '../helpers/cli-io.js';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../helpers/fake-openai-server.js';
import { scriptedMoves, type RequestSummary } from '../helpers/scripted-computer-model.js';
import { createTemporaryHome, openHomeStorage, type TemporaryHome } from '../helpers/seed.js';
import { waitFor } from '../helpers/wait-for.js';

// A link, a submit button or a popup link over the whole page: a click anywhere follows it.
const COVER = 'position:fixed;inset:0;display:block;font-size:40px';
const KEY_LOG = `<script>document.addEventListener('keydown', (event) => void fetch('/keys', { method: 'POST', body: event.key, keepalive: true }));</script>`;
// {{outside}} is the origin of the second server, which is out of scope as a whole.
const speculation = (kind: 'prefetch' | 'prerender', url: string): string =>
  `<script type="speculationrules">{"${kind}":[{"source":"list","urls":["${url}"],"eagerness":"immediate"}]}</script><a href="${url}" style="${COVER}">Continue</a>`;
const PAGES: Record<string, string> = {
  '/link': `<a href="/blocked/page" style="${COVER}">Continue</a>`,
  '/speculate-prerender': speculation('prerender', '{{outside}}/prerendered'),
  '/speculate-prefetch': speculation('prefetch', '{{outside}}/prefetched'),
  '/speculate-same-origin': speculation('prerender', '/blocked/prerendered'),
  '/speculate-redirect': speculation('prerender', '/go-outside'),
  '/link-hints': `<link rel="prefetch" href="{{outside}}/link-prefetched"><link rel="prerender" href="{{outside}}/link-prerendered"><a href="{{outside}}/link-prefetched" style="${COVER}">Continue</a>`,
  // The link shows once the worker controls the page; the hidden frame holds the load event until then.
  '/worker': `<script>navigator.serviceWorker.register('/worker.js').then(() => navigator.serviceWorker.ready).then(() => fetch('/worker-ready'));</script><iframe src="/until-worker" style="width:1px;height:1px;border:0"></iframe><a href="/blocked/from-worker" style="${COVER}">Continue</a>`,
  '/framed': `<p>A page with a frame.</p><iframe src="/blocked/frame"></iframe>`,
  '/posts-itself': `<form method="post" action="/go"></form><p>Sending…</p><script>document.forms[0].submit();</script>`,
  '/redirect': `<a href="/go" style="${COVER}">Continue</a>`,
  '/chain': `<a href="/hop" style="${COVER}">Continue</a>`,
  '/landed': '<p>The end of an allowed redirect.</p>',
  '/repost': `<form method="post" action="/keep-post"><button style="${COVER}">Send</button></form>`,
  '/repost-fine': `<form method="post" action="/keep-post-fine"><input name="note" value="kept" type="hidden"><button style="${COVER}">Send</button></form>`,
  '/form': `<form method="post" action="/blocked/form"><input name="secret" value="s3cret" type="hidden"><button style="${COVER}">Send</button></form>`,
  '/popup': `<a href="/blocked/popup" target="_blank" style="${COVER}">Open</a>${KEY_LOG}`,
};

// /hop passes the check of its first hop (to /next), and only its second hop leaves the scope.
const REDIRECTS: Record<string, string> = { '/go': '/blocked/redirected', '/hop': '/next', '/next': '/blocked/chained', '/fine': '/landed', '/go-outside': '{{outside}}/redirected' };

// Answers navigations to /blocked/ itself: the browser shows a blocked URL without a request for it.
const WORKER = `self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
self.addEventListener('fetch', (event) => {
  if (new URL(event.request.url).pathname.startsWith('/blocked/')) {
    event.respondWith(new Response('<body style="background:#c00"><h1>Made up by the worker</h1></body>', { headers: { 'content-type': 'text/html' } }));
  }
});`;

let site: { origin: string; hits: string[]; keys: string[]; server: Server };
/** Out of scope as a whole (agent.blockedUrls): it records every request that reaches it. */
let outside: { origin: string; hits: string[]; server: Server };
let model: FakeOpenAiServer;
let home: TemporaryHome;

beforeAll(async () => {
  const outsideHits: string[] = [];
  const outsideServer = createServer((request, response) => {
    outsideHits.push(`${request.method} ${request.url} (sec-purpose: ${request.headers['sec-purpose'] ?? 'none'})`);
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><body style="background:#c00"><h1>Outside the scope</h1></body>');
  });
  await new Promise<void>((done) => outsideServer.listen(0, '127.0.0.1', done));
  outside = { origin: `http://127.0.0.1:${(outsideServer.address() as AddressInfo).port}`, hits: outsideHits, server: outsideServer };
  const withOutside = (text: string): string => text.replaceAll('{{outside}}', outside.origin);

  let workerReady!: () => void;
  const untilWorkerReady = new Promise<void>((resolve) => (workerReady = resolve));
  const hits: string[] = [];
  const keys: string[] = [];
  const server = createServer((request, response) => {
    hits.push(`${request.method} ${request.url}`);
    if (request.url === '/worker.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(WORKER);
      return;
    }
    if (request.url === '/worker-ready') {
      workerReady();
      response.writeHead(204).end();
      return;
    }
    if (request.url === '/until-worker') {
      void untilWorkerReady.then(() => response.writeHead(200, { 'content-type': 'text/html' }).end('ready'));
      return;
    }
    if (request.url === '/keys') {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        keys.push(body);
        response.writeHead(204).end();
      });
      return;
    }
    const redirect = REDIRECTS[request.url ?? ''];
    if (redirect !== undefined) {
      response.writeHead(302, { location: withOutside(redirect) }).end();
      return;
    }
    // A POST kept as a POST over two hops (307), out of scope at the second, or landing in scope.
    const postRedirect = { '/keep-post': '/keep-post-again', '/keep-post-again': '/blocked/post', '/keep-post-fine': '/posted' }[request.url ?? ''];
    if (postRedirect !== undefined) {
      response.writeHead(307, { location: postRedirect }).end();
      return;
    }
    if (request.url === '/posted') {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => response.writeHead(200, { 'content-type': 'text/html' }).end(`<p>${request.method} ${body}</p>`));
      return;
    }
    const page = PAGES[request.url ?? ''] ?? '<p>A page the scope should never let the browser reach.</p>';
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><html><body>${withOutside(page)}</body></html>`);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  site = { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits, keys, server };
  model = await startFakeOpenAiServer();
  home = createTemporaryHome('sightline-browser-scope');
  writeFileSync(home.configFile, JSON.stringify({ agent: { blockedUrls: ['http://127.0.0.1/blocked/*', `${outside.origin}/*`] } }));
});

afterAll(async () => {
  await new Promise<void>((done) => site?.server.close(() => done()));
  await new Promise<void>((done) => outside?.server.close(() => done()));
  await model?.close();
  home?.remove();
});

type Move = Parameters<typeof scriptedMoves>[0][number];

async function runOn(path: string, moves: Move[]): Promise<{ exitCode: number; events: AgentEvent[]; requests: RequestSummary[]; stderr: string }> {
  const requests: RequestSummary[] = [];
  model.script(scriptedMoves(moves, (summary) => requests.push(summary)));
  const io = captureIo();
  const exitCode = await runCli(
    ['--home', home.root, 'run', 'Finish the form', '--operator', 'browser', '--url', `${site.origin}${path}`, '--base-url', model.baseUrl, '--json'],
    io,
  );
  const events = io.output.stdout.split('\n').filter((line) => line !== '').map((line) => AgentEventSchema.parse(JSON.parse(line)));
  return { exitCode, events, requests, stderr: io.output.stderr };
}

const CLICK: Move = { action: { action: 'click', x: 300, y: 300 }, thought: 'Following the page.' };

describe('a navigation to a blocked URL', () => {
  for (const [path, blocked] of [
    ['/link', '/blocked/page'],
    ['/redirect', '/blocked/redirected'],
    ['/form', '/blocked/form'],
    ['/chain', '/blocked/chained'],
  ] as const) {
    it(`is refused and the model is told (${path.slice(1)})`, { timeout: 60_000 }, async () => {
      const run = await runOn(path, [CLICK, { finish: 'Done.' }]);

      expect(run.exitCode, run.stderr).toBe(0);
      expect(site.hits.filter((hit) => hit.includes('/blocked/'))).toEqual([]);
      // The click's tool result, in the model's next request, says what was not opened and why.
      const refusedHop = { '/redirect': '/go', '/chain': '/next' }[path as string] ?? blocked;
      expect(run.requests[1]!.text).toContain(`The browser did not open ${site.origin}${refusedHop}`);
      expect(run.requests[1]!.text).toContain('agent.blockedUrls');
      if (refusedHop !== blocked) expect(run.requests[1]!.text).toContain(`redirects to ${site.origin}${blocked}`);
      const click = run.events.find((event): event is Extract<AgentEvent, { type: 'step' }> => event.type === 'step' && event.action?.action === 'click');
      expect(click?.ok).toBe(true);
      // The step row keeps what the model was told.
      const storage = openHomeStorage(home);
      try {
        const stored = storage.steps.listBySession(run.events[0]!.sessionId).find((step) => (step.action as { action?: string } | null)?.action === 'click');
        expect((stored?.result as { detail?: string } | null)?.detail).toContain(`The browser did not open ${site.origin}${refusedHop}`);
      } finally {
        storage.close();
      }
    });
  }

  it('in a popup is refused, the popup closed, and the agent goes on in the page that opened it', { timeout: 60_000 }, async () => {
    const run = await runOn('/popup', [CLICK, { action: { action: 'type', text: 'ok' }, thought: 'Back on the form.' }, { finish: 'Done.' }]);

    expect(run.exitCode, run.stderr).toBe(0);
    expect(site.hits.filter((hit) => hit.includes('/blocked/'))).toEqual([]);
    expect(run.requests[1]!.text).toContain(`The browser did not open ${site.origin}/blocked/popup`);
    await waitFor(() => site.keys.length >= 2, { description: 'the opener to record the typed keys' });
    expect(site.keys).toEqual(['o', 'k']);
  });
});

/** The click's step as stored: what the model was told, and whether its screenshot was the one before. */
function storedClick(run: { events: AgentEvent[] }): { detail?: string; unchanged?: boolean } | undefined {
  const storage = openHomeStorage(home);
  try {
    const steps = storage.steps.listBySession(run.events[0]!.sessionId);
    return steps.find((step) => (step.action as { action?: string } | null)?.action === 'click')?.result as { detail?: string; unchanged?: boolean } | undefined;
  } finally {
    storage.close();
  }
}

describe('a page that asks the browser to load a blocked page ahead', () => {
  for (const [path, link, told] of [
    ['/speculate-prerender', '{{outside}}/prerendered', undefined],
    ['/speculate-prefetch', '{{outside}}/prefetched', undefined],
    ['/speculate-same-origin', '/blocked/prerendered', undefined],
    ['/speculate-redirect', '/go-outside', 'redirects to {{outside}}/redirected'],
    ['/link-hints', '{{outside}}/link-prefetched', undefined],
  ] as const) {
    it(`gets no request to it, and a click on its link is refused (${path.slice(1)})`, { timeout: 60_000 }, async () => {
      const run = await runOn(path, [CLICK, { finish: 'Done.' }]);
      const named = (text: string): string => text.replaceAll('{{outside}}', outside.origin).replace(/^\//, `${site.origin}/`);

      expect(run.exitCode, run.stderr).toBe(0);
      expect(outside.hits).toEqual([]);
      expect(site.hits.filter((hit) => hit.includes('/blocked/'))).toEqual([]);
      expect(run.requests[1]!.text).toContain(`The browser did not open ${named(link)}`);
      if (told !== undefined) expect(run.requests[1]!.text).toContain(named(told));
      // The page did not change: the screenshot after the click is the one before it (no prerendered page shown).
      expect(storedClick(run)).toMatchObject({ unchanged: true });
    });
  }
});

describe('a blocked page that comes without a request', () => {
  it('is left after the action (a service worker answers the navigation itself), and the model is told', { timeout: 60_000 }, async () => {
    const run = await runOn('/worker', [CLICK, { finish: 'Done.' }]);

    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.requests[1]!.text).toContain(`The browser did not stay on ${site.origin}/blocked/from-worker: `);
    expect(run.requests[1]!.text).toContain('it went back');
    expect(storedClick(run)?.detail).toContain(`The browser did not stay on ${site.origin}/blocked/from-worker`);
  });
});

describe('a POST redirected with 307, which keeps it a POST', () => {
  it('is refused at the hop that leaves the scope, before the POST reaches it', { timeout: 60_000 }, async () => {
    const run = await runOn('/repost', [CLICK, { finish: 'Done.' }]);

    expect(run.exitCode, run.stderr).toBe(0);
    expect(site.hits.filter((hit) => hit.includes('/blocked/'))).toEqual([]);
    expect(run.requests[1]!.text).toContain(`The browser did not open ${site.origin}/keep-post: it redirects to ${site.origin}/blocked/post, and `);
  });

  it('lands in scope, and the POST reaches it once', { timeout: 60_000 }, async () => {
    const hitsBefore = site.hits.length;
    const run = await runOn('/repost-fine', [CLICK, { finish: 'Done.' }]);

    expect(run.exitCode, run.stderr).toBe(0);
    expect(site.hits.slice(hitsBefore).filter((hit) => hit.endsWith('/posted'))).toEqual(['POST /posted']);
    expect(run.requests[1]!.text).not.toContain('The browser did not open');
  });
});

describe('a redirect inside the scope', () => {
  it('is followed to its end', { timeout: 60_000 }, async () => {
    model.script(scriptedMoves([{ finish: 'Landed.' }]));
    const io = captureIo();
    const exitCode = await runCli(
      ['--home', home.root, 'run', 'Open the page', '--operator', 'browser', '--url', `${site.origin}/fine`, '--base-url', model.baseUrl],
      io,
    );

    expect(exitCode, io.output.stderr).toBe(0);
    expect(io.output.stderr).toContain(`browser operator on ${site.origin}/landed`);
  });
});

describe('a blocked start URL', () => {
  it('is refused before anything starts (exit 2)', async () => {
    const io = captureIo();
    const exitCode = await runCli(['--home', home.root, 'run', 'Open it', '--operator', 'browser', '--url', `${site.origin}/blocked/start`, '--base-url', model.baseUrl], io);

    expect(exitCode).toBe(2);
    expect(io.output.stderr).toContain(`--url: ${site.origin}/blocked/start is blocked by agent.blockedUrls (http://127.0.0.1/blocked/*).`);
  });

  it('is refused when the start URL redirects to it (exit 2)', { timeout: 60_000 }, async () => {
    const io = captureIo();
    const exitCode = await runCli(['--home', home.root, 'run', 'Open it', '--operator', 'browser', '--url', `${site.origin}/go`, '--base-url', model.baseUrl], io);

    expect(exitCode).toBe(2);
    expect(io.output.stderr).toContain(`cannot open ${site.origin}/go: The browser did not open ${site.origin}/go: it redirects to ${site.origin}/blocked/redirected`);
    expect(site.hits.filter((hit) => hit.includes('/blocked/'))).toEqual([]);
  });
});

describe('a start page that loads a blocked URL itself', () => {
  for (const [path, refused] of [
    ['/framed', '/blocked/frame'],
    ['/posts-itself', '/go'],
  ] as const) {
    it(`opens, and the model is told what it loaded (${path.slice(1)})`, { timeout: 60_000 }, async () => {
      const run = await runOn(path, [CLICK, { finish: 'Done.' }]);

      expect(run.exitCode, run.stderr).toBe(0);
      expect(site.hits.filter((hit) => hit.includes('/blocked/'))).toEqual([]);
      expect(run.requests[1]!.text).toContain(`The browser did not open ${site.origin}${refused}: `);
    });
  }

  it('that never shows is refused naming the URL refused, not the start URL (exit 2)', { timeout: 60_000 }, async () => {
    const io = captureIo();
    const exitCode = await runCli(['--home', home.root, 'run', 'Open it', '--operator', 'browser', '--url', `${site.origin}/hop`, '--base-url', model.baseUrl], io);

    expect(exitCode).toBe(2);
    expect(io.output.stderr).toContain(
      `cannot open ${site.origin}/hop: it redirects to ${site.origin}/next, and the browser did not open that: it redirects to ${site.origin}/blocked/chained, and `,
    );
  });
});

describe('a file: start URL', () => {
  let folder: string;
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'sightline-file-url-'));
    writeFileSync(join(folder, 'page.html'), '<!doctype html><p>A page on disk.</p>');
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('is refused without --allow-file-urls, with the flag to add', async () => {
    const io = captureIo();
    const url = pathToFileURL(join(folder, 'page.html')).href;
    const exitCode = await runCli(['--home', home.root, 'run', 'Read the page', '--operator', 'browser', '--url', url, '--base-url', model.baseUrl], io);

    expect(exitCode).toBe(2);
    expect(io.output.stderr).toContain(`--url: ${url} is a file: URL, and file: URLs are not allowed (agent.allowFileUrls, --allow-file-urls).`);
  });

  it('is refused by sightline mcp too without --allow-file-urls', async () => {
    const io = captureIo();
    const url = pathToFileURL(join(folder, 'page.html')).href;
    const exitCode = await runCli(['--home', home.root, 'mcp', '--operator', 'browser', '--url', url], io);

    expect(exitCode).toBe(2);
    expect(io.output.stderr).toContain('--allow-file-urls');
  });

  it('is opened with --allow-file-urls', { timeout: 60_000 }, async () => {
    model.script(scriptedMoves([{ finish: 'Read it.' }]));
    const io = captureIo();
    const url = pathToFileURL(join(folder, 'page.html')).href;
    const exitCode = await runCli(
      ['--home', home.root, 'run', 'Read the page', '--operator', 'browser', '--url', url, '--allow-file-urls', '--base-url', model.baseUrl],
      io,
    );

    expect(exitCode, io.output.stderr).toBe(0);
    expect(io.output.stderr).toContain(`browser operator on ${url}`);
  });
});
