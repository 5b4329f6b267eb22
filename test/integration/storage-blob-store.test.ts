import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BlobStore, BlobWriteError, sha256Of } from '../../src/main/storage/index.js';
import { createTemporaryHome, makePng, type TemporaryHome } from '../helpers/seed.js';

let home: TemporaryHome;
let store: BlobStore;
beforeEach(() => {
  home = createTemporaryHome('sightline-blobs');
  store = new BlobStore(home);
});
afterEach(() => home.remove());

/** Every file under a folder, relative, sorted: to see exactly what a write left behind. */
function filesUnder(root: string): string[] {
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(root.length + 1))
    .sort();
}

describe('writing and reading', () => {
  it('stores bytes under their sha256 with the extension of their type, and reads them back', async () => {
    const bytes = await makePng({ seed: 1 });
    const written = await store.write(bytes, 'image/png');
    expect(written).toEqual({ sha256: sha256Of(bytes), byteSize: bytes.byteLength });
    expect(filesUnder(home.blobsDirectory)).toEqual([`${written.sha256.slice(0, 2)}/${written.sha256}.png`]);
    const read = await store.read(written.sha256, 'image/png');
    expect(read).toEqual({ status: 'ok', bytes, location: 'blobs' });
    expect(await store.locate(written.sha256, 'image/png')).toBe('blobs');
  });

  it('reuses an intact identical file instead of writing it again', async () => {
    const bytes = await makePng({ seed: 2 });
    const first = await store.write(bytes, 'image/png');
    const path = store.pathFor('blobs', first.sha256, 'image/png');
    const past = new Date('2020-01-01T00:00:00Z');
    utimesSync(path, past, past);
    const second = await store.write(Buffer.from(bytes), 'image/png');
    expect(second).toEqual(first);
    expect(filesUnder(home.blobsDirectory)).toHaveLength(1);
    expect(readdirSync(join(home.blobsDirectory, first.sha256.slice(0, 2)))).toHaveLength(1);
    // Untouched: the reuse did not rewrite the file.
    expect((await import('node:fs')).statSync(path).mtime.getTime()).toBe(past.getTime());
  });

  it('replaces a damaged file when the same bytes are written again', async () => {
    const bytes = await makePng({ seed: 3 });
    const { sha256 } = await store.write(bytes, 'image/png');
    writeFileSync(store.pathFor('blobs', sha256, 'image/png'), 'garbage');
    await store.write(bytes, 'image/png');
    expect(await store.read(sha256, 'image/png')).toMatchObject({ status: 'ok', bytes });
  });

  it('reads a corrupted blob as unavailable (corrupt), not as a crash or wrong pixels', async () => {
    const bytes = await makePng({ seed: 4 });
    const { sha256 } = await store.write(bytes, 'image/png');
    const path = store.pathFor('blobs', sha256, 'image/png');
    const damaged = Buffer.from(bytes);
    damaged[damaged.length - 10] = (damaged[damaged.length - 10] ?? 0) ^ 0xff;
    writeFileSync(path, damaged);
    const read = await store.read(sha256, 'image/png');
    expect(read).toMatchObject({ status: 'unavailable', reason: 'corrupt' });
    expect(read.status === 'unavailable' && read.message).toMatch(/damaged/);
  });

  it('reads a missing blob as unavailable (missing)', async () => {
    const read = await store.read('f'.repeat(64), 'image/png');
    expect(read).toMatchObject({ status: 'unavailable', reason: 'missing' });
    expect(await store.locate('f'.repeat(64), 'image/png')).toBeUndefined();
  });

  it('refuses a "hash" that is not one, so no path outside the store can be named', async () => {
    await expect(store.read('../../etc/passwd', 'image/png')).rejects.toThrow(/Not a sha256/);
  });
});

describe('archive and retrieve', () => {
  it('moves a blob to cold storage by rename and still reads it, idempotently', async () => {
    const bytes = await makePng({ seed: 5 });
    const { sha256 } = await store.write(bytes, 'image/png');
    expect(await store.archive(sha256, 'image/png')).toBe('archived');
    expect(filesUnder(home.blobsDirectory)).toEqual([]);
    expect(filesUnder(home.coldStorageDirectory)).toEqual([`${sha256.slice(0, 2)}/${sha256}.png`]);
    expect(await store.locate(sha256, 'image/png')).toBe('cold');
    expect(await store.read(sha256, 'image/png')).toEqual({ status: 'ok', bytes, location: 'cold' });
    expect(await store.archive(sha256, 'image/png')).toBe('already-archived');
    expect(await store.archive('e'.repeat(64), 'image/png')).toBe('missing');
    expect(await store.removeCold(sha256, 'image/png')).toBe(true);
    expect(await store.removeCold(sha256, 'image/png')).toBe(false);
    expect(await store.read(sha256, 'image/png')).toMatchObject({ status: 'unavailable', reason: 'missing' });
  });
});

