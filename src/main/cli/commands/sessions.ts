/**
 * `sightline sessions ls` and `sightline sessions show ID`: what is stored, read straight from the
 * database of the chosen home folder, or with --store/--blobs from the team store (through its local mirror).
 * Read-only: listing a home that has no database creates nothing.
 * `sightline sessions pin IMAGE_ID` and `unpin IMAGE_ID`: a person keeps a key frame whole in every later
 * request of its session (issue 16), or lets it fold again.
 * The work is in ../sessions/, loaded only when one of them runs.
 */
import { Option, type Command } from 'commander';
import type { CliInvocation } from '../io.js';
import { DEFAULT_LIST_LIMIT, ListOptionsSchema, parsePositiveInteger, ShowOptionsSchema } from '../sessions/sessions-options.js';
import { TEAM_OPTION_HELP } from '../team/team-store-options.js';
import { jsonHelp, limitHelp } from '../option-help.js';

export function registerSessionsCommand(program: Command, invocation: CliInvocation): void {
  const sessions = program.command('sessions').description('list and inspect stored sessions');

  sessions
    .command('ls')
    .description('list sessions, newest first')
    .option('--json', jsonHelp('the sessions, as an array'))
    .addOption(
      new Option('--limit <count>', limitHelp('sessions', DEFAULT_LIST_LIMIT))
        .argParser(parsePositiveInteger)
        .default(DEFAULT_LIST_LIMIT),
    )
    .option('--store <url>', TEAM_OPTION_HELP.store)
    .option('--blobs <url>', TEAM_OPTION_HELP.blobs)
    .action(async (rawOptions: unknown, command: Command) => {
      const options = ListOptionsSchema.parse(rawOptions);
      const { homeOf, listSessions } = await import('../sessions/session-commands.js');
      await listSessions(invocation, homeOf(command, invocation), options);
    });

  sessions
    .command('show')
    .description('show one session: its turns, their steps and screenshots, and search reports')
    .argument('<id>', 'session id, with or without its ses_ prefix')
    .option('--json', jsonHelp('the session with its turns, steps and screenshots'))
    .option('--store <url>', TEAM_OPTION_HELP.store)
    .option('--blobs <url>', TEAM_OPTION_HELP.blobs)
    .action(async (id: string, rawOptions: unknown, command: Command) => {
      const options = ShowOptionsSchema.parse(rawOptions);
      const { homeOf, showSession } = await import('../sessions/session-commands.js');
      await showSession(invocation, homeOf(command, invocation), id, options);
    });

  sessions
    .command('pin')
    .description('pin a screenshot: every later request of its session sends it whole')
    .argument('<image-id>', 'image id, with or without its img_ prefix')
    .action(async (id: string, _options: unknown, command: Command) => {
      const { changePin, homeOf } = await import('../sessions/session-commands.js');
      changePin(invocation, homeOf(command, invocation), id, 'pin');
    });

  sessions
    .command('unpin')
    .description('unpin a screenshot: it folds like any other frame again')
    .argument('<image-id>', 'image id, with or without its img_ prefix')
    .action(async (id: string, _options: unknown, command: Command) => {
      const { changePin, homeOf } = await import('../sessions/session-commands.js');
      changePin(invocation, homeOf(command, invocation), id, 'unpin');
    });
}
