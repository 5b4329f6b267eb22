/**
 * Pictures attached through the app API's startRun (issue 16): each is checked before the turn begins and
 * stored unchanged, named by its content hash, as a user picture of the turn; the model's first request
 * carries a copy at the model's image size; getSession lists them on the turn. A bad picture is an
 * invalid-arguments error naming it and the reason, and nothing is stored or sent.
 */
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_PICTURE_BYTES } from '../../src/shared/pictures.js';
import { sha256Of } from '../../src/main/storage/index.js';
import { startAppApiHarness, type AppApiHarness } from '../helpers/app-api-harness.js';
import { chatMessages, finishCall } from '../helpers/agent-harness.js';
import { makePng } from '../helpers/seed.js';

let api: AppApiHarness | undefined;

afterEach(async () => {
  await api?.close();
  api = undefined;
});

interface ChatPart {
  type: string;
  text?: string;
  image_url?: { url: string };
}

/** The images of the request's first user message (the turn's request), decoded from their data URLs. */
function requestImages(run: AppApiHarness, index: number): Buffer[] {
  const user = chatMessages(run.server, index).find((message) => message.role === 'user');
  const content = (user?.content ?? []) as ChatPart[];
  return content
    .filter((part) => part.type === 'image_url')
    .map((part) => Buffer.from(part.image_url!.url.replace(/^data:image\/[a-z]+;base64,/, ''), 'base64'));
}

/** A red 30×20 frame, then a blue one. */
async function twoFrameGif(): Promise<Buffer> {
  const frame = (red: number) => sharp({ create: { width: 30, height: 20, channels: 4, background: { r: red, g: 0, b: 255 - red, alpha: 1 } } }).raw().toBuffer();
  const frames = Buffer.concat([await frame(255), await frame(0)]);
  return sharp(frames, { raw: { width: 30, height: 40, channels: 4, pageHeight: 20 } }).gif().toBuffer();
}

describe('startRun with pictures', () => {
  it('stores each picture unchanged as the turn\'s, sends the model a copy at its size, and lists them on the turn', async () => {
    const run = (api = await startAppApiHarness());
    run.server.script([finishCall('It is a diagram.')]);
    const large = await makePng({ width: 3000, height: 1000, seed: 2 });
    const jpeg = await sharp(await makePng({ width: 40, height: 30, seed: 6 })).jpeg().toBuffer();
    const gif = await twoFrameGif();
    const started = await run.call('startRun', {
      task: 'What do these show?',
      pictures: [
        { name: 'large.png', mime: 'image/png', dataBase64: large.toString('base64') },
        // The claimed type is wrong; the bytes are a JPEG and are stored as one.
        { name: 'photo.png', mime: 'image/png', dataBase64: jpeg.toString('base64') },
        { name: 'blink.gif', mime: 'image/gif', dataBase64: gif.toString('base64') },
      ],
    });
    await run.nextEvent('turn-ended', (event) => event.turnId === started.turnId);

    const stored = run.storage.images.listBySession(started.sessionId).filter((image) => image.source === 'user');
    expect(stored.map((image) => [image.turnId, image.sha256, image.mime, image.width, image.height])).toEqual([
      [started.turnId, sha256Of(large), 'image/png', 3000, 1000],
      [started.turnId, sha256Of(jpeg), 'image/jpeg', 40, 30],
      [started.turnId, sha256Of(gif), 'image/gif', 30, 20],
    ]);
    const original = await run.storage.images.read(stored[0]!.id);
    expect(original.status === 'ok' && original.bytes.equals(large)).toBe(true);

    const sent = requestImages(run, 0);
    expect(sent).toHaveLength(3);
    const sentLarge = await sharp(sent[0]!).metadata();
    // gpt-4.1's profile sends at most 1280 pixels on the longest edge (the stored original keeps 3000).
    expect(Math.max(sentLarge.width, sentLarge.height)).toBeLessThanOrEqual(1280);
    expect(sentLarge.width / sentLarge.height).toBeCloseTo(3, 1);
    // The GIF goes as its first frame: red, at the frame's size.
    const { data: firstFrame, info } = await sharp(sent[2]!).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([30, 20]);
    expect([...firstFrame.subarray(0, 3)]).toEqual([255, 0, 0]);

    const { turns } = await run.call('getSession', started.sessionId);
    expect(turns[0]?.pictures.map((picture) => [picture.imageId, picture.width, picture.height])).toEqual([
      [stored[0]!.id, 3000, 1000],
      [stored[1]!.id, 40, 30],
      [stored[2]!.id, 30, 20],
    ]);
  });

  it('refuses a bad picture as invalid arguments naming it and why, before any session, image or model call', async () => {
    const run = (api = await startAppApiHarness());
    const png = await makePng({ width: 40, height: 30 });
    const refusals = [
      { picture: { name: 'notes.png', mime: 'image/png', dataBase64: Buffer.from('plain words').toString('base64') }, reason: 'Picture notes.png: is not a picture (expected PNG, JPEG, WebP or GIF).' },
      { picture: { name: 'cut.png', mime: 'image/png', dataBase64: png.subarray(0, png.length - 20).toString('base64') }, reason: 'Picture cut.png: cannot be read: it is damaged or cut short' },
      { picture: { name: 'scan.tiff', mime: 'image/tiff', dataBase64: png.toString('base64') }, reason: 'a picture must be PNG, JPEG, WebP or GIF' },
      { picture: { name: 'huge.png', mime: 'image/png', dataBase64: Buffer.alloc(MAX_PICTURE_BYTES + 3).toString('base64') }, reason: `a picture may be at most ${MAX_PICTURE_BYTES} bytes` },
    ];
    for (const { picture, reason } of refusals) {
      // callRaw: some of these are not even of the schema's type, as a hostile or buggy caller may send them.
      const refused = run.callRaw('startRun', [{ task: 'look at this', pictures: [{ name: 'fine.png', mime: 'image/png', dataBase64: png.toString('base64') }, picture] }]);
      await expect(refused).rejects.toMatchObject({ code: 'invalid-arguments', message: expect.stringContaining(reason) });
    }
    expect((await run.call('listSessions', {})).total).toBe(0);
    expect(run.server.requests).toHaveLength(0);
    expect(run.operators).toHaveLength(0);
  });
});
