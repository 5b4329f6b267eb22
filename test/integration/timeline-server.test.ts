/**
 * The HTTP transport of `sightline timeline`, over real sockets: the page and the API on 127.0.0.1 only,
 * the token required (401 without it or with a wrong one), foreign Host and Origin headers refused (403),
 * calls validated by the same schemas, live events as server-sent events, images for <img> with the token.
 * A call must declare its body application/json by media type, parameters aside (issue 24, finding 8a).
 * Its edges hold (issue 17, finding 9): a malformed percent-encoding is a 400, an over-large body a 413
 * the client receives, slow headers and bodies time out, and event streams are capped.
 * Then the command itself as a process: it prints the URL with the token and stops on Ctrl+C.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request as httpRequest, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTimelineServer, TIMELINE_CONTENT_SECURITY_POLICY, type TimelineServer } from '../../src/main/api/http/http-server.js';
import { parsePublicOrigin } from '../../src/main/api/http/http-request-guard.js';
import { createAppService } from '../../src/main/api/app-service.js';
import { DEFAULT_CONFIG } from '../../src/shared/config.js';
import { startAppApiHarness, type AppApiHarness } from '../helpers/app-api-harness.js';
import { createTemporaryHome, openHomeStorage, seedStorage } from '../helpers/seed.js';
import { builtCli } from '../helpers/built-cli.js';
import { runSightline } from '../helpers/cli-io.js';
import { CLI_TEST_MS, scaledLimit } from '../helpers/time-limits.js';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A raw request, so tests control Host and Origin (fetch would not let them). */
function send(
  port: number,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; agent?: Agent } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const target = { host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers: options.headers, ...(options.agent === undefined ? {} : { agent: options.agent }) };
    const outgoing = httpRequest(target, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
    });
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}

let api: AppApiHarness;
let server: TimelineServer;
let rendererDirectory: string;

beforeAll(async () => {
  api = await startAppApiHarness({ seed: { sessions: 2, turnsPerSession: 1, stepsPerTurn: 2 } });
  rendererDirectory = mkdtempSync(join(tmpdir(), 'sightline-renderer-'));
  writeFileSync(join(rendererDirectory, 'index.html'), '<!doctype html><title>Sightline</title>');
  mkdirSync(join(rendererDirectory, 'assets'));
  writeFileSync(join(rendererDirectory, 'assets', 'app.js'), 'console.log(1)');
  writeFileSync(join(tmpdir(), 'sightline-secret-outside.txt'), 'outside');
  server = await startTimelineServer({ implementation: api.service.implementation, events: api.service.events, rendererDirectory, dispatch: api.service.dispatch });
});

afterAll(async () => {
  await server.close();
  await api.close();
  rmSync(rendererDirectory, { recursive: true, force: true });
  rmSync(join(tmpdir(), 'sightline-secret-outside.txt'), { force: true });
});

const json = (token: string | undefined, extra: Record<string, string> = {}) => ({
  'Content-Type': 'application/json',
  ...(token === undefined ? {} : { Authorization: `Bearer ${token}` }),
  ...extra,
});

