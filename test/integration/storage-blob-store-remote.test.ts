/**
 * A mirror home's blob store reads the pixels it lacks from the team store (issue 29): fetched on a miss,
 * checked against the sha256, kept in cold-storage/ so the next read is local, and every failure of the remote
 * reported as an unavailable image, never a crash or wrong pixels.
 */
import { existsSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BlobStore, sha256Of, type RemoteBlobs } from '../../src/main/storage/index.js';
import { createTemporaryHome, makePng, type TemporaryHome } from '../helpers/seed.js';

let home: TemporaryHome;
beforeEach(() => {
  home = createTemporaryHome('sightline-remote-blobs');
});
afterEach(() => home.remove());

/** A remote that answers from a map and records what it was asked. */
function remoteOf(answer: (sha256: string) => Uint8Array | undefined | Promise<Uint8Array | undefined>): RemoteBlobs & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    fetch: async (sha256, mime) => {
      asked.push(`${sha256}.${mime}`);
      return answer(sha256);
    },
  };
}

describe('a blob store with a remote', () => {
  it('fetches a blob it lacks, keeps it in cold storage, and reads the kept copy the next time', async () => {
    const bytes = await makePng({ seed: 7 });
    const sha256 = sha256Of(bytes);
    const remote = remoteOf((asked) => (asked === sha256 ? new Uint8Array(bytes) : undefined));
    const store = new BlobStore(home, {}, remote);

    expect(await store.read(sha256, 'image/png')).toEqual({ status: 'ok', bytes, location: 'cold' });
    expect(remote.asked).toEqual([`${sha256}.image/png`]);
    expect(existsSync(store.pathFor('cold', sha256, 'image/png'))).toBe(true);

    expect(await store.read(sha256, 'image/png')).toEqual({ status: 'ok', bytes, location: 'cold' });
    expect(remote.asked).toHaveLength(1);
  });

  it('does not ask the remote for a blob it has', async () => {
    const remote = remoteOf(() => {
      throw new Error('not to be asked');
    });
    const store = new BlobStore(home, {}, remote);
    const bytes = await makePng({ seed: 8 });
    const { sha256 } = await store.write(bytes, 'image/png');
    expect(await store.read(sha256, 'image/png')).toEqual({ status: 'ok', bytes, location: 'blobs' });
    expect(remote.asked).toEqual([]);
  });

  it('refuses bytes that do not match the hash, keeps nothing, and asks again next time', async () => {
    const bytes = await makePng({ seed: 9 });
    const sha256 = sha256Of(bytes);
    const remote = remoteOf(() => Buffer.from('not the picture'));
    const store = new BlobStore(home, {}, remote);
    const read = await store.read(sha256, 'image/png');
    expect(read).toEqual({
      status: 'unavailable',
      reason: 'corrupt',
      message: `The team store returned damaged bytes for the image file ${sha256.slice(0, 12)}…: they do not match its sha256.`,
    });
    expect(existsSync(store.pathFor('cold', sha256, 'image/png'))).toBe(false);
    await store.read(sha256, 'image/png');
    expect(remote.asked).toHaveLength(2);
  });

  it('reads a blob the remote does not have either as missing', async () => {
    const sha256 = 'c'.repeat(64);
    const store = new BlobStore(home, {}, remoteOf(() => undefined));
    expect(await store.read(sha256, 'image/png')).toEqual({
      status: 'unavailable',
      reason: 'missing',
      message: `The image file ${sha256.slice(0, 12)}… is neither in this home nor in the team store.`,
    });
  });

  it('reads a blob as unavailable, naming the remote failure, when the fetch throws', async () => {
    const sha256 = 'd'.repeat(64);
    const store = new BlobStore(
      home,
      {},
      remoteOf(() => {
        throw new Error('the team blobs at s3://team-bucket are unreachable: connection refused');
      }),
    );
    expect(await store.read(sha256, 'image/png')).toEqual({
      status: 'unavailable',
      reason: 'missing',
      message:
        `The image file ${sha256.slice(0, 12)}… is not in this home, and fetching it from the team store failed: ` +
        'the team blobs at s3://team-bucket are unreachable: connection refused',
    });
  });

  it('still shows fetched bytes when keeping them fails', async () => {
    const bytes = await makePng({ seed: 10 });
    const sha256 = sha256Of(bytes);
    const store = new BlobStore(
      home,
      {
        beforeRename: () => {
          throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
        },
      },
      remoteOf(() => bytes),
    );
    expect(await store.read(sha256, 'image/png')).toEqual({ status: 'ok', bytes, location: 'cold' });
    expect(existsSync(store.pathFor('cold', sha256, 'image/png'))).toBe(false);
  });
});
