/**
 * `sightline sessions pin IMAGE_ID` and `unpin IMAGE_ID` (issue 16): a person keeps a key frame whole in every
 * later request of its session; the pin is stored, so `sessions show` and the next run see it.
 */
import { existsSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/main/cli/program.js';
import { captureIo } from '../helpers/cli-io.js';
import { createTemporaryHome, makePng, openHomeStorage, seedStorage, type SeededSession, type TemporaryHome } from '../helpers/seed.js';

let home: TemporaryHome;
beforeEach(() => {
  home = createTemporaryHome('sightline-cli-pins');
});
afterEach(() => home.remove());

async function sightline(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const io = captureIo({ SIGHTLINE_HOME: home.root }, home.root);
  const code = await runCli(argv, io);
  return { code, ...io.output };
}

async function seedHome(): Promise<SeededSession> {
  const storage = openHomeStorage(home);
  try {
    const [seeded] = await seedStorage(storage, { sessions: 1, turnsPerSession: 1, stepsPerTurn: 2 });
    if (seeded === undefined) throw new Error('seed failed');
    return seeded;
  } finally {
    storage.close();
  }
}

function pinnedIds(): string[] {
  const storage = openHomeStorage(home);
  try {
    return storage.images.listBySession(storage.sessions.list({ limit: 1 })[0]!.id).flatMap((image) => (storage.pins.get(image.id) ? [image.id] : []));
  } finally {
    storage.close();
  }
}

describe('sightline sessions pin / unpin', () => {
  it('pins a screenshot, shows it in sessions show, and unpins it', async () => {
    const seeded = await seedHome();
    const frame = seeded.turns[0]!.images[1]!;
    // With or without the prefix, in any case, as ids are read everywhere.
    const pinned = await sightline('sessions', 'pin', frame.id.replace(/^img_/, '').toUpperCase());
    expect(pinned).toEqual({ code: 0, stderr: '', stdout: `pinned ${frame.id}: every later request of session ${seeded.session.id} sends it whole\n` });
    expect(pinnedIds()).toEqual([frame.id]);
    expect((await sightline('sessions', 'pin', frame.id)).code).toBe(0);
    expect(pinnedIds()).toEqual([frame.id]);

    const shown = await sightline('sessions', 'show', seeded.session.id);
    expect(shown.stdout).toContain(`  pinned: ${frame.id}\n`);
    expect(shown.stdout).toContain(`[screenshot ${frame.id}, pinned]`);
    const json = JSON.parse((await sightline('sessions', 'show', seeded.session.id, '--json')).stdout) as { pins: { imageId: string }[] };
    expect(json.pins.map((pin) => pin.imageId)).toEqual([frame.id]);

    const unpinned = await sightline('sessions', 'unpin', frame.id);
    expect(unpinned).toEqual({ code: 0, stderr: '', stdout: `unpinned ${frame.id}: it folds like any other frame again\n` });
    expect(pinnedIds()).toEqual([]);
    expect((await sightline('sessions', 'unpin', frame.id)).stdout).toBe(`${frame.id} was not pinned\n`);
    expect((await sightline('sessions', 'show', seeded.session.id)).stdout).not.toContain('pinned');
  });

  it('refuses what is not an image id, an unknown image and an image that is not a screenshot (exit 2), storing nothing', async () => {
    const seeded = await seedHome();
    const malformed = await sightline('sessions', 'pin', 'img_nothex');
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toContain('"img_nothex" is not an image id (expected img_ followed by 12 hex digits).');

    const unknown = await sightline('sessions', 'unpin', 'img_000000000000');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain(`no image img_000000000000 in ${home.root}`);

    const storage = openHomeStorage(home);
    const picture = await storage.images.put({
      sessionId: seeded.session.id,
      turnId: null,
      bytes: await makePng({ width: 8, height: 8, seed: 9 }),
      mime: 'image/png',
      width: 8,
      height: 8,
      source: 'user',
    });
    storage.close();
    const refused = await sightline('sessions', 'pin', picture.id);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`Image ${picture.id} is a user image, not a screenshot; only screenshots can be pinned.`);
    expect(pinnedIds()).toEqual([]);
  });

  it('says so, and creates nothing, in a home without a database', async () => {
    const result = await sightline('sessions', 'pin', 'img_0123456789ab');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('no image img_0123456789ab');
    expect(existsSync(home.databaseFile)).toBe(false);
  });
});