describe('timeline server', () => {
  it('prints a URL on 127.0.0.1 with a 32-byte token in the fragment', () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/#token=${server.token}`);
    expect(Buffer.from(server.token, 'base64url')).toHaveLength(32);
  });

  it('answers an API call with the token', async () => {
    const reply = await send(server.port, '/api/listSessions', { method: 'POST', headers: json(server.token), body: JSON.stringify([{ limit: 5 }]) });
    expect(reply.status).toBe(200);
    expect(reply.headers['access-control-allow-origin']).toBeUndefined();
    const body = JSON.parse(reply.body.toString()) as { total: number; sessions: Array<{ title: string }> };
    expect(body.total).toBe(2);
    expect(body.sessions.map((session) => session.title)).toEqual(['Session 2', 'Session 1']);
  });

  it('refuses a request without the token, or with a wrong one (401)', async () => {
    const body = JSON.stringify([{ limit: 5 }]);
    const missing = await send(server.port, '/api/listSessions', { method: 'POST', headers: json(undefined), body });
    expect(missing.status).toBe(401);
    expect(JSON.parse(missing.body.toString())).toMatchObject({ error: { code: 'refused' } });
    const wrong = await send(server.port, '/api/listSessions', { method: 'POST', headers: json(`${server.token.slice(0, -2)}xx`), body });
    expect(wrong.status).toBe(401);
    const inQuery = await send(server.port, `/api/events?token=wrong`);
    expect(inQuery.status).toBe(401);
    const image = await send(server.port, `/api/images/${api.seeded[0]?.turns[0]?.images[0]?.id ?? ''}`);
    expect(image.status).toBe(401);
  });

  it('refuses a foreign Origin and a foreign Host (403), even with the token', async () => {
    const body = JSON.stringify([{ limit: 5 }]);
    const origin = await send(server.port, '/api/listSessions', { method: 'POST', headers: json(server.token, { Origin: 'https://evil.example' }), body });
    expect(origin.status).toBe(403);
    const otherPort = await send(server.port, '/api/listSessions', {
      method: 'POST',
      headers: json(server.token, { Origin: `http://127.0.0.1:${server.port + 1}` }),
      body,
    });
    expect(otherPort.status).toBe(403);
    const host = await send(server.port, '/api/listSessions', { method: 'POST', headers: json(server.token, { Host: `evil.example:${server.port}` }), body });
    expect(host.status).toBe(403);
    const page = await send(server.port, '/', { headers: { Host: 'rebound.example' } });
    expect(page.status).toBe(403);
    const own = await send(server.port, '/api/listSessions', { method: 'POST', headers: json(server.token, { Origin: `http://127.0.0.1:${server.port}` }), body });
    expect(own.status).toBe(200);
  });

  it('behind a reverse proxy (--public-origin): answers its host and origin, with the token only; other hosts and origins are still refused', async () => {
    const publicOrigin = parsePublicOrigin('https://Timeline.Team.example');
    const proxied = await startTimelineServer({ implementation: api.service.implementation, events: api.service.events, rendererDirectory, dispatch: api.service.dispatch, publicOrigin });
    try {
      expect(proxied.publicUrl).toBe(`https://timeline.team.example/#token=${proxied.token}`);
      const body = JSON.stringify([{ limit: 5 }]);
      const through = { Host: 'timeline.team.example', Origin: 'https://timeline.team.example' };
      expect((await send(proxied.port, '/api/listSessions', { method: 'POST', headers: json(proxied.token, through), body })).status).toBe(200);
      expect((await send(proxied.port, '/api/listSessions', { method: 'POST', headers: json(undefined, through), body })).status).toBe(401);
      expect((await send(proxied.port, '/api/listSessions', { method: 'POST', headers: json(proxied.token, { ...through, Origin: 'https://evil.example' }), body })).status).toBe(403);
      expect((await send(proxied.port, '/api/listSessions', { method: 'POST', headers: json(proxied.token, { ...through, Origin: 'http://timeline.team.example' }), body })).status).toBe(403);
      expect((await send(proxied.port, '/', { headers: { Host: 'other.team.example' } })).status).toBe(403);
      // Without --public-origin the same request is a rebinding attempt.
      expect((await send(server.port, '/api/listSessions', { method: 'POST', headers: json(server.token, through), body })).status).toBe(403);
    } finally {
      await proxied.close();
    }
    expect(() => parsePublicOrigin('https://user:pw@timeline.example')).toThrow(/no user, path/);
    expect(() => parsePublicOrigin('https://timeline.example/sightline')).toThrow(/no user, path/);
    expect(() => parsePublicOrigin('ftp://timeline.example')).toThrow(/http:\/\/ or https:\/\//);
  });

  it('a read-only service (the team timeline) refuses every change with the reason and answers every read', async () => {
    const readOnly = createAppService({ storage: api.storage, config: DEFAULT_CONFIG, home: api.home.root, appInfo: () => ({ version: '0.1.0', platform: 'linux' }), readOnly: 'This timeline shows the team store, read-only.' });
    const viewer = await startTimelineServer({ implementation: readOnly.implementation, events: readOnly.events, rendererDirectory, dispatch: readOnly.dispatch });
    try {
      const sessionId = api.seeded[0]!.session.id;
      const imageId = api.seeded[0]!.turns[0]!.images[0]!.id;
      const call = (name: string, args: unknown[]) => send(viewer.port, `/api/${name}`, { method: 'POST', headers: json(viewer.token), body: JSON.stringify(args) });
      for (const [name, args] of [
        ['deleteSession', [sessionId]],
        ['pinImage', [imageId]],
        ['startRun', [{ task: 'Open the settings' }]],
      ] as const) {
        const reply = await call(name, [...args]);
        expect(reply.status, name).toBe(403);
        expect(JSON.parse(reply.body.toString()), name).toMatchObject({ error: { code: 'refused', message: 'This timeline shows the team store, read-only.' } });
      }
      expect((await call('listSessions', [{ limit: 5 }])).status).toBe(200);
      expect((await call('getSession', [sessionId])).status).toBe(200);
      expect(api.storage.sessions.get(sessionId)).toBeDefined();
    } finally {
      await viewer.close();
      await readOnly.close();
    }
  });

  it('validates arguments with the same schemas, naming the field', async () => {
    const reply = await send(server.port, '/api/listSteps', { method: 'POST', headers: json(server.token), body: JSON.stringify([{ sessionId: 'nope' }]) });
    expect(reply.status).toBe(400);
    const body = JSON.parse(reply.body.toString()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('invalid-arguments');
    expect(body.error.message).toContain('sessionId');
    const notJson = await send(server.port, '/api/listSteps', { method: 'POST', headers: { Authorization: `Bearer ${server.token}`, 'Content-Type': 'text/plain' }, body: '[]' });
    expect(notJson.status).toBe(415);
    const unknown = await send(server.port, '/api/constructor', { method: 'POST', headers: json(server.token), body: '[]' });
    expect(unknown.status).toBe(404);
  });

  it('takes a call only when its Content-Type is application/json, parameters aside (415 otherwise, saying what was sent)', async () => {
    const callWith = (contentType: string | undefined) =>
      send(server.port, '/api/listSessions', {
        method: 'POST',
        headers: { Authorization: `Bearer ${server.token}`, ...(contentType === undefined ? {} : { 'Content-Type': contentType }) },
        body: JSON.stringify([{ limit: 5 }]),
      });
    const accepted = ['application/json', 'Application/JSON; charset=utf-8', ' application/json ;charset=UTF-8'];
    const refused = ['text/plain; application/json', 'application/json-patch+json', 'application/jsonp', 'application/json,text/plain', 'text/plain', ''];
    const statuses: Record<string, number> = {};
    for (const contentType of [...accepted, ...refused]) statuses[contentType] = (await callWith(contentType)).status;
    expect(statuses).toEqual({ ...Object.fromEntries(accepted.map((type) => [type, 200])), ...Object.fromEntries(refused.map((type) => [type, 415])) });
    for (const contentType of refused) {
      const reply = await callWith(contentType);
      expect(JSON.parse(reply.body.toString())).toEqual({
        error: { code: 'invalid-arguments', message: `Send the arguments as JSON with Content-Type: application/json (the request had Content-Type ${JSON.stringify(contentType.trim())}).` },
      });
    }
    const missing = await callWith(undefined);
    expect(missing.status).toBe(415);
    expect(JSON.parse(missing.body.toString())).toMatchObject({ error: { message: expect.stringContaining('the request had no Content-Type') } });
  });

  it('listens on 127.0.0.1 only', async () => {
    const external = Object.values(networkInterfaces())
      .flat()
      .find((address) => address?.family === 'IPv4' && !address.internal);
    if (external === undefined) return;
    const outcome = await new Promise<string>((resolve) => {
      const outgoing = httpRequest({ host: external.address, port: server.port, path: '/' }, () => resolve('answered'));
      outgoing.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
      outgoing.end();
    });
    expect(outcome).toBe('ECONNREFUSED');
  });

  it('serves the built page with a strict CSP, and nothing outside its folder', async () => {
    const page = await send(server.port, '/');
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toBe(TIMELINE_CONTENT_SECURITY_POLICY);
    expect(TIMELINE_CONTENT_SECURITY_POLICY).not.toContain('unsafe');
    expect(page.body.toString()).toContain('<title>Sightline</title>');
    expect((await send(server.port, '/assets/app.js')).headers['content-type']).toContain('javascript');
    expect((await send(server.port, '/../sightline-secret-outside.txt')).status).toBe(404);
    expect((await send(server.port, '/%2e%2e/sightline-secret-outside.txt')).status).toBe(404);
  });

  it('takes the token in the query only on the event stream and images: an API call with ?token= alone is refused 401 (issue 33, finding 13)', async () => {
    const body = JSON.stringify([{ limit: 5 }]);
    for (const path of [`/api/listSessions?token=${server.token}`, `/api/listSessions?limit=5&token=${server.token}`]) {
      const refused = await send(server.port, path, { method: 'POST', headers: json(undefined), body });
      expect(refused.status).toBe(401);
      expect(JSON.parse(refused.body.toString())).toMatchObject({ error: { code: 'refused', message: expect.stringContaining('Authorization: Bearer') } });
    }
    // Not a GET, so not what EventSource or <img> send: the header is required there too.
    const image = api.seeded[0]?.turns[0]?.images[0]?.id ?? '';
    expect((await send(server.port, `/api/images/${image}?token=${server.token}`, { method: 'POST', headers: json(undefined), body: '[]' })).status).toBe(401);
    expect((await send(server.port, `/api/events?token=${server.token}`, { method: 'POST', headers: json(undefined), body: '[]' })).status).toBe(401);
    // The same call with the header is answered, and the two GETs take the query.
    expect((await send(server.port, '/api/listSessions', { method: 'POST', headers: json(server.token), body })).status).toBe(200);
    expect((await send(server.port, `/api/images/${image}?token=${server.token}`)).status).toBe(200);
    const stream = await new Promise<number>((resolve, reject) => {
      const outgoing = httpRequest({ host: '127.0.0.1', port: server.port, path: `/api/events?token=${server.token}` }, (response) => {
        outgoing.destroy();
        resolve(response.statusCode ?? 0);
      });
      outgoing.on('error', (error) => (outgoing.destroyed ? undefined : reject(error)));
      outgoing.end();
    });
    expect(stream).toBe(200);
  });

  it('serves an image by id with the token in the query, and a thumbnail', async () => {
    const image = api.seeded[0]?.turns[0]?.images[0];
    const reply = await send(server.port, `/api/images/${image?.id ?? ''}?token=${server.token}`);
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('image/png');
    expect((await sharp(reply.body).metadata()).width).toBe(64);
    const thumbnail = await send(server.port, `/api/images/${image?.id ?? ''}?token=${server.token}&thumbnailWidth=16`);
    expect((await sharp(thumbnail.body).metadata()).width).toBe(16);
    expect((await send(server.port, `/api/images/img_000000000000?token=${server.token}`)).status).toBe(404);
  });

  it('delivers live events as server-sent events', async () => {
    const received = new Promise<string>((resolve, reject) => {
      const outgoing = httpRequest({ host: '127.0.0.1', port: server.port, path: `/api/events?token=${server.token}` }, (response) => {
        expect(response.statusCode).toBe(200);
        expect(response.headers['content-type']).toContain('text/event-stream');
        let text = '';
        response.on('data', (chunk: Buffer) => {
          text += chunk.toString();
          // The connection is open (the first comment arrived): publish, then wait for the data line.
          if (text.startsWith(': connected') && !text.includes('data:')) {
            api.service.events.publish({ type: 'warning', sessionId: 'ses_0123456789ab', at: 1, message: 'hello over SSE' });
          }
          const line = text.split('\n').find((candidate) => candidate.startsWith('data: '));
          if (line) {
            outgoing.destroy();
            resolve(line.slice('data: '.length));
          }
        });
      });
      outgoing.on('error', reject);
      outgoing.end();
    });
    expect(JSON.parse(await received)).toEqual({ type: 'warning', sessionId: 'ses_0123456789ab', at: 1, message: 'hello over SSE' });
  });
});

describe('timeline server edges', () => {
  it('answers a malformed percent-encoding in an image URL or a page path with 400, not 500', async () => {
    const image = await send(server.port, `/api/images/img_%E0%A4%A?token=${server.token}`);
    expect(image.status).toBe(400);
    expect(image.body.toString()).toContain('malformed percent-encoding');
    expect((await send(server.port, '/assets/%zz.js')).status).toBe(400);
    expect((await send(server.port, `/api/images/%?token=${server.token}`)).status).toBe(400);
  });

  it('answers a 3 MB body with a 413 the client receives, and the connection serves the next request', async () => {
    const body = JSON.stringify([{ text: 'x'.repeat(3 * 1024 * 1024) }]);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const tooLarge = await send(server.port, '/api/listSessions', { method: 'POST', headers: json(server.token), body, agent });
      expect(tooLarge.status).toBe(413);
      expect(JSON.parse(tooLarge.body.toString())).toEqual({ error: { code: 'invalid-arguments', message: 'The request body is larger than 2 MB.' } });
      const next = await send(server.port, '/api/listSessions', { method: 'POST', headers: json(server.token), body: JSON.stringify([{ limit: 5 }]), agent });
      expect(next.status).toBe(200);
    } finally {
      agent.destroy();
    }
  });
  it('reads a startRun body past 2 MB, which may carry pictures, and answers it like any other', async () => {
    const body = JSON.stringify([{ task: 'Look', pictures: [{ name: 'big.png', mime: 'image/png', dataBase64: 'A'.repeat(3 * 1024 * 1024) }] }]);
    const answer = await send(server.port, '/api/startRun', { method: 'POST', headers: json(server.token), body });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body.toString()).error.code).toBe('invalid-arguments');
  });
});

