/**
 * What startup repairs after a process died, case by case (the kill test shows them together): a turn
 * left running is ended as stopped only when its process is gone, never when it is alive or on another
 * machine; an image file no row names is removed once it is older than the grace period, never while it
 * may be another process's write in progress, and never a file a row names.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../src/shared/config.js';
import { endAbandonedTurns } from '../../src/main/app/abandoned-turns.js';
import { openRuntime } from '../../src/main/app/runtime.js';
import { sha256Of } from '../../src/main/storage/index.js';
import { createTemporaryHome, makePng, openHomeStorage, seedStorage, type TemporaryHome } from '../helpers/seed.js';
import { withRawDatabase } from '../helpers/raw-database.js';

let home: TemporaryHome | undefined;
afterEach(() => home?.remove());

/** The pid of a process that has exited (so no process has it, for now). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  const pid = child.pid!;
  await new Promise((done) => child.once('close', done));
  return pid;
}

describe('turns left running at startup', () => {
  it('ends those whose process is gone or unknown, and leaves live ones and other machines\' alone', async () => {
    home = createTemporaryHome('sightline-repair');
    const storage = openHomeStorage(home);
    const [seeded] = await seedStorage(storage, { sessions: 1, turnsPerSession: 4, stepsPerTurn: 1, turnStatus: () => 'running' });
    const [dead, unknown, alive, elsewhere] = seeded!.turns.map(({ turn }) => turn.id) as [string, string, string, string];
    // Owners as other processes and older rows left them.
    const owners: Array<[number, string | null, string]> = [
      [await deadPid(), null, dead],
      [process.ppid, null, alive],
      [await deadPid(), 'another-machine.example', elsewhere],
    ];
    withRawDatabase(storage.paths.databaseFile, (database) => {
      const setOwner = database.prepare('UPDATE turns SET owner_pid = ?, owner_host = COALESCE(?, owner_host) WHERE id = ?');
      for (const owner of owners) setOwner.run(...owner);
      database.prepare('UPDATE turns SET owner_pid = NULL, owner_host = NULL WHERE id = ?').run(unknown);
    });
    storage.sessions.setStatus(seeded!.session.id, 'running');

    expect(endAbandonedTurns(storage).sort()).toEqual([dead, unknown].sort());
    expect([dead, unknown, alive, elsewhere].map((id) => storage.turns.get(id)?.status)).toEqual(['stopped', 'stopped', 'running', 'running']);
    // Turns of the session still run elsewhere: it stays running until they end.
    expect(storage.sessions.get(seeded!.session.id)?.status).toBe('running');
    storage.close();
  });

  it('makes the session idle again once its abandoned turn is ended, through openRuntime', async () => {
    home = createTemporaryHome('sightline-repair');
    const storage = openHomeStorage(home);
    const [seeded] = await seedStorage(storage, { sessions: 1, turnsPerSession: 1, stepsPerTurn: 1, turnStatus: () => 'running' });
    const pid = await deadPid();
    withRawDatabase(storage.paths.databaseFile, (database) => database.prepare('UPDATE turns SET owner_pid = ?').run(pid));
    storage.sessions.setStatus(seeded!.session.id, 'running');
    storage.close();

    const runtime = await openRuntime({ home, config: ConfigSchema.parse({}) });
    expect(runtime.startup.abandonedTurnsEnded).toEqual([seeded!.turns[0]!.turn.id]);
    expect(runtime.storage.sessions.get(seeded!.session.id)?.status).toBe('idle');
    runtime.close();
  });

  it('never ends a turn this very process is running', async () => {
    home = createTemporaryHome('sightline-repair');
    const storage = openHomeStorage(home);
    const session = storage.sessions.create({ title: 't', operator: 'desktop', model: 'm' });
    const turn = storage.turns.start({ sessionId: session.id, userRequest: 'r' });
    expect(endAbandonedTurns(storage, () => false)).toEqual([]);
    expect(storage.turns.get(turn.id)?.status).toBe('running');
    storage.close();
  });
});

describe('image files without a row at startup', () => {
  it('removes old ones, keeps young ones and every file a row names', async () => {
    home = createTemporaryHome('sightline-repair');
    const storage = openHomeStorage(home);
    const [seeded] = await seedStorage(storage, { sessions: 1, turnsPerSession: 1, stepsPerTurn: 2 });
    const named = seeded!.turns[0]!.images.map((image) => storage.blobs.pathFor('blobs', image.sha256, image.mime));
    storage.close();
    const orphan = async (seed: number, ageMs: number): Promise<string> => {
      const bytes = await makePng({ seed });
      const sha256 = sha256Of(bytes);
      mkdirSync(join(home!.blobsDirectory, sha256.slice(0, 2)), { recursive: true });
      const path = join(home!.blobsDirectory, sha256.slice(0, 2), `${sha256}.png`);
      writeFileSync(path, bytes);
      const when = new Date(Date.now() - ageMs);
      utimesSync(path, when, when);
      for (const file of named) utimesSync(file, when, when);
      return path;
    };
    await orphan(900, 10 * 60_000);
    const young = await orphan(901, 0);

    const runtime = await openRuntime({ home, config: ConfigSchema.parse({}) });
    expect(runtime.startup.unreferencedFilesRemoved).toBe(1);
    for (const image of seeded!.turns[0]!.images) expect((await runtime.storage.images.read(image.id)).status).toBe('ok');
    expect((await import('node:fs')).existsSync(young)).toBe(true);
    runtime.close();
  });
});
