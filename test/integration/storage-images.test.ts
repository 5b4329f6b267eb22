import { existsSync, writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Storage } from '../../src/main/storage/index.js';
import { makePng } from '../helpers/seed.js';
import { createTemporaryStorage, type TemporaryStorage } from '../helpers/temporary-storage.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const START = new Date('2026-03-01T12:00:00.000Z');

let temporary: TemporaryStorage;
let storage: Storage;
/** The storage clock; tests move it forward to age rows. */
let now: Date;
let sessionId: string;
let turnId: string;

beforeEach(() => {
  now = START;
  temporary = createTemporaryStorage('sightline-images', { clock: () => now });
  storage = temporary.storage;
  sessionId = storage.sessions.create({ title: 'images' }).id;
  turnId = storage.turns.start({ sessionId, userRequest: 'look around' }).id;
});
afterEach(() => temporary.remove());

async function putScreenshot(seed: number, overrides: { turnId?: string | null } = {}) {
  const bytes = await makePng({ seed, width: 40, height: 30 });
  const record = await storage.images.put({
    sessionId,
    turnId: overrides.turnId === undefined ? turnId : overrides.turnId,
    bytes,
    mime: 'image/png',
    width: 40,
    height: 30,
    phash: '00ff00ff00ff00ff',
    hashAlgorithm: 'phash',
    source: 'screen',
    displayId: 1,
    scaleFactor: 2,
  });
  return { bytes, record };
}

describe('images.put and images.read', () => {
  it('writes the file and the row, and reads the pixels back by id', async () => {
    const { bytes, record } = await putScreenshot(1);
    expect(record).toMatchObject({
      sessionId,
      turnId,
      width: 40,
      height: 30,
      mime: 'image/png',
      byteSize: bytes.byteLength,
      zone: 'active',
      isErrorFrame: false,
      source: 'screen',
      displayId: '1',
      scaleFactor: 2,
      phash: '00ff00ff00ff00ff',
      createdAt: START.toISOString(),
      offloadedAt: null,
      purgedAt: null,
    });
    expect(record.id).toMatch(/^img_[0-9a-f]{12}$/);
    expect(existsSync(storage.blobs.pathFor('blobs', record.sha256, 'image/png'))).toBe(true);
    expect(storage.images.get(record.id)).toEqual(record);
    const read = await storage.images.read(record.id);
    expect(read).toMatchObject({ status: 'ok', bytes, record, location: 'blobs' });
  });

  it('rejects invalid input before touching the disk', async () => {
    await expect(
      storage.images.put({ sessionId, turnId, bytes: Buffer.alloc(0), mime: 'image/png', width: 1, height: 1, source: 'screen' }),
    ).rejects.toThrow(/empty/);
    await expect(
      storage.images.put({
        sessionId,
        turnId,
        bytes: await makePng(),
        mime: 'image/png',
        width: 1,
        height: 1,
        source: 'screen',
        phash: 'not-hex',
      }),
    ).rejects.toThrow();
  });

  it('reports an unknown id, a missing file and a corrupt file as unavailable with a reason', async () => {
    expect(await storage.images.read('img_000000000000')).toMatchObject({ status: 'unavailable', reason: 'not-found' });

    const corrupt = await putScreenshot(2);
    writeFileSync(storage.blobs.pathFor('blobs', corrupt.record.sha256, 'image/png'), 'not the same bytes');
    const corruptRead = await storage.images.read(corrupt.record.id);
    expect(corruptRead).toMatchObject({ status: 'unavailable', reason: 'corrupt', record: corrupt.record });
    expect(corruptRead.status === 'unavailable' && corruptRead.message).toContain(corrupt.record.id);

    const missing = await putScreenshot(3);
    await storage.blobs.archive(missing.record.sha256, 'image/png');
    await storage.blobs.removeCold(missing.record.sha256, 'image/png');
    expect(await storage.images.read(missing.record.id)).toMatchObject({ status: 'unavailable', reason: 'missing' });
  });
});

