/**
 * Pinned frames in storage (issue 16): a person pins a screenshot, the pin lasts across restarts, goes with
 * its session, and keeps the retention sweep from deleting the frame's pixels.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compactTurn } from '../../src/main/context/compact-turn.js';
import type { Storage } from '../../src/main/storage/index.js';
import { makePng } from '../helpers/seed.js';
import { createTemporaryStorage, type TemporaryStorage } from '../helpers/temporary-storage.js';
import { recordTurn } from '../helpers/turn-fixture.js';

let temporary: TemporaryStorage;
let storage: Storage;
beforeEach(() => {
  temporary = createTemporaryStorage('sightline-pins');
  storage = temporary.storage;
});
afterEach(() => temporary.remove());

describe('pinned frames in storage', () => {
  it('pins a screenshot once, unpins it, and keeps the pin across a restart', async () => {
    const session = storage.sessions.create({ title: 'Pins' });
    const { screenshots } = await recordTurn(storage, session, { steps: [{}, {}] });
    const frame = screenshots[1]!;

    const first = storage.pins.pin(frame.id);
    expect(first).toMatchObject({ status: 'pinned', pin: { imageId: frame.id, sessionId: session.id } });
    const again = storage.pins.pin(frame.id);
    // Idempotent: the first pin's time stays.
    expect(again).toEqual(first);
    expect([...storage.pins.pinnedIds(session.id)]).toEqual([frame.id]);

    storage = temporary.reopen();
    expect(storage.pins.get(frame.id)?.imageId).toBe(frame.id);
    expect(storage.pins.unpin(frame.id)).toBe(true);
    expect(storage.pins.unpin(frame.id)).toBe(false);
    expect(storage.pins.listBySession(session.id)).toEqual([]);
  });

  it('refuses an unknown image and an image that is not a screenshot', async () => {
    const session = storage.sessions.create({ title: 'Pins' });
    const picture = await storage.images.put({
      sessionId: session.id,
      turnId: null,
      bytes: await makePng({ width: 8, height: 8, seed: 3 }),
      mime: 'image/png',
      width: 8,
      height: 8,
      source: 'user',
    });
    expect(storage.pins.pin('img_000000000000')).toEqual({ status: 'refused', reason: 'not-found', message: 'There is no image img_000000000000.' });
    expect(storage.pins.pin(picture.id)).toMatchObject({ status: 'refused', reason: 'not-a-screenshot' });
    expect(storage.pins.listBySession(session.id)).toEqual([]);
  });

  it('goes with its session when the session is deleted', async () => {
    const session = storage.sessions.create({ title: 'Pins' });
    const { screenshots } = await recordTurn(storage, session, { steps: [{}] });
    storage.pins.pin(screenshots[0]!.id);
    await storage.deleteSession(session.id);
    expect(storage.pins.get(screenshots[0]!.id)).toBeUndefined();
  });

  it('keeps the retention sweep from deleting a pinned frame in cold storage, and lets it go once unpinned', async () => {
    const session = storage.sessions.create({ title: 'Pins' });
    const fixture = await recordTurn(storage, session, { steps: [{}, {}, {}] });
    await compactTurn({ storage, turnId: fixture.turn.id });
    const pinned = fixture.screenshots[1]!;
    const other = fixture.screenshots[2]!;
    expect(storage.images.get(pinned.id)?.zone).toBe('offloaded');
    storage.pins.pin(pinned.id);

    const later = new Date(Date.now() + 60_000);
    await storage.images.sweepRetention({ olderThanDays: 0, now: later });
    expect(storage.images.get(pinned.id)?.purgedAt).toBeNull();
    expect((await storage.images.read(pinned.id)).status).toBe('ok');
    expect(storage.images.get(other.id)?.purgedAt).not.toBeNull();

    storage.pins.unpin(pinned.id);
    await storage.images.sweepRetention({ olderThanDays: 0, now: later });
    expect(storage.images.get(pinned.id)?.purgedAt).not.toBeNull();
    // Its pixels are gone now: there is nothing left to pin.
    expect(storage.pins.pin(pinned.id)).toMatchObject({ status: 'refused', reason: 'purged' });
    expect(storage.pins.get(pinned.id)).toBeUndefined();
  });
});
