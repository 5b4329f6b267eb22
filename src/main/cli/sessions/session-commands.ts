/**
 * The work of `sightline sessions ls|show|pin|unpin` (commands/sessions.ts declares them), loaded only when one runs:
 * it opens the database, and with --store the team store (PostgreSQL and S3 clients).
 */
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { z } from 'zod';
import { parseId } from '../../../shared/ids.js';
import { resolveHome, type SightlineHome } from '../../config/home.js';
import { explainStorageFailure } from '../storage-failure-errors.js';
import { DatabaseOpenError, DatabaseVersionError, openStorage, type Storage } from '../../storage/index.js';
import { EXIT, UserError, type CliInvocation } from '../io.js';
import { commandOutput } from '../terminal-output.js';
import { readTeamStore } from '../team/team-reader.js';
import { teamAddresses, type TeamAddresses } from '../team/team-store-options.js';
import type { ListOptions, ShowOptions } from './sessions-options.js';
import { renderSessionDetail, renderSessionTable, sessionDetail } from './sessions-output.js';

const GlobalOptionsSchema = z.looseObject({ home: z.string().optional() });

export async function listSessions(invocation: CliInvocation, home: SightlineHome, options: ListOptions): Promise<void> {
  const stdout = commandOutput(invocation.io.stdout, options.json);
  const team = teamAddresses(options, invocation.io.env);
  const where = team === undefined ? home.root : team.store.shown;
  if (team === undefined && !existsSync(home.databaseFile)) {
    stdout(options.json === true ? '[]\n' : `no sessions yet (in ${home.root})\n`);
    return;
  }
  await withStorage(home, team, invocation.io, (storage) => {
    const summaries = storage.sessions.list({ limit: options.limit });
    if (options.json === true) {
      stdout(`${JSON.stringify(summaries, null, 2)}\n`);
    } else if (summaries.length === 0) {
      stdout(`no sessions yet (in ${where})\n`);
    } else {
      stdout(renderSessionTable(summaries));
      const total = storage.sessions.count();
      if (total > summaries.length) stdout(`(${summaries.length} of ${total}; use --limit to see more)\n`);
    }
  });
}

export async function showSession(
  invocation: CliInvocation,
  home: SightlineHome,
  idText: string,
  options: ShowOptions,
): Promise<void> {
  const id = parseId('session', idText);
  if (id === undefined) {
    throw new UserError(`"${idText}" is not a session id (expected ses_ followed by 12 hex digits).`, EXIT.usage);
  }
  const team = teamAddresses(options, invocation.io.env);
  const unknown = new UserError(`no session ${id} in ${team === undefined ? home.root : team.store.shown} (see \`sightline sessions ls\`).`, EXIT.usage);
  if (team === undefined && !existsSync(home.databaseFile)) throw unknown;
  await withStorage(home, team, invocation.io, (storage) => {
    const detail = sessionDetail(storage, id);
    if (detail === undefined) throw unknown;
    const stdout = commandOutput(invocation.io.stdout, options.json);
    stdout(options.json === true ? `${JSON.stringify(detail, null, 2)}\n` : renderSessionDetail(detail));
  });
}

export function changePin(invocation: CliInvocation, home: SightlineHome, idText: string, change: 'pin' | 'unpin'): void {
  const id = parseId('image', idText);
  if (id === undefined) {
    throw new UserError(`"${idText}" is not an image id (expected img_ followed by 12 hex digits).`, EXIT.usage);
  }
  const unknown = new UserError(`no image ${id} in ${home.root} (see \`sightline sessions show SESSION_ID\`).`, EXIT.usage);
  if (!existsSync(home.databaseFile)) throw unknown;
  withHomeStorage(home, (storage) => {
    const image = storage.images.get(id);
    if (image === undefined) throw unknown;
    if (change === 'unpin') {
      const removed = storage.pins.unpin(id);
      invocation.io.stdout(removed ? `unpinned ${id}: it folds like any other frame again\n` : `${id} was not pinned\n`);
      return;
    }
    const outcome = storage.pins.pin(id);
    if (outcome.status === 'refused') throw new UserError(outcome.message, EXIT.usage);
    invocation.io.stdout(`pinned ${id}: every later request of session ${image.sessionId} sends it whole\n`);
  });
}

/** The home's storage, or with --store the team store's mirror after a pull. */
async function withStorage(
  home: SightlineHome,
  team: TeamAddresses | undefined,
  io: Pick<CliInvocation['io'], 'env' | 'stderr'>,
  use: (storage: Storage) => void,
): Promise<void> {
  if (team === undefined) {
    withHomeStorage(home, use);
    return;
  }
  await readTeamStore(home, team, io.env, io.stderr, use);
}

function withHomeStorage(home: SightlineHome, use: (storage: Storage) => void): void {
  let storage: Storage;
  try {
    storage = openStorage(home);
  } catch (error) {
    if (error instanceof DatabaseVersionError || error instanceof DatabaseOpenError) {
      throw new UserError(error.message, EXIT.failed);
    }
    throw error;
  }
  try {
    use(storage);
  } catch (error) {
    throw explainStorageFailure(error, storage.paths);
  } finally {
    storage.close();
  }
}

export function homeOf(command: Command, invocation: CliInvocation): SightlineHome {
  const globals = GlobalOptionsSchema.parse(command.optsWithGlobals());
  return resolveHome({ flag: globals.home, env: invocation.io.env, cwd: invocation.io.cwd });
}