describe('timeline server limits', () => {
  let limited: TimelineServer;
  beforeAll(async () => {
    limited = await startTimelineServer({
      implementation: api.service.implementation,
      events: api.service.events,
      rendererDirectory,
      dispatch: api.service.dispatch,
      limits: { headersTimeoutMs: 300, requestTimeoutMs: 600, maxEventStreams: 2, maxDiscardedBytes: 1024 * 1024 },
    });
  });
  afterAll(async () => {
    await limited.close();
  });

  /** Writes raw bytes and collects what the server sends until it closes the connection. */
  function rawExchange(text: string, timeoutMs = 5_000): Promise<{ answer: string; elapsedMs: number }> {
    return new Promise((resolve, reject) => {
      const started = Date.now();
      const socket = connect(limited.port, '127.0.0.1');
      let answer = '';
      const deadline = setTimeout(() => {
        socket.destroy();
        reject(new Error(`no answer within ${timeoutMs} ms; got ${JSON.stringify(answer)}`));
      }, timeoutMs);
      socket.on('data', (chunk: Buffer) => {
        answer += chunk.toString('latin1');
      });
      socket.on('error', () => {});
      socket.on('close', () => {
        clearTimeout(deadline);
        resolve({ answer, elapsedMs: Date.now() - started });
      });
      socket.write(text);
    });
  }

  it('times out a client that never finishes its headers (408)', async () => {
    const { answer, elapsedMs } = await rawExchange(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${limited.port}\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(elapsedMs).toBeLessThan(3_000);
  });

  it('times out a client that never finishes its body (408)', async () => {
    const head = [
      `POST /api/listSessions HTTP/1.1`,
      `Host: 127.0.0.1:${limited.port}`,
      `Authorization: Bearer ${limited.token}`,
      'Content-Type: application/json',
      'Content-Length: 100',
    ].join('\r\n');
    const { answer, elapsedMs } = await rawExchange(`${head}\r\n\r\n[`);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(elapsedMs).toBeLessThan(3_000);
  });

  it('answers a body declared past what it would read with a 413 at once, and closes', async () => {
    const head = [
      `POST /api/listSessions HTTP/1.1`,
      `Host: 127.0.0.1:${limited.port}`,
      `Authorization: Bearer ${limited.token}`,
      'Content-Type: application/json',
      `Content-Length: ${1024 * 1024 * 1024}`,
    ].join('\r\n');
    const { answer } = await rawExchange(`${head}\r\n\r\n[`);
    expect(answer).toMatch(/^HTTP\/1\.1 413/);
    expect(answer).toMatch(/\r\nConnection: close\r\n/i);
  });

  it('caps the open event streams: one more is answered 503, and a closed one frees its place', async () => {
    const open = await Promise.all([openStream(limited), openStream(limited)]);
    expect(open.map((stream) => stream.response.statusCode)).toEqual([200, 200]);
    const refused = await send(limited.port, `/api/events?token=${limited.token}`);
    expect(refused.status).toBe(503);
    expect(refused.body.toString()).toContain('Too many open event streams (2)');

    open[0]!.close();
    const reopened = await waitForStream(limited);
    expect(reopened.response.statusCode).toBe(200);
    reopened.close();
    open[1]!.close();
  });
});

interface OpenStream {
  response: IncomingMessage;
  close(): void;
}

function openStream(target: TimelineServer): Promise<OpenStream> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ host: '127.0.0.1', port: target.port, path: `/api/events?token=${target.token}` }, (response) => {
      response.resume();
      resolve({ response, close: () => outgoing.destroy() });
    });
    // After close() an error only reports the destroyed socket; reject is then a no-op.
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** A stream opened as soon as the server has noticed an earlier one close (it learns of it asynchronously). */
async function waitForStream(target: TimelineServer): Promise<OpenStream> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const stream = await openStream(target);
    if (stream.response.statusCode === 200) return stream;
    stream.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('no event stream was let open again');
}

