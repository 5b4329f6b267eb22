/**
 * How `sessions`, `report` and `timeline` read the team store: they open its local mirror (team-store/team-mirror.ts)
 * under this machine's home, pull what is new, and read the mirror as they read a home. A store that cannot be
 * reached is the user's to fix (exit 1, with the shown URL and the cause); nothing is half-read.
 */
import type { SightlineHome } from '../../config/home.js';
import { PostgresTeamStore, TeamStoreError } from '../../team-store/postgres-team-store.js';
import { S3TeamBlobs } from '../../team-store/s3-team-blobs.js';
import { openTeamMirror, type TeamMirror } from '../../team-store/team-mirror.js';
import { EXIT, UserError } from '../io.js';
import type { TeamAddresses } from './team-store-options.js';

export async function openTeamReader(home: SightlineHome, addresses: TeamAddresses, env: Record<string, string | undefined>): Promise<TeamMirror> {
  const rows = await PostgresTeamStore.open(addresses.store).catch((error: unknown) => {
    throw unreachable(error);
  });
  const blobs = S3TeamBlobs.create(addresses.blobs, env);
  let mirror: TeamMirror;
  try {
    mirror = openTeamMirror({ homeRoot: home.root, rows, blobs });
  } catch (error) {
    await rows.close();
    blobs.close();
    throw error;
  }
  try {
    await mirror.pull();
  } catch (error) {
    await mirror.close();
    blobs.close();
    throw unreachable(error);
  }
  const close = mirror.close;
  return {
    ...mirror,
    close: async () => {
      await close();
      blobs.close();
    },
  };
}

function unreachable(error: unknown): unknown {
  if (error instanceof TeamStoreError) return new UserError(error.message, EXIT.failed);
  return error;
}

/** Opens the team store's mirror (pulled), lends its storage to `use`, and closes it: one read by a short command. */
export async function readTeamStore<Result>(
  home: SightlineHome,
  addresses: TeamAddresses,
  env: Record<string, string | undefined>,
  use: (storage: TeamMirror['storage']) => Result | Promise<Result>,
): Promise<Result> {
  const mirror = await openTeamReader(home, addresses, env);
  try {
    return await use(mirror.storage);
  } finally {
    await mirror.close();
  }
}
