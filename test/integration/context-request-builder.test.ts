/** The plain request builder over real storage: deterministic rendering, image tokens, missing images. */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildRequest } from '../../src/main/context/request-builder.js';
import { EncodedImageCache } from '../../src/main/context/encoded-image-cache.js';
import { modelImageSize } from '../../src/main/context/model-image-size.js';
import { activeZoneShape } from '../../src/main/context/active-zone-shape.js';
import { resolveModelProfile } from '../../src/main/llm/model-profiles.js';
import { estimateImageTokens } from '../../src/main/llm/image-token-estimates.js';
import { encodeForModel } from '../../src/main/perception/image-encoding.js';
import type { Storage } from '../../src/main/storage/index.js';
import { makePng } from '../helpers/seed.js';
import { createTemporaryStorage, type TemporaryStorage } from '../helpers/temporary-storage.js';

let temporary: TemporaryStorage;
let storage: Storage;
beforeEach(() => {
  temporary = createTemporaryStorage('sightline-context');
  storage = temporary.storage;
});
afterEach(() => temporary.remove());

const profile = resolveModelProfile('gpt-4.1');

async function seedTurn(options: { width?: number; height?: number } = {}) {
  const width = options.width ?? 640;
  const height = options.height ?? 400;
  const session = storage.sessions.create({ title: 'Test' });
  const turn = storage.turns.start({ sessionId: session.id, userRequest: 'Look' });
  const put = async (seed: number) =>
    storage.images.put({ sessionId: session.id, turnId: turn.id, bytes: await makePng({ width, height, seed }), mime: 'image/png', width, height, source: 'screen' });
  const first = await put(1);
  const second = await put(2);
  storage.messages.append({ sessionId: session.id, turnId: turn.id, message: { role: 'user', parts: [{ type: 'text', text: 'Look' }] } });
  storage.messages.append({
    sessionId: session.id,
    turnId: turn.id,
    message: { role: 'user', parts: [{ type: 'text', text: 'The screen now:' }, { type: 'image', imageId: first.id }] },
  });
  storage.messages.append({
    sessionId: session.id,
    turnId: turn.id,
    message: { role: 'assistant', parts: [{ type: 'text', text: 'Clicking.' }], toolCalls: [{ id: 'call_1', name: 'computer', argumentsText: '{"action":"click","x":1,"y":1}' }] },
  });
  storage.messages.append({
    sessionId: session.id,
    turnId: turn.id,
    message: { role: 'tool', toolCallId: 'call_1', name: 'computer', parts: [{ type: 'text', text: 'clicked' }, { type: 'image', imageId: second.id }] },
  });
  return { session, turn, first, second };
}

