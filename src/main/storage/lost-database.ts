/**
 * An empty database file beside stored images: the database was lost (truncated to nothing by a crash,
 * a full disk or a sync tool), not new. SQLite would take the empty file for a new database and Sightline
 * would carry on as if it had never run, leaving every image without its row; this refuses instead, so
 * the user notices and decides (a fresh home folder starts with no file at all, and no images).
 */
import { readdirSync, statSync } from 'node:fs';
import { DatabaseOpenError } from './database.js';
import { keepAndMoveAsideAdvice } from './storage-failures.js';

export interface DatabaseSurroundings {
  databaseFile: string;
  blobsDirectory: string;
  coldStorageDirectory: string;
}

/** Throws DatabaseOpenError when the database file is empty and image files are stored beside it. */
export function refuseLostDatabase(paths: DatabaseSurroundings): void {
  const size = fileSize(paths.databaseFile);
  if (size !== 0) return;
  if (!holdsAnything(paths.blobsDirectory) && !holdsAnything(paths.coldStorageDirectory)) return;
  throw new DatabaseOpenError(
    paths.databaseFile,
    `the file is empty, yet images are stored beside it in ${paths.blobsDirectory} or ${paths.coldStorageDirectory}: ` +
      `the database was lost (truncated or replaced), it is not new. ${keepAndMoveAsideAdvice(paths.databaseFile)}`,
  );
}

function fileSize(path: string): number | undefined {
  try {
    return statSync(path).size;
  } catch {
    return undefined;
  }
}

function holdsAnything(folder: string): boolean {
  try {
    return readdirSync(folder).length > 0;
  } catch {
    return false;
  }
}
