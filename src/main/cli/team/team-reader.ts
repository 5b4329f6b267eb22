/**
 * How `sessions`, `report` and `timeline` read the team store: they open its local mirror (team-store/team-mirror.ts)
 * under this machine's home, pull what is new, and read the mirror as they read a home. A store that cannot be
 * reached is the user's to fix (exit 1, with the shown URL and the cause); nothing is half-read. A session the mirror
 * skipped for a row it refused is said on stderr by every command that reads the mirror (its id and what was wrong,
 * made safe for a terminal): the command reads the rest.
 */
import { terminalLine } from '../../../shared/terminal-text.js';
import type { SightlineHome } from '../../config/home.js';
import type { SkippedSession } from '../../storage/index.js';
import { PostgresTeamStore, TeamStoreError } from '../../team-store/postgres-team-store.js';
import { S3TeamBlobs } from '../../team-store/s3-team-blobs.js';
import { openTeamMirror, type TeamMirror } from '../../team-store/team-mirror.js';
import { EXIT, UserError } from '../io.js';
import type { TeamAddresses } from './team-store-options.js';

/** The most skipped sessions a command lists one by one; the rest are counted. */
const SKIPPED_LISTED = 10;

/** Lines for sessions the mirror skipped: what was wrong, and that the rest was read. */
export function skippedSessionLines(skipped: readonly SkippedSession[]): string[] {
  const lines = skipped
    .slice(0, SKIPPED_LISTED)
    .map((entry) => `team store: skipped session ${terminalLine(entry.sessionId.slice(0, 80))}: ${terminalLine(entry.problem)}; the other sessions are read, and this one is pulled again when it changes\n`);
  if (skipped.length > SKIPPED_LISTED) lines.push(`team store: and ${skipped.length - SKIPPED_LISTED} more sessions skipped for rows this Sightline refused\n`);
  return lines;
}

export async function openTeamReader(
  home: SightlineHome,
  addresses: TeamAddresses,
  env: Record<string, string | undefined>,
  say: (line: string) => void,
): Promise<TeamMirror> {
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
  for (const line of skippedSessionLines(mirror.skipped())) say(line);
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
  say: (line: string) => void,
  use: (storage: TeamMirror['storage']) => Result | Promise<Result>,
): Promise<Result> {
  const mirror = await openTeamReader(home, addresses, env, say);
  try {
    return await use(mirror.storage);
  } finally {
    await mirror.close();
  }
}
