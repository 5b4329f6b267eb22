/**
 * A full or read-only disk under `sightline run`: an image write fails with ENOSPC or EACCES (through the
 * blob store's fault seam, swapped in with vi.mock because a tiny tmpfs or a read-only folder is not
 * available to a root test runner). The run stops with exit 1 and a message that names the disk problem;
 * the turn is ended, not left running; the database passes integrity_check; every image row has its file
 * and the images stored before the fault are intact; once the fault is gone the session continues.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AgentEventSchema, type AgentEvent } from '../../src/shared/events.js';
import { runCli } from '../../src/main/cli/program.js';
import type { BlobStoreFaults } from '../../src/main/storage/index.js';
import type * as BlobStoreModule from '../../src/main/storage/blob-store.js';
import { SANDBOX_LAYOUT } from '../../demo/demo-script.js';
import { captureIo } from '../helpers/cli-io.js';
import { scriptedMoves, type ScriptedMove } from '../helpers/scripted-computer-model.js';
import { openHomeStorage } from '../helpers/seed.js';
import { storageProblems } from '../helpers/storage-consistency.js';
import { useRunEnvironment } from '../helpers/run-environment.js';

/** The fault the next blob writes meet: from the `failFromWrite`-th write on, every write fails with `code`. */
const disk = vi.hoisted(() => ({ writes: 0, failFromWrite: Number.POSITIVE_INFINITY, code: 'ENOSPC' }));

vi.mock('../../src/main/storage/blob-store.js', async (importOriginal) => {
  const original = await importOriginal<typeof BlobStoreModule>();
  class BlobStoreOnAFailingDisk extends original.BlobStore {
    constructor(directories: ConstructorParameters<typeof original.BlobStore>[0], faults: BlobStoreFaults = {}) {
      super(directories, {
        ...faults,
        beforeRename: async (temporaryPath, finalPath) => {
          disk.writes += 1;
          if (disk.writes >= disk.failFromWrite) {
            throw Object.assign(new Error(`${disk.code}: simulated, write '${finalPath}'`), { code: disk.code });
          }
          await faults.beforeRename?.(temporaryPath, finalPath);
        },
      });
    }
  }
  return { ...original, BlobStore: BlobStoreOnAFailingDisk };
});

const environment = useRunEnvironment('sightline-full-disk');
beforeEach(() => {
  Object.assign(disk, { writes: 0, failFromWrite: Number.POSITIVE_INFINITY, code: 'ENOSPC' });
});

async function run(task: string, ...extra: string[]): Promise<{ exitCode: number; stdout: string; stderr: string; events: AgentEvent[] }> {
  const io = captureIo();
  const argv = ['--home', environment.home.root, 'run', task, '--operator', 'browser', '--url', environment.sandbox.url, '--base-url', environment.model.baseUrl, '--json', ...extra];
  const exitCode = await runCli(argv, io);
  const events = io.output.stdout.split('\n').filter((line) => line !== '').map((line) => AgentEventSchema.parse(JSON.parse(line)));
  return { exitCode, ...io.output, events };
}

const typeName: ScriptedMove[] = [
  { action: { action: 'click', ...SANDBOX_LAYOUT.teamNameField } },
  { action: { action: 'type', text: 'Platform' } },
  { action: { action: 'click', ...SANDBOX_LAYOUT.saveButton } },
  { finish: 'Named the team Platform.' },
];

describe('a failing image write during sightline run', () => {
  it.each([
    { code: 'ENOSPC', failFromWrite: 3, words: 'the disk is full (ENOSPC)' },
    { code: 'EACCES', failFromWrite: 1, words: 'permission denied (EACCES)' },
  ])('stops the run at write $failFromWrite with $code, keeps what was stored, and the session continues', { timeout: 60_000 }, async ({ code, failFromWrite, words }) => {
    Object.assign(disk, { code, failFromWrite });
    environment.model.script(scriptedMoves(typeName));
    const failed = await run('Name the team Platform');

    expect(failed.exitCode, failed.stderr).toBe(1);
    const ended = failed.events.find((event): event is Extract<AgentEvent, { type: 'turn-ended' }> => event.type === 'turn-ended');
    expect(ended).toMatchObject({ status: 'failed' });
    expect(ended!.summary).toContain(words);
    expect(failed.stderr).toContain(words);
    expect(failed.stderr).not.toMatch(/^\s+at /m);
    // It stopped at the fault: the model was not asked to carry on without its screenshots.
    expect(environment.model.requests.length).toBeLessThanOrEqual(failFromWrite);

    const storage = openHomeStorage(environment.home);
    try {
      expect(await storageProblems(storage)).toEqual([]);
      expect(storage.turns.get(ended!.turnId)?.status).toBe('failed');
      expect(storage.images.listBySession(ended!.sessionId)).toHaveLength(failFromWrite - 1);
    } finally {
      storage.close();
    }

    // The disk has room again: the same session takes the next turn.
    Object.assign(disk, { failFromWrite: Number.POSITIVE_INFINITY });
    environment.model.script(scriptedMoves([{ finish: 'The name is set.' }]));
    const next = await run('Check the name', '--session', ended!.sessionId);
    expect(next.exitCode, next.stderr).toBe(0);
    const after = openHomeStorage(environment.home);
    try {
      expect(await storageProblems(after)).toEqual([]);
      expect(after.turns.listBySession(ended!.sessionId).map((turn) => turn.status)).toEqual(['failed', 'finished']);
    } finally {
      after.close();
    }
  });
});
