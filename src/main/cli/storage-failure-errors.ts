/**
 * A database failure met after the database opened (a damaged page, a full disk, a file made read-only) is
 * the person's to resolve, like one met while opening it: the guided message, exit 1, never "unexpected error".
 */
import { describeStorageFailure, type StoragePaths } from '../storage/index.js';
import { EXIT, UserError } from './io.js';

/** The error to throw instead: the guided one for a storage failure, else the error itself. */
export function explainStorageFailure(error: unknown, paths: Pick<StoragePaths, 'databaseFile'>): unknown {
  const guided = describeStorageFailure(error, paths);
  return guided === undefined ? error : new UserError(guided, EXIT.failed);
}
