/**
 * The store's identity: a random id made once, when the store's tables are. A reader's mirror records the id it
 * pulled from; a store dropped and made again under the same URL has another, so the mirror starts over instead of
 * waiting for revisions past its old mark that the new store may take weeks to reach (and showing sessions the team
 * deleted meanwhile).
 */
import type { TeamMigration } from './team-migration.js';

export const storeIdentity: TeamMigration = {
  version: 2,
  name: 'store-identity',
  sql: `
CREATE TABLE team_store_identity (
  id          TEXT PRIMARY KEY,
  created_at  TEXT NOT NULL
);
INSERT INTO team_store_identity (id, created_at)
  VALUES (gen_random_uuid()::text, to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'));
`,
};