describe('buildRequest', () => {
  it('renders the same rows to byte-identical requests, with each image after its id token', async () => {
    const { session, turn, first, second } = await seedTurn();
    const input = { storage, sessionId: session.id, turnId: turn.id, profile, maxImageEdge: 1280, systemPrompt: 'You are a test.' };
    const one = await buildRequest(input);
    const two = await buildRequest(input);
    expect(JSON.stringify(two.request)).toBe(JSON.stringify(one.request));

    const [system, , screen, , tool] = one.request.messages;
    expect(system).toEqual({ role: 'system', parts: [{ type: 'text', text: 'You are a test.' }] });
    // The first screen is no longer the present one: it goes as a reduced view, its text naming it (issue 15).
    expect(screen!.parts.map((part) => (part.type === 'text' ? part.text : `${part.type}:${part.type === 'image' ? part.imageId : ''}`))).toEqual([
      'The screen now:',
      `<${first.id}> (reduced view; get_history_image ${first.id} shows it in full)`,
      `image:${first.id}`,
    ]);
    expect(screen!.parts[2]).toMatchObject({ type: 'image', imageId: first.id, resolution: 'reduced', width: 512, height: 320 });
    expect(tool!.parts[1]).toEqual({ type: 'text', text: `<${second.id}>` });
    expect(tool!.parts[2]).toMatchObject({ type: 'image', imageId: second.id, mime: 'image/png', width: 640, height: 400 });
    expect(one.shown?.imageId).toBe(second.id);
    expect(one.shown?.view).toEqual({ frameWidth: 640, frameHeight: 400, imageWidth: 640, imageHeight: 400, coordinateSpace: 'pixels' });
    const imageTokens =
      estimateImageTokens(profile.imageTokens, { width: 640, height: 400 }) + estimateImageTokens(profile.imageTokens, { width: 512, height: 320, detail: 'low' });
    expect(one.tokenReport.imagesSent).toBe(2);
    expect(one.tokenReport.imagesFolded).toBe(0);
    expect(one.tokenReport.sentTokens).toBeGreaterThan(imageTokens);
    // Keeping everything would send the first screen whole.
    expect(one.tokenReport.keepEverythingTokens).toBeGreaterThan(one.tokenReport.sentTokens);
  });

  it('scales images to the longest edge and reports the view the model sees', async () => {
    const { session, turn } = await seedTurn({ width: 1600, height: 1000 });
    const built = await buildRequest({ storage, sessionId: session.id, turnId: turn.id, profile, maxImageEdge: 800, systemPrompt: 'x' });
    expect(built.shown?.view).toMatchObject({ frameWidth: 1600, frameHeight: 1000, imageWidth: 800, imageHeight: 500 });
    // The present screen at the longest edge; the one before it as a reduced view, at OpenAI's low-detail size.
    const images = built.request.messages.flatMap((message) => message.parts).filter((part) => part.type === 'image');
    const sizes = await Promise.all(images.map(async (image) => (await sharp(Buffer.from(image.data!, 'base64')).metadata())));
    expect(sizes.map((metadata) => [metadata.width, metadata.height])).toEqual([[512, 320], [800, 500]]);
  });

  it("sends a model that resizes images itself (UI-TARS-1.5) each image at that resize's size, and says so in the view", async () => {
    // 1920x1080 fitted to 1280 px is 1280x720; UI-TARS-1.5's smart resize makes that 1288x728 (multiples of 28),
    // the size at which its own resize is the identity, so its points are pixels of the image sent.
    const uiTars = resolveModelProfile('ui-tars-1.5-7b');
    const { session, turn, second } = await seedTurn({ width: 1920, height: 1080 });
    const built = await buildRequest({ storage, sessionId: session.id, turnId: turn.id, profile: uiTars, maxImageEdge: 1280, systemPrompt: 'x' });
    expect(built.shown).toEqual({
      imageId: second.id,
      view: { frameWidth: 1920, frameHeight: 1080, imageWidth: 1288, imageHeight: 728, coordinateSpace: 'pixels' },
    });
    const images = built.request.messages.flatMap((message) => message.parts).filter((part) => part.type === 'image');
    expect(images).toHaveLength(2);
    // The first screen goes as a reduced view: a smaller copy, resized by the same rule.
    const reduced = modelImageSize(1920, 1080, activeZoneShape(uiTars, 1280).reducedImageEdge, uiTars.imageSizing);
    expect([reduced.width % 28, reduced.height % 28]).toEqual([0, 0]);
    expect(reduced.width).toBeLessThan(1288 / 2);
    for (const [image, size] of [[images[0]!, reduced], [images[1]!, { width: 1288, height: 728 }]] as const) {
      const metadata = await sharp(Buffer.from(image.type === 'image' ? image.data! : '', 'base64')).metadata();
      expect([metadata.width, metadata.height]).toEqual([size.width, size.height]);
      expect(image).toMatchObject(size);
    }
  });

  it('estimates image tokens at the size sent after the smart resize', async () => {
    // 1302x720 is sent as 1288x728 (1302 / 28 = 46.5 rounds to even): 46 × 26 patches of 28 px, where the
    // fitted size alone would be estimated at 47 × 26.
    const uiTars = resolveModelProfile('ui-tars-1.5-7b');
    const { session, turn } = await seedTurn({ width: 1302, height: 720 });
    const input = { storage, sessionId: session.id, turnId: turn.id, maxImageEdge: 2048, systemPrompt: 'x' };
    const resized = await buildRequest({ ...input, profile: uiTars });
    const fitted = await buildRequest({ ...input, profile: { ...uiTars, imageSizing: { kind: 'fit-edge' } } });
    expect(estimateImageTokens(uiTars.imageTokens, { width: 1288, height: 728 })).toBe(46 * 26);
    expect(estimateImageTokens(uiTars.imageTokens, { width: 1302, height: 720 })).toBe(47 * 26);
    // The present screen is 26 tokens apart; the first screen, a reduced view now, is counted at its copy's size.
    const reducedEdge = activeZoneShape(uiTars, 2048).reducedImageEdge;
    const reducedCost = (sizing: typeof uiTars.imageSizing) => estimateImageTokens(uiTars.imageTokens, modelImageSize(1302, 720, reducedEdge, sizing));
    expect(fitted.tokenReport.sentTokens - resized.tokenReport.sentTokens).toBe(26 + reducedCost({ kind: 'fit-edge' }) - reducedCost(uiTars.imageSizing));
  });

  it('keeps images of the two sizings apart in one cache', async () => {
    const { session, turn } = await seedTurn({ width: 1920, height: 1080 });
    const cache = new EncodedImageCache();
    const base = { storage, sessionId: session.id, turnId: turn.id, maxImageEdge: 1280, systemPrompt: 'x', imageCache: cache };
    const fitted = await buildRequest({ ...base, profile });
    const resized = await buildRequest({ ...base, profile: resolveModelProfile('ui-tars-1.5-7b') });
    expect(cache.size).toBe(4);
    expect(fitted.shown?.view).toMatchObject({ imageWidth: 1280, imageHeight: 720 });
    expect(resized.shown?.view).toMatchObject({ imageWidth: 1288, imageHeight: 728 });
  });

  it('encodes each image once per cache, however many requests are built', async () => {
    const { session, turn } = await seedTurn({ width: 1600, height: 1000 });
    const cache = new EncodedImageCache();
    const input = { storage, sessionId: session.id, turnId: turn.id, profile, maxImageEdge: 800, systemPrompt: 'x', imageCache: cache };
    const first = await buildRequest(input);
    const second = await buildRequest(input);
    expect(cache.size).toBe(2);
    expect(JSON.stringify(second.request)).toBe(JSON.stringify(first.request));
  });

  it('says an image is unavailable instead of failing the request', async () => {
    const { session, turn, first } = await seedTurn();
    rmSync(join(temporary.home.blobsDirectory, first.sha256.slice(0, 2)), { recursive: true, force: true });
    const built = await buildRequest({ storage, sessionId: session.id, turnId: turn.id, profile, maxImageEdge: 1280, systemPrompt: 'x' });
    const texts = built.request.messages.flatMap((message) => message.parts).flatMap((part) => (part.type === 'text' ? [part.text] : []));
    expect(texts).toContain(`[image ${first.id} unavailable: its file is missing]`);
    expect(built.tokenReport.imagesSent).toBe(1);
  });

  it('answers a tool call left unanswered (a process killed mid-step), so the history stays valid', async () => {
    const { session, turn } = await seedTurn();
    storage.messages.append({
      sessionId: session.id,
      turnId: turn.id,
      message: { role: 'assistant', parts: [], toolCalls: [{ id: 'call_lost', name: 'computer', argumentsText: '{}' }] },
    });
    storage.messages.append({ sessionId: session.id, turnId: turn.id, message: { role: 'user', parts: [{ type: 'text', text: 'Next' }] } });
    const built = await buildRequest({ storage, sessionId: session.id, turnId: turn.id, profile, maxImageEdge: 1280, systemPrompt: 'x' });
    const roles = built.request.messages.slice(-3).map((message) => message.role);
    expect(roles).toEqual(['assistant', 'tool', 'user']);
    expect(built.request.messages.at(-2)).toMatchObject({ role: 'tool', toolCallId: 'call_lost', isError: true });
  });

  it('refuses a turn of another session', async () => {
    const { turn } = await seedTurn();
    const other = storage.sessions.create({ title: 'Other' });
    await expect(
      buildRequest({ storage, sessionId: other.id, turnId: turn.id, profile, maxImageEdge: 1280, systemPrompt: 'x' }),
    ).rejects.toThrow(/does not belong/);
  });
});