describe('images.archive and images.retrieve', () => {
  it('round-trips: the file moves to cold storage, the row is offloaded, the pixels come back by id', async () => {
    const { bytes, record } = await putScreenshot(4);
    now = new Date(START.getTime() + 60_000);
    const archived = await storage.images.archive(record.id);
    expect(archived.file).toBe('moved');
    expect(archived.record).toMatchObject({ zone: 'offloaded', offloadedAt: now.toISOString() });
    expect(existsSync(storage.blobs.pathFor('blobs', record.sha256, 'image/png'))).toBe(false);
    expect(existsSync(storage.blobs.pathFor('cold', record.sha256, 'image/png'))).toBe(true);

    const retrieved = await storage.images.retrieve(record.id);
    expect(retrieved).toMatchObject({ status: 'ok', bytes, location: 'cold', record: { zone: 'offloaded' } });

    const again = await storage.images.archive(record.id);
    expect(again.file).toBe('already-archived');
    expect(again.record.offloadedAt).toBe(now.toISOString());
  });

  it('keeps a file in blobs while another live row still uses the same bytes', async () => {
    const first = await putScreenshot(5);
    const second = await putScreenshot(5);
    expect(second.record.sha256).toBe(first.record.sha256);
    expect(second.record.id).not.toBe(first.record.id);

    expect((await storage.images.archive(first.record.id)).file).toBe('kept-for-other-rows');
    expect(await storage.blobs.locate(first.record.sha256, 'image/png')).toBe('blobs');
    expect(await storage.images.read(second.record.id)).toMatchObject({ status: 'ok', location: 'blobs' });

    expect((await storage.images.archive(second.record.id)).file).toBe('moved');
    expect(await storage.blobs.locate(first.record.sha256, 'image/png')).toBe('cold');
    expect(await storage.images.retrieve(first.record.id)).toMatchObject({ status: 'ok', location: 'cold' });
  });

  it('never compacts an image without a turn (older data)', async () => {
    const { record } = await putScreenshot(6, { turnId: null });
    await expect(storage.images.archive(record.id)).rejects.toThrow(/never compacted/);
    expect(storage.images.get(record.id)?.zone).toBe('active');
    expect(await storage.blobs.locate(record.sha256, 'image/png')).toBe('blobs');
  });

  it('moves images between active and compact, but an offloaded one stays offloaded', async () => {
    const { record } = await putScreenshot(7);
    expect(storage.images.setZone(record.id, 'compact').zone).toBe('compact');
    expect(storage.images.setCaption(record.id, 'the settings page').caption).toBe('the settings page');
    expect(storage.images.setErrorFrame(record.id, true).isErrorFrame).toBe(true);
    await storage.images.archive(record.id);
    expect(() => storage.images.setZone(record.id, 'active')).toThrow(/offloaded/);
  });
});

describe('the retention sweep', () => {
  it('deletes cold files offloaded longer ago than the retention, marks their rows, and spares the rest', async () => {
    const old = await putScreenshot(10);
    const recent = await putScreenshot(11);
    const live = await putScreenshot(12);
    const sharedOld = await putScreenshot(13);
    const sharedLive = await putScreenshot(13);

    await storage.images.archive(old.record.id);
    await storage.images.archive(sharedOld.record.id); // kept in blobs: sharedLive still uses it
    now = new Date(START.getTime() + 20 * DAY_MS);
    await storage.images.archive(recent.record.id);

    // 29 days after the first archive, nothing is old enough.
    const early = await storage.images.sweepRetention({ olderThanDays: 30, now: new Date(START.getTime() + 29 * DAY_MS) });
    expect(early).toEqual({ filesDeleted: 0, filesAlreadyMissing: 0, rowsPurged: 0, bytesFreed: 0 });

    const sweepTime = new Date(START.getTime() + 31 * DAY_MS);
    const swept = await storage.images.sweepRetention({ olderThanDays: 30, now: sweepTime });
    expect(swept).toEqual({ filesDeleted: 1, filesAlreadyMissing: 0, rowsPurged: 1, bytesFreed: old.bytes.byteLength });

    expect(existsSync(storage.blobs.pathFor('cold', old.record.sha256, 'image/png'))).toBe(false);
    expect(storage.images.get(old.record.id)).toMatchObject({ zone: 'offloaded', purgedAt: sweepTime.toISOString() });
    const purgedRead = await storage.images.read(old.record.id);
    expect(purgedRead).toMatchObject({ status: 'unavailable', reason: 'purged' });

    expect(await storage.images.retrieve(recent.record.id)).toMatchObject({ status: 'ok', location: 'cold' });
    expect(await storage.images.read(live.record.id)).toMatchObject({ status: 'ok', location: 'blobs' });
    expect(await storage.images.read(sharedOld.record.id)).toMatchObject({ status: 'ok' });
    expect(storage.images.get(sharedOld.record.id)?.purgedAt).toBeNull();
    expect(await storage.images.read(sharedLive.record.id)).toMatchObject({ status: 'ok', location: 'blobs' });

    // A second sweep finds nothing more; a later one takes the recent file too.
    expect((await storage.images.sweepRetention({ olderThanDays: 30, now: sweepTime })).rowsPurged).toBe(0);
    const later = await storage.images.sweepRetention({ olderThanDays: 30, now: new Date(START.getTime() + 51 * DAY_MS) });
    expect(later).toMatchObject({ filesDeleted: 1, rowsPurged: 1 });
  });

  it('marks the rows of a cold file that had already disappeared', async () => {
    const { record } = await putScreenshot(14);
    await storage.images.archive(record.id);
    await storage.blobs.removeCold(record.sha256, 'image/png');
    const swept = await storage.images.sweepRetention({ olderThanDays: 1, now: new Date(START.getTime() + 2 * DAY_MS) });
    expect(swept).toEqual({ filesDeleted: 0, filesAlreadyMissing: 1, rowsPurged: 1, bytesFreed: 0 });
  });
});
