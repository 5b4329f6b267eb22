/**
 * A generated image, and generated audio, reach the timeline: a run started over the HTTP transport of
 * `sightline timeline`, its model (the fake server, in the providers' real shapes) generating media, the
 * agent loop storing it, the event stream announcing it, the API serving its bytes, and the page in a real
 * Chromium showing the image inline and the audio with a player. No CSP violation may be logged (audio
 * plays from a data: URL, which media-src must allow). axe finds no serious accessibility problem in the
 * media rows, in either theme.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { request as httpRequest, type ClientRequest } from 'node:http';
import { join, resolve } from 'node:path';
import sharp from 'sharp';
import type { Browser, Page } from 'playwright-core';
import { launchTimelineBrowser } from './support/timeline-browser.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppEvent } from '../../src/shared/app-api.js';
import { DEFAULT_CONFIG, type Config } from '../../src/shared/config.js';
import { createAppService, type AppService } from '../../src/main/api/app-service.js';
import { startTimelineServer, type TimelineServer } from '../../src/main/api/http/http-server.js';
import type { Storage } from '../../src/main/storage/index.js';
import { expectNoBlockingViolations } from '../helpers/accessibility-audit.js';
import { finishCall, TEST_API_KEY } from '../helpers/agent-harness.js';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../helpers/fake-openai-server.js';
import { FakeOperator } from '../helpers/fake-operator.js';
import { createTemporaryHome, openHomeStorage, type TemporaryHome } from '../helpers/seed.js';

const ROOT = resolve(import.meta.dirname, '../..');
const RENDERER = join(ROOT, 'out/renderer');
const ARTIFACTS = join(ROOT, 'test-artifacts/generated-media');
const TOKEN = 'generated-media-test-token-0123456789';

let home: TemporaryHome;
let storage: Storage;
let model: FakeOpenAiServer;
let service: AppService;
let server: TimelineServer;
let browser: Browser;
let page: Page;
let stream: ClientRequest | undefined;
const streamed: AppEvent[] = [];
const consoleProblems: string[] = [];

/** The renderer built from the sources under test (a stale out/renderer would test code no longer there). */
function buildRenderer(): void {
  const build = spawnSync('npx', ['electron-vite', 'build'], { cwd: ROOT, encoding: 'utf8' });
  if (build.status !== 0 || !existsSync(join(RENDERER, 'index.html'))) {
    throw new Error(`electron-vite build failed:\n${build.stdout}\n${build.stderr}`);
  }
}

function poll<Value>(read: () => Promise<Value> | Value) {
  return expect.poll(read, { timeout: 15_000, interval: 50 });
}

/** The live events as the timeline's page receives them: GET /api/events, one AppEvent per `data:` line. */
function listenToEvents(): Promise<void> {
  return new Promise((resolveOpen, reject) => {
    stream = httpRequest({ host: '127.0.0.1', port: server.port, path: `/api/events?token=${TOKEN}` }, (response) => {
      let buffered = '';
      response.on('data', (chunk: Buffer) => {
        buffered += chunk.toString();
        if (buffered.startsWith(': connected')) resolveOpen();
        const lines = buffered.split('\n');
        buffered = lines.pop() ?? '';
        for (const line of lines) if (line.startsWith('data: ')) streamed.push(JSON.parse(line.slice('data: '.length)) as AppEvent);
      });
    });
    stream.on('error', reject);
    stream.end();
  });
}

