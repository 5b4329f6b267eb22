/**
 * A picture from the person, end to end (issue 16): `sightline run --image FILE` as separate processes with
 * the browser operator on the bundled sandbox page, two turns of one session against the fake model server.
 * Turn 1's request carries the picture as an image; turn 2's request names it `[Picture:history_<hash>]`
 * and no longer carries its pixels, until the model recalls it by that name with get_history_image and the
 * next request carries them again. A file that is not a picture is refused with exit 2 before anything
 * is stored.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { historyPictureText } from '../../src/main/context/history-pictures.js';
import { sha256Of } from '../../src/main/storage/index.js';
import { type RecordedRequest } from '../helpers/fake-openai-server.js';
import { scriptedMoves } from '../helpers/scripted-computer-model.js';
import { makePng, openHomeStorage } from '../helpers/seed.js';
import { useRunEnvironment } from '../helpers/run-environment.js';
import { runSightlineProcess } from './support/sightline-process.js';

const environment = useRunEnvironment('sightline-pictures-e2e', { per: 'file' });

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'sightline-picture-files-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function runArgs(task: string, ...extra: string[]): string[] {
  return ['--home', environment.home.root, 'run', task, '--operator', 'browser', '--url', environment.sandbox.url, '--base-url', environment.model.baseUrl, ...extra];
}

interface ChatPart {
  type: string;
  text?: string;
  image_url?: { url: string };
}

/** Every image a Chat Completions request carries, decoded from its data URL. */
function imagesOf(request: RecordedRequest): Buffer[] {
  const messages = (request.body as { messages: Array<{ content: unknown }> }).messages;
  return messages.flatMap((message) =>
    Array.isArray(message.content)
      ? (message.content as ChatPart[])
          .filter((part) => part.type === 'image_url')
          .map((part) => Buffer.from(part.image_url!.url.replace(/^data:image\/[a-z]+;base64,/, ''), 'base64'))
      : [],
  );
}

async function pixelsOf(bytes: Buffer): Promise<Buffer> {
  return sharp(bytes).ensureAlpha().raw().toBuffer();
}

async function carriesPicture(request: RecordedRequest, picture: Buffer): Promise<boolean> {
  const wanted = await pixelsOf(picture);
  for (const image of imagesOf(request)) if ((await pixelsOf(image)).equals(wanted)) return true;
  return false;
}

describe('sightline run --image', () => {
  it('sends the picture in turn 1, names it [Picture:history_<hash>] in turn 2, and gives it back recalled by that name', { timeout: 120_000 }, async () => {
    const picture = await makePng({ width: 64, height: 48, seed: 9 });
    writeFileSync(join(folder, 'diagram.png'), picture);
    const name = historyPictureText(sha256Of(picture));

    environment.model.script(scriptedMoves([{ finish: 'The picture shows a block on a plain background.' }]));
    const first = await runSightlineProcess(runArgs('What does this picture show?', '--image', join(folder, 'diagram.png')));
    expect(first.code, first.stderr).toBe(0);
    const sessionId = /continue it with --session (ses_[0-9a-f]{12})/.exec(first.stderr)?.[1];
    expect(sessionId, first.stderr).toBeDefined();
    const firstRequest = environment.model.requests[0]!;
    expect(await carriesPicture(firstRequest, picture)).toBe(true);
    expect(firstRequest.rawBody).not.toContain(name);

    // The model copies the picture's name from its placeholder, without the brackets, as a model would.
    const historyName = /^\[Picture:(history_[0-9a-f]+)\]$/.exec(name)?.[1];
    expect(historyName, name).toBeDefined();
    environment.model.script(scriptedMoves([{ tool: 'get_history_image', arguments: { image_id: historyName } }, { finish: 'As I said, a block.' }]));
    const requestsBefore = environment.model.requests.length;
    const second = await runSightlineProcess(runArgs('Remind me what it showed.', '--session', sessionId!));
    expect(second.code, second.stderr).toBe(0);
    const secondRequest = environment.model.requests[requestsBefore]!;
    expect(secondRequest.rawBody).toContain(name);
    expect(await carriesPicture(secondRequest, picture)).toBe(false);
    // Recalled by its history_ name: the request that answers the call carries its pixels again.
    const afterRecall = environment.model.requests[requestsBefore + 1]!;
    expect(await carriesPicture(afterRecall, picture)).toBe(true);

    const storage = openHomeStorage(environment.home);
    try {
      const [turn] = storage.turns.listBySession(sessionId!);
      const stored = storage.images.listBySession(sessionId!).filter((image) => image.source === 'user');
      expect(stored.map((image) => [image.turnId, image.sha256])).toEqual([[turn!.id, sha256Of(picture)]]);
      // The original, unchanged, in the content-addressed store (blobs/, or cold storage once its turn is compacted).
      const original = await storage.images.read(stored[0]!.id);
      if (original.status !== 'ok') throw new Error(`the stored picture cannot be read: ${original.message}`);
      expect(original.bytes.equals(picture)).toBe(true);
      expect(existsSync(storage.blobs.pathFor(original.location, sha256Of(picture), 'image/png'))).toBe(true);
    } finally {
      storage.close();
    }
  });

  it('refuses a file that is not a picture with exit 2, its path and the reason, before anything is stored', { timeout: 60_000 }, async () => {
    const notes = join(folder, 'notes.png');
    writeFileSync(notes, 'these are words, not pixels');
    const requestsBefore = environment.model.requests.length;
    const sessionsBefore = countSessions();
    const refused = await runSightlineProcess(runArgs('Look at this', '--image', notes));
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toContain(`--image: ${notes}: is not a picture (expected PNG, JPEG, WebP or GIF).`);
    const missing = await runSightlineProcess(runArgs('Look at this', '--image', join(folder, 'absent.png')));
    expect(missing.code, missing.stderr).toBe(2);
    expect(missing.stderr).toContain(`--image: ${join(folder, 'absent.png')}: no such file.`);
    expect(environment.model.requests.length).toBe(requestsBefore);
    expect(countSessions()).toBe(sessionsBefore);
  });
});

function countSessions(): number {
  const storage = openHomeStorage(environment.home);
  try {
    return storage.sessions.summaries({ limit: 500, offset: 0 }).total;
  } finally {
    storage.close();
  }
}