describe('a write interrupted between the temp file and the rename', () => {
  it('leaves no partial file at the final path and loses nothing already stored (child killed with SIGKILL)', async () => {
    const earlier = await makePng({ seed: 6 });
    const earlierWrite = await store.write(earlier, 'image/png');
    const payload = randomBytes(512 * 1024);
    const payloadFile = join(home.root, 'payload.bin');
    writeFileSync(payloadFile, payload);

    const childScript = fileURLToPath(new URL('../helpers/blob-writer-child.ts', import.meta.url));
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', childScript, home.blobsDirectory, home.coldStorageDirectory, payloadFile],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const paused = await new Promise<{ temporaryPath: string; finalPath: string }>((resolve, reject) => {
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const line = stdout.split('\n').find((candidate) => candidate.includes('"paused":true'));
        if (line !== undefined) resolve(JSON.parse(line) as { temporaryPath: string; finalPath: string });
      });
      child.on('exit', (code) => reject(new Error(`child exited (${code}) before pausing: ${stderr}`)));
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    // The crash left the whole temp file, but nothing at the final path.
    expect(existsSync(paused.temporaryPath)).toBe(true);
    expect(existsSync(paused.finalPath)).toBe(false);
    expect(paused.finalPath).toBe(store.pathFor('blobs', sha256Of(payload), 'image/png'));
    const payloadRead = await store.read(sha256Of(payload), 'image/png');
    expect(payloadRead).toMatchObject({ status: 'unavailable', reason: 'missing' });

    // A young temp file might be another process's write in progress: reconcile leaves it by default.
    expect(await store.reconcile()).toEqual({ temporaryFilesRemoved: 0, unreferencedFilesRemoved: 0 });
    expect(await store.reconcile({ graceMs: 0 })).toEqual({ temporaryFilesRemoved: 1, unreferencedFilesRemoved: 0 });
    expect(filesUnder(home.blobsDirectory).filter((file) => file.endsWith('.tmp'))).toEqual([]);

    // Everything stored before is intact, and the interrupted write can simply be retried.
    expect(await store.read(earlierWrite.sha256, 'image/png')).toEqual({ status: 'ok', bytes: earlier, location: 'blobs' });
    await store.write(payload, 'image/png');
    expect(await store.read(sha256Of(payload), 'image/png')).toMatchObject({ status: 'ok' });
    // Buffer.equals: a deep toEqual over half a megabyte is needlessly slow.
    expect(readFileSync(paused.finalPath).equals(payload)).toBe(true);
  });

  it('removes its temp file and rethrows a clear error when the rename fails (disk full)', async () => {
    const earlier = await makePng({ seed: 7 });
    const earlierWrite = await store.write(earlier, 'image/png');
    let seenTemporaryPath = '';
    const failing = new BlobStore(home, {
      beforeRename: (temporaryPath) => {
        seenTemporaryPath = temporaryPath;
        throw Object.assign(new Error('ENOSPC: no space left on device, rename'), { code: 'ENOSPC' });
      },
    });
    const bytes = await makePng({ seed: 8 });
    const attempt = failing.write(bytes, 'image/png');
    await expect(attempt).rejects.toBeInstanceOf(BlobWriteError);
    await expect(attempt).rejects.toThrow(/disk is full \(ENOSPC\)/);
    expect(seenTemporaryPath).not.toBe('');
    expect(existsSync(seenTemporaryPath)).toBe(false);
    expect(filesUnder(home.blobsDirectory)).toEqual([`${earlierWrite.sha256.slice(0, 2)}/${earlierWrite.sha256}.png`]);
    expect(await store.read(earlierWrite.sha256, 'image/png')).toMatchObject({ status: 'ok', bytes: earlier });
  });

  it('names a permission problem in words', async () => {
    const failing = new BlobStore(home, {
      beforeRename: () => {
        throw Object.assign(new Error('EACCES: permission denied, rename'), { code: 'EACCES' });
      },
    });
    await expect(failing.write(await makePng({ seed: 9 }), 'image/png')).rejects.toThrow(/permission denied \(EACCES\)/);
    expect(filesUnder(home.blobsDirectory)).toEqual([]);
  });
});
