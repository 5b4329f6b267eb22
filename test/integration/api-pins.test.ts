/**
 * Pinning through the app API (issue 16), over the dispatcher and over the HTTP transport: a person pins and
 * unpins a screenshot, the steps say which frames are pinned and how the next request carries each one, and
 * what cannot be pinned is refused with the reason.
 */
import { request as httpRequest } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { APP_API, AppApiError, type AppApiName, type Step } from '../../src/shared/app-api.js';
import { startTimelineServer } from '../../src/main/api/http/http-server.js';
import { makePng } from '../helpers/seed.js';
import { startAppApiHarness, type AppApiHarness } from '../helpers/app-api-harness.js';
import { recordTurn, type FixtureTurn } from '../helpers/turn-fixture.js';

let api: AppApiHarness;
beforeEach(async () => {
  api = await startAppApiHarness();
});
afterEach(async () => {
  await api.close();
});

async function refusal(name: AppApiName, callArguments: unknown[]): Promise<AppApiError> {
  const error: unknown = await api.callRaw(name, callArguments).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppApiError);
  return error as AppApiError;
}

/** Two ended turns: with one anchor turn, the first turn's frames are all folded for the next request. */
async function seedTwoTurns(): Promise<{ sessionId: string; first: FixtureTurn; second: FixtureTurn }> {
  const session = api.storage.sessions.create({ title: 'Pins over the API' });
  const first = await recordTurn(api.storage, session, { request: 'First', steps: [{}, {}, {}] });
  const second = await recordTurn(api.storage, session, { request: 'Second', steps: [{}, {}, {}] });
  return { sessionId: session.id, first, second };
}

function screenshotsById(steps: readonly Step[]): Map<string, NonNullable<Step['screenshot']>> {
  return new Map(steps.flatMap((step) => (step.screenshot === null ? [] : [[step.screenshot.imageId, step.screenshot] as const])));
}

describe('pinning through the app API', () => {
  it('pins and unpins a screenshot, and the steps show the pin and what the next request sends', async () => {
    const { sessionId, first, second } = await seedTwoTurns();
    const frame = first.screenshots[2]!;
    const before = screenshotsById((await api.call('listSteps', { sessionId })).steps);
    expect(before.get(frame.id)).toMatchObject({ pinned: false, nextRequest: 'folded' });
    // The latest turn's anchors go whole (its first screen), the screen before its last as a reduced view.
    expect(before.get(second.screenshots[0]!.id)).toMatchObject({ pinned: false, nextRequest: 'whole' });
    expect(before.get(second.screenshots.at(-2)!.id)).toMatchObject({ nextRequest: 'reduced' });

    const pinned = await api.call('pinImage', frame.id);
    expect(APP_API.pinImage.result.safeParse(pinned).success).toBe(true);
    expect(pinned).toEqual({ imageId: frame.id, pinned: true });
    expect(await api.call('pinImage', frame.id)).toEqual({ imageId: frame.id, pinned: true });
    const page = await api.call('listSteps', { sessionId });
    expect(APP_API.listSteps.result.safeParse(page).success).toBe(true);
    expect(screenshotsById(page.steps).get(frame.id)).toMatchObject({ pinned: true, nextRequest: 'whole' });

    expect(await api.call('unpinImage', frame.id)).toEqual({ imageId: frame.id, pinned: false });
    expect(screenshotsById((await api.call('listSteps', { sessionId })).steps).get(frame.id)).toMatchObject({ pinned: false, nextRequest: 'folded' });
    // Unpinning what is not pinned is not an error.
    expect(await api.call('unpinImage', frame.id)).toEqual({ imageId: frame.id, pinned: false });
  });

  it('refuses an unknown image, an image that is not a screenshot, and a malformed id', async () => {
    const session = api.storage.sessions.create({ title: 'Refusals' });
    const picture = await api.storage.images.put({
      sessionId: session.id,
      turnId: null,
      bytes: await makePng({ width: 8, height: 8, seed: 5 }),
      mime: 'image/png',
      width: 8,
      height: 8,
      source: 'user',
    });
    expect((await refusal('pinImage', ['img_000000000000'])).code).toBe('not-found');
    expect((await refusal('unpinImage', ['img_000000000000'])).code).toBe('not-found');
    const notAScreenshot = await refusal('pinImage', [picture.id]);
    expect(notAScreenshot.code).toBe('refused');
    expect(notAScreenshot.message).toMatch(/only screenshots can be pinned/);
    expect((await refusal('pinImage', ['../etc/passwd'])).code).toBe('invalid-arguments');
    expect(api.storage.pins.listBySession(session.id)).toEqual([]);
  });

  it('pins over HTTP, as `sightline timeline` serves it', async () => {
    const { first } = await seedTwoTurns();
    const frame = first.screenshots[1]!;
    const rendererDirectory = mkdtempSync(join(tmpdir(), 'sightline-renderer-'));
    writeFileSync(join(rendererDirectory, 'index.html'), '<!doctype html><title>Sightline</title>');
    const server = await startTimelineServer({ implementation: api.service.implementation, events: api.service.events, rendererDirectory, dispatch: api.service.dispatch });
    try {
      const reply = await post(server.port, server.token, '/api/pinImage', [frame.id]);
      expect(reply).toEqual({ status: 200, body: { imageId: frame.id, pinned: true } });
      expect(api.storage.pins.get(frame.id)?.imageId).toBe(frame.id);
      const unpinned = await post(server.port, server.token, '/api/unpinImage', [frame.id]);
      expect(unpinned).toEqual({ status: 200, body: { imageId: frame.id, pinned: false } });
      expect(api.storage.pins.get(frame.id)).toBeUndefined();
    } finally {
      await server.close();
      rmSync(rendererDirectory, { recursive: true, force: true });
    }
  });
});

function post(port: number, token: string, path: string, body: unknown): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      { host: '127.0.0.1', port, path, method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()) as unknown }));
      },
    );
    outgoing.on('error', reject);
    outgoing.end(JSON.stringify(body));
  });
}
