/**
 * openRuntime: what every front end runs at start. Leftovers of a crashed blob write are removed, cold
 * files past the configured retention are deleted with their rows marked, and everything recent stays.
 */
import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../src/shared/config.js';
import { openRuntime } from '../../src/main/app/runtime.js';
import { createTemporaryHome, openHomeStorage, seedStorage, type TemporaryHome } from '../helpers/seed.js';

const DAY_MS = 24 * 60 * 60 * 1000;
let home: TemporaryHome | undefined;

afterEach(() => home?.remove());

describe('openRuntime', () => {
  it('opens storage in a new home, creating its folders', async () => {
    home = createTemporaryHome('sightline-runtime');
    const runtime = await openRuntime({ home, config: ConfigSchema.parse({}) });
    expect(runtime.storage.sessions.count()).toBe(0);
    expect(existsSync(home.databaseFile)).toBe(true);
    expect(existsSync(home.blobsDirectory)).toBe(true);
    expect(runtime.startup).toEqual({
      temporaryFilesRemoved: 0,
      unreferencedFilesRemoved: 0,
      abandonedTurnsEnded: [],
      compactions: { resumed: [], compactedLate: [], filesMoved: 0, failed: [] },
      retention: { filesDeleted: 0, filesAlreadyMissing: 0, rowsPurged: 0, bytesFreed: 0 },
    });
    runtime.close();
    runtime.close();
  });

  it('removes stale temp files of interrupted blob writes and keeps a fresh one', async () => {
    home = createTemporaryHome('sightline-runtime');
    const folder = join(home.blobsDirectory, 'ab');
    mkdirSync(folder, { recursive: true });
    const stale = join(folder, `${'ab'.repeat(32)}.png.1a2b3c.tmp`);
    const fresh = join(folder, `${'ab'.repeat(32)}.png.4d5e6f.tmp`);
    writeFileSync(stale, 'half an image');
    writeFileSync(fresh, 'a write still under way');
    const hourAgo = new Date(Date.now() - 60 * 60 * 1000);
    utimesSync(stale, hourAgo, hourAgo);

    const runtime = await openRuntime({ home, config: ConfigSchema.parse({}) });
    runtime.close();

    expect(runtime.startup.temporaryFilesRemoved).toBe(1);
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(fresh)).toBe(true);
  });

  it('sweeps cold files older than storage.retentionDays and keeps recent ones', async () => {
    home = createTemporaryHome('sightline-runtime');
    const storage = openHomeStorage(home);
    const [seeded] = await seedStorage(storage, { sessions: 1, turnsPerSession: 1, stepsPerTurn: 2 });
    const [first, second] = seeded!.turns[0]!.images;
    await storage.images.archive(first!.id);
    const archivedAt = new Date(storage.images.get(first!.id)!.offloadedAt!);
    storage.close();

    const config = ConfigSchema.parse({ storage: { retentionDays: 7 } });
    const tooEarly = await openRuntime({ home, config, now: new Date(archivedAt.getTime() + 6 * DAY_MS) });
    tooEarly.close();
    expect(tooEarly.startup.retention.filesDeleted).toBe(0);

    const runtime = await openRuntime({ home, config, now: new Date(archivedAt.getTime() + 8 * DAY_MS) });
    expect(runtime.startup.retention).toMatchObject({ filesDeleted: 1, rowsPurged: 1 });
    expect(runtime.storage.images.get(first!.id)!.purgedAt).not.toBeNull();
    expect(runtime.storage.images.get(second!.id)!.purgedAt).toBeNull();
    runtime.close();
  });
});