describe('modelImageSize', () => {
  it.each([
    [1600, 1000, 800],
    [1920, 1080, 1280],
    [1366, 768, 1280],
    [333, 777, 256],
    [640, 400, 1280],
  ])('matches encodeForModel for %ix%i at %i', async (width, height, maxEdge) => {
    const encoded = await encodeForModel({ rgba: Buffer.alloc(width * height * 4, 128), width, height }, maxEdge);
    expect(modelImageSize(width, height, maxEdge)).toEqual({ width: encoded.width, height: encoded.height });
  });

  it.each([
    [1920, 1080, 1280, 1288, 728],
    [2880, 1800, 1280, 1288, 812],
    [1366, 768, 1280, 1288, 728],
    [640, 400, 1280, 644, 392],
  ])('applies the profile smart resize after fitting: %ix%i at %i is sent as %ix%i', (width, height, maxEdge, sentWidth, sentHeight) => {
    expect(modelImageSize(width, height, maxEdge, resolveModelProfile('ui-tars-1.5-7b').imageSizing)).toEqual({ width: sentWidth, height: sentHeight });
  });
});

describe('the present screen', () => {
  it('is the latest screenshot the agent showed, never one a recall tool brought back', async () => {
    // The present screen is 640x400; an older screenshot of another size is recalled after it. Taking the
    // recalled one as the present would map the next click through the wrong view.
    const { session, turn, second } = await seedTurn();
    const older = await storage.images.put({
      sessionId: session.id,
      turnId: turn.id,
      bytes: await makePng({ width: 1600, height: 1000, seed: 9 }),
      mime: 'image/png',
      width: 1600,
      height: 1000,
      source: 'screen',
    });
    storage.messages.append({
      sessionId: session.id,
      turnId: turn.id,
      message: { role: 'assistant', parts: [], toolCalls: [{ id: 'call_2', name: 'get_history_image', argumentsText: JSON.stringify({ image_id: older.id }) }] },
    });
    storage.messages.append({
      sessionId: session.id,
      turnId: turn.id,
      message: { role: 'tool', toolCallId: 'call_2', name: 'get_history_image', parts: [{ type: 'text', text: 'recalled' }, { type: 'image', imageId: older.id }] },
    });
    const built = await buildRequest({ storage, sessionId: session.id, turnId: turn.id, profile, maxImageEdge: 1280, systemPrompt: 'You are a test.' });
    expect(built.request.messages.some((message) => message.parts.some((part) => part.type === 'image' && part.imageId === older.id))).toBe(true);
    expect(built.shown?.imageId).toBe(second.id);
    expect(built.shown?.view).toMatchObject({ frameWidth: 640, frameHeight: 400 });
  });

  it("is the screenshot another dialect's computer tool returned (Qwen's computer_use)", async () => {
    const { session, turn, second } = await seedTurn();
    const third = await storage.images.put({
      sessionId: session.id,
      turnId: turn.id,
      bytes: await makePng({ width: 640, height: 400, seed: 3 }),
      mime: 'image/png',
      width: 640,
      height: 400,
      source: 'screen',
    });
    storage.messages.append({
      sessionId: session.id,
      turnId: turn.id,
      message: { role: 'assistant', parts: [], toolCalls: [{ id: 'call_2', name: 'computer_use', argumentsText: '{"action": "left_click", "coordinate": [1, 1]}' }] },
    });
    storage.messages.append({
      sessionId: session.id,
      turnId: turn.id,
      message: { role: 'tool', toolCallId: 'call_2', name: 'computer_use', parts: [{ type: 'text', text: 'clicked' }, { type: 'image', imageId: third.id }] },
    });
    const built = await buildRequest({ storage, sessionId: session.id, turnId: turn.id, profile, maxImageEdge: 1280, systemPrompt: 'You are a test.' });
    expect(built.shown?.imageId).not.toBe(second.id);
    expect(built.shown?.imageId).toBe(third.id);
  });
});
