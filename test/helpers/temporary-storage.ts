/**
 * Real storage in a fresh temporary home folder, for tests that read and write it directly: one call
 * opens it, one call closes it and removes the folder (in that order, so no open file is left behind).
 *
 *   let temporary: TemporaryStorage;
 *   let storage: Storage;
 *   beforeEach(() => {
 *     temporary = createTemporaryStorage('sightline-something');
 *     storage = temporary.storage;
 *   });
 *   afterEach(() => temporary.remove());
 */
import type { Storage, StorageOptions } from '../../src/main/storage/index.js';
import { createTemporaryHome, openHomeStorage, type TemporaryHome } from './seed.js';

/** The test seams storage takes: a clock that ages rows, faults in the blob store. */
export type StorageSeams = Pick<StorageOptions, 'clock' | 'blobFaults'>;

export interface TemporaryStorage {
  /** The storage open now (`reopen` replaces it). */
  readonly storage: Storage;
  /** The folder and its paths: databaseFile, blobsDirectory, coldStorageDirectory. */
  readonly home: TemporaryHome;
  /** Closes the storage and opens the same files again, with other seams: what a restart sees. */
  reopen: (seams?: StorageSeams) => Storage;
  /** Closes the storage and deletes the folder with everything in it. */
  remove: () => void;
}

export function createTemporaryStorage(label: string, seams: StorageSeams = {}): TemporaryStorage {
  const home = createTemporaryHome(label);
  let storage = openHomeStorage(home, seams);
  return {
    get storage() {
      return storage;
    },
    home,
    reopen: (reopenSeams = {}) => {
      storage.close();
      storage = openHomeStorage(home, reopenSeams);
      return storage;
    },
    remove: () => {
      storage.close();
      home.remove();
    },
  };
}
