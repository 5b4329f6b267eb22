/**
 * A compaction killed in the middle (a child process SIGKILLed at each point of the work), then a restart:
 * startup finishes it from the journal. Nothing is lost, every row's file is where the row says, and no
 * file is left over in blobs/ or cold-storage/.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/shared/config.js';
import { openRuntime } from '../../src/main/app/runtime.js';
import type { Storage } from '../../src/main/storage/index.js';
import { createTemporaryHome, openHomeStorage, type TemporaryHome } from '../helpers/seed.js';
import { recordTurn, screenshot } from '../helpers/turn-fixture.js';

let home: TemporaryHome;
beforeEach(() => {
  home = createTemporaryHome('sightline-compaction-crash');
});
afterEach(() => home.remove());

function filesUnder(root: string): string[] {
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .map((entry) => join(root, entry))
    .filter((path) => statSync(path).isFile());
}

/** Compacts in a child process that pauses at `point`, then kills it there. */
async function compactAndKill(turnId: string, point: string): Promise<void> {
  const childScript = fileURLToPath(new URL('../helpers/compaction-child.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', childScript, home.root, turnId, point], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('"paused":true')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`child exited (${code}) before pausing: ${stderr}`)));
  });
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
  child.kill('SIGKILL');
  expect(await exited).toBe('SIGKILL');
}

/** Every row's file is where its zone says; every file belongs to a row; nothing is half-written. */
function expectConsistent(storage: Storage): void {
  const sessions = storage.sessions.list({ limit: 1000 });
  const images = sessions.flatMap((session) => storage.images.listBySession(session.id));
  const expected = new Set<string>();
  for (const image of images) {
    const location = image.zone === 'offloaded' ? 'cold' : 'blobs';
    const path = storage.blobs.pathFor(location, image.sha256, image.mime);
    expect(existsSync(path), `${image.id} (${image.zone}) at ${relative(home.root, path)}`).toBe(true);
    expected.add(path);
  }
  const files = [...filesUnder(home.blobsDirectory), ...filesUnder(home.coldStorageDirectory)];
  expect(files.filter((file) => !expected.has(file)).map((file) => relative(home.root, file))).toEqual([]);
}

describe('a compaction killed mid-way', () => {
  it.each(['after-plan', 'after-first-file', 'before-row-updates'])('is finished at the next start (killed %s)', async (point) => {
    const storage = openHomeStorage(home);
    const session = storage.sessions.create({ title: 'Crash' });
    const legacy = await screenshot(storage, session, null);
    const { turn, screenshots } = await recordTurn(storage, session, { steps: [{}, {}, {}, {}, {}] });
    const before = storage.messages.listByTurn(turn.id);
    storage.close();

    await compactAndKill(turn.id, point);

    const interrupted = openHomeStorage(home);
    expect(interrupted.compactions.get(turn.id)).toMatchObject({ state: 'planned' });
    expect(interrupted.turns.get(turn.id)?.compactedAt).toBeNull();
    // Even now every image reads, from wherever its file is.
    for (const image of screenshots) expect((await interrupted.images.read(image.id)).status).toBe('ok');
    interrupted.close();

    const runtime = await openRuntime({ home, config: DEFAULT_CONFIG });
    try {
      expect(runtime.startup.compactions).toMatchObject({ resumed: [turn.id], compactedLate: [], failed: [] });
      const { storage: reopened } = runtime;
      expect(reopened.compactions.get(turn.id)).toMatchObject({ state: 'done' });
      expect(reopened.turns.get(turn.id)?.compactedAt).not.toBeNull();
      const zones = screenshots.map((image) => reopened.images.get(image.id)?.zone);
      expect(zones).toEqual(['compact', 'offloaded', 'offloaded', 'offloaded', 'offloaded', 'compact']);
      const after = reopened.messages.listByTurn(turn.id);
      expect(after.map((record) => record.id)).toEqual(before.map((record) => record.id));
      expect(after.filter((record) => record.isCompressed)).toHaveLength(4);
      // Nothing lost: every image still reads, byte-checked.
      for (const image of screenshots) expect((await reopened.images.read(image.id)).status).toBe('ok');
      // Rows without a turn are untouched.
      expect(reopened.images.get(legacy.id)).toEqual(legacy);
      expectConsistent(reopened);
    } finally {
      runtime.close();
    }
  });

  it('compacts at startup a turn that ended without its turn-end hook (the process died first)', async () => {
    const storage = openHomeStorage(home);
    const session = storage.sessions.create({ title: 'Never compacted' });
    const { turn } = await recordTurn(storage, session, { steps: [{}, {}, {}] });
    const running = await recordTurn(storage, session, { steps: [{}, {}], status: 'running' });
    storage.close();

    // Just after: the turn may still be in another process's hands.
    const soon = await openRuntime({ home, config: DEFAULT_CONFIG });
    expect(soon.startup.compactions).toEqual({ resumed: [], compactedLate: [], filesMoved: 0, failed: [] });
    soon.close();

    const later = await openRuntime({ home, config: DEFAULT_CONFIG, now: new Date(Date.now() + 5 * 60_000) });
    try {
      expect(later.startup.compactions).toMatchObject({ compactedLate: [turn.id], filesMoved: 2 });
      expect(later.storage.turns.get(running.turn.id)?.compactedAt).toBeNull();
      expectConsistent(later.storage);
    } finally {
      later.close();
    }
  });
});
