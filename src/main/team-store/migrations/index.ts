/** Every team store migration, in order. A schema change is a new numbered file added at the end of this list. */
import { sessionsAndStates } from './0001-sessions-and-states.js';
import { storeIdentity } from './0002-store-identity.js';
import { turnAllowedFailure } from './0003-turn-allowed-failure.js';
import type { TeamMigration } from './team-migration.js';

export type { TeamMigration } from './team-migration.js';

export const TEAM_MIGRATIONS: readonly TeamMigration[] = [sessionsAndStates, storeIdentity, turnAllowedFailure];
