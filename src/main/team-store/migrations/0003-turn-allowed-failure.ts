/**
 * A turn's allowed failure (the local database's migration 0015, issue 35): a flow step that failed under its
 * `continue_on_error` is marked so, and a worker's session read from the team store must show the same mark as
 * its home does. NULL for every other turn and for rows replicated before it.
 */
import type { TeamMigration } from './team-migration.js';

export const turnAllowedFailure: TeamMigration = {
  version: 3,
  name: 'turn-allowed-failure',
  sql: `
ALTER TABLE turns ADD COLUMN allowed_failure BIGINT;
`,
};