/** One app API call over HTTP, as the page makes it. */
async function call(name: string, ...callArguments: unknown[]): Promise<unknown> {
  const response = await fetch(`http://127.0.0.1:${server.port}/api/${name}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(callArguments),
  });
  const body: unknown = await response.json();
  if (!response.ok) throw new Error(`${name} failed: ${JSON.stringify(body)}`);
  return body;
}

beforeAll(async () => {
  buildRenderer();
  mkdirSync(ARTIFACTS, { recursive: true });
  home = createTemporaryHome('sightline-generated-media');
  storage = openHomeStorage(home);
  model = await startFakeOpenAiServer();
  const config: Config = {
    ...DEFAULT_CONFIG,
    model: { ...DEFAULT_CONFIG.model, name: 'gpt-4.1', baseUrl: model.baseUrl, apiKey: TEST_API_KEY, maxRetries: 0 },
    agent: { ...DEFAULT_CONFIG.agent, operator: 'browser' },
  };
  service = createAppService({
    storage,
    config,
    home: home.root,
    appInfo: () => ({ version: '0.1.0', platform: 'linux' }),
    operatorFactory: async () => new FakeOperator({ screen: { width: 1280, height: 800 }, kind: 'browser' }),
    watchSettling: false,
  });
  server = await startTimelineServer({
    implementation: service.implementation,
    events: service.events,
    rendererDirectory: RENDERER,
    token: TOKEN,
    dispatch: service.dispatch,
  });
  await listenToEvents();
  browser = await launchTimelineBrowser();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 }, colorScheme: 'dark' });
  page.on('console', (message) => {
    if (message.type() === 'error' || /Content Security Policy|Refused to/i.test(message.text())) consoleProblems.push(message.text());
  });
  page.on('pageerror', (error) => consoleProblems.push(error.message));
});

afterAll(async () => {
  stream?.destroy();
  await browser?.close();
  await server?.close();
  await service?.close();
  await model?.close();
  storage?.close();
  home?.remove();
});

describe('generated media in the timeline', () => {
  it('a generated image and generated audio reach the event stream, the API and the page', async () => {
    const png = await sharp({ create: { width: 96, height: 64, channels: 3, background: { r: 30, g: 160, b: 220 } } }).png().toBuffer();
    const samples = Buffer.alloc(48_000, 3);
    model.script([
      { ...finishCall('Here is the logo and its jingle.'), images: [png.toString('base64')], audio: { data: samples.toString('base64'), transcript: 'Ta-da.' } },
    ]);
    const started = (await call('startRun', { task: 'Draw a logo and a jingle for it' })) as { sessionId: string; turnId: string };

    // The event stream: the image's event names its content address; the audio's says it is a WAV now.
    const imageId = `med_${createHash('sha256').update(png).digest('hex')}`;
    await poll(() => streamed.filter((event) => event.type === 'media').length).toBe(2);
    expect(streamed).toContainEqual(
      expect.objectContaining({ type: 'media', sessionId: started.sessionId, turnId: started.turnId, mediaId: imageId, kind: 'image', width: 96, height: 64 }),
    );
    const audioEvent = streamed.find((event) => event.type === 'media' && event.kind === 'audio');
    expect(audioEvent).toMatchObject({ mime: 'audio/wav', byteSize: samples.byteLength + 44 });
    await poll(() => streamed.some((event) => event.type === 'turn-ended' && event.turnId === started.turnId)).toBe(true);

    // The API: listed for the session, its bytes served as stored.
    const listed = (await call('listMedia', started.sessionId)) as { media: Array<{ mediaId: string; kind: string }> };
    expect(listed.media.map((item) => item.kind)).toEqual(['image', 'audio']);
    const served = (await call('getMedia', { mediaId: imageId })) as { status: string; dataBase64: string; mime: string };
    expect(served).toMatchObject({ status: 'ok', mime: 'image/png' });
    expect(Buffer.from(served.dataBase64, 'base64').equals(png)).toBe(true);

    // The page: the image inline at its size, the audio with a player.
    await page.goto(server.url);
    await page.locator(`.session-item[data-session-id="${started.sessionId}"] .session-open`).click();
    const image = page.locator(`.generated-media[data-media-id="${imageId}"] img.generated-media-image`);
    await poll(() => image.count()).toBe(1);
    await poll(() => image.evaluate((element) => (element as unknown as { naturalWidth: number }).naturalWidth)).toBe(96);
    const player = page.locator('.generated-audio audio.generated-media-audio');
    await poll(() => player.count()).toBe(1);
    expect(await player.getAttribute('controls')).not.toBeNull();
    // The player read the WAV's header: no decoding error, and the second of samples the model sent. (The
    // functions run in the page, so each carries its own cast.)
    type Player = { readyState: number; error: { code: number } | null; duration: number };
    await poll(() => player.evaluate((element) => (element as unknown as Player).readyState >= 1 || (element as unknown as Player).error !== null)).toBe(true);
    expect(await player.evaluate((element) => (element as unknown as Player).error?.code ?? null)).toBeNull();
    expect(await player.evaluate((element) => Math.round((element as unknown as Player).duration * 1000))).toBe(1000);
    await page.screenshot({ path: join(ARTIFACTS, 'generated-media.png') });
    await expectNoBlockingViolations(page, 'generated media in the timeline');
  });

  it('logged no CSP violation or error in the console', () => {
    expect(consoleProblems).toEqual([]);
  });
});