describe('sightline timeline, the command', () => {
  // The built CLI, not a cold tsx (which took over 30 s to print the URL at load 20), and a limit scaled to the load.
  it('prints the URL, serves the seeded home and stops on Ctrl+C', { timeout: scaledLimit(CLI_TEST_MS) }, async () => {
    const home = createTemporaryHome('sightline-timeline-cli');
    const storage = openHomeStorage(home);
    await seedStorage(storage, { sessions: 1, turnsPerSession: 1, stepsPerTurn: 1 });
    storage.close();
    const child = spawn(process.execPath, [builtCli(), '--home', home.root, 'timeline', '--port', '0'], {
      env: { ...process.env, SIGHTLINE_RENDERER_DIR: rendererDirectory, SIGHTLINE_HOME: home.root },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let output = '';
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          const line = output.split('\n').find((candidate) => candidate.startsWith('http://'));
          if (line) resolve(line.trim());
        });
        child.on('exit', (code) => reject(new Error(`timeline exited early with ${code}`)));
      });
      const parsed = /^http:\/\/127\.0\.0\.1:(\d+)\/#token=([A-Za-z0-9_-]{43})$/.exec(url);
      expect(parsed).not.toBeNull();
      const port = Number(parsed?.[1]);
      const reply = await send(port, '/api/listSessions', { method: 'POST', headers: json(parsed?.[2]), body: JSON.stringify([{}]) });
      expect(JSON.parse(reply.body.toString())).toMatchObject({ total: 1 });
      expect((await send(port, '/api/listSessions', { method: 'POST', headers: json(undefined), body: '[{}]' })).status).toBe(401);
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      child.kill('SIGINT');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
      home.remove();
    }
  });

  // runSightline is imported with the file, before any limit starts: importing the whole CLI inside the test
  // took over 30 s at load 20.
  it('says how to build the UI when it is not built', async () => {
    const home = createTemporaryHome('sightline-timeline-unbuilt');
    const empty = mkdtempSync(join(tmpdir(), 'sightline-no-renderer-'));
    try {
      const result = await runSightline(['--home', home.root, 'timeline'], { SIGHTLINE_RENDERER_DIR: empty });
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toContain('npm run build');
    } finally {
      rmSync(empty, { recursive: true, force: true });
      home.remove();
    }
  });
});
