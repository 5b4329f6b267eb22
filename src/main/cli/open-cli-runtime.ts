/**
 * How every long-running command opens the home's storage: through openRuntime (startup repairs included),
 * with a database it cannot use (newer schema, not SQLite, corrupt, or failing under the repairs) reported as the
 * user's to resolve: the message as is, exit 1, the file untouched.
 */
import { openRuntime, type Runtime } from '../app/runtime.js';
import { DatabaseOpenError, DatabaseVersionError } from '../storage/index.js';
import type { CliConfig } from './cli-config.js';
import { explainStorageFailure } from './storage-failure-errors.js';
import { EXIT, UserError } from './io.js';

export async function openCliRuntime(loaded: Pick<CliConfig, 'home' | 'config'>): Promise<Runtime> {
  try {
    return await openRuntime({ home: loaded.home, config: loaded.config });
  } catch (error) {
    if (error instanceof DatabaseVersionError || error instanceof DatabaseOpenError) throw new UserError(error.message, EXIT.failed);
    // The startup repairs read and write too: a page damaged since the last run surfaces here.
    throw explainStorageFailure(error, loaded.home);
  }
}
